"""Tests of the aks folder of plan, laid out like the code."""
