"""NVIDIA GPUs: its components."""
