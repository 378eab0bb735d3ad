"""NVIDIA GPUs: its GPU facts, each with its source."""
