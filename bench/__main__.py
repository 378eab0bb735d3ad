"""``python -m bench`` (``make bench``): see ``bench/cli.py``."""

from .cli import main

raise SystemExit(main())
