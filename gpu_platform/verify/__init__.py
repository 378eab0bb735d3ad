"""``make verify`` (``gpu-platform-verify``): a live cluster checked against the stack.

:func:`main` is the command. The Kubernetes client it reads the cluster with is the package's
``[verify]`` extra: without it the command says so (exit 2) instead of failing on the import.
"""

import os
import sys
from typing import NoReturn

MISSING_CLIENT = (
    "verify: error: the Kubernetes client is not installed; gpu-platform-verify needs the "
    "[verify] extra: pip install 'gpu-platform[verify]'\n"
)


def main() -> int:
    """The command line (``gpu_platform.verify.cli``), once its Kubernetes client imports."""
    try:
        import kubernetes  # noqa: F401 (the [verify] extra)
    except ImportError:
        sys.stderr.write(MISSING_CLIENT)
        return 2
    from .cli import main as cli_main

    return cli_main()


def run() -> NoReturn:
    """The command: :func:`main` with the collector off, then the process ends at once (the
    heap of a large cluster is not torn down object by object: ``verify.collector``)."""
    from .collector import collector_off

    try:
        with collector_off():
            code = main()
    except KeyboardInterrupt:  # Ctrl-C before the command's own handler was reached
        sys.stderr.write("verify: interrupted\n")
        code = 130
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
