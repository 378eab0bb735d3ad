"""AMD GPUs: its components."""
