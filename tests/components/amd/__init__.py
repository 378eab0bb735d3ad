"""Tests of the amd folder of components, laid out like the code."""
