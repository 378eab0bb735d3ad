import contextlib
import os
import sys

from .collector import off_until_exit

# One preview, then os._exit: the collector stays off to the end (see collector).
off_until_exit()
try:
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
