"""Tests of the amd folder of verify, laid out like the code."""
