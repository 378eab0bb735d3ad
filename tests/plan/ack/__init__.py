"""Tests of the ack folder of plan, laid out like the code."""
