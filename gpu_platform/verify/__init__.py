"""``make verify`` (``gpu-platform-verify``): a live cluster checked against the stack.

:func:`main` is the command. The Kubernetes client it reads the cluster with is the package's
``[verify]`` extra: without it the command says so (exit 2) instead of failing on the import.
"""

import sys

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
