"""Tests of the amd folder of plan, laid out like the code."""
