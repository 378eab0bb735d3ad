"""Tests of the existing folder of plan, laid out like the code."""
