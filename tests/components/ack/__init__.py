"""Tests of the ack folder of components, laid out like the code."""
