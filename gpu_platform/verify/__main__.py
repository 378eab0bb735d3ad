"""``python -m gpu_platform.verify``: verify a live cluster against the stack (``make verify``)."""

from . import run

run()
