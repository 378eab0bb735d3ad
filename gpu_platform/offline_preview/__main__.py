import contextlib
import os
import sys

from .collector import full_collections_deferred

try:
    with full_collections_deferred():  # the whole process, its imports too (see collector)
        from .cli import main

        code = main()
except KeyboardInterrupt:  # Ctrl-C while the preview still loads
    code = 130
with contextlib.suppress(OSError):
    sys.stdout.flush()
    sys.stderr.flush()
# Not sys.exit: a program stopped past its time may leave a worker thread running, which the
# interpreter would wait for at exit.
os._exit(code)
