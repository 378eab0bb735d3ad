"""``make verify`` (``python -m gpu_platform.verify``): a live cluster checked, read-only,
against the stack config."""
