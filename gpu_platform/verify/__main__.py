"""``python -m readiness``: verify a live cluster against the stack (``make verify``)."""

import sys

from .cli import main

sys.exit(main())
