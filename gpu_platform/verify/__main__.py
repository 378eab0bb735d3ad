"""``python -m gpu_platform.verify``: verify a live cluster against the stack (``make verify``)."""

import sys

from . import main

sys.exit(main())
