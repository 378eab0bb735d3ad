"""Tests of the existing folder of components, laid out like the code."""
