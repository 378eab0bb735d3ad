"""AMD GPUs: what the policies read of its resources."""
