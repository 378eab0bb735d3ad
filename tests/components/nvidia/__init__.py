"""Tests of the nvidia folder of components, laid out like the code."""
