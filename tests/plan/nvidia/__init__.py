"""Tests of the nvidia folder of plan, laid out like the code."""
