"""Tests of the aks folder of components, laid out like the code."""
