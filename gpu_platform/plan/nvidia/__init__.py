"""NVIDIA GPUs: what a valid config means there, each rule once."""
