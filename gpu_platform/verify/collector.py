"""CPython's cyclic collector during ``make verify``: off for the run, which ends the process.

A verify run reads the whole cluster into memory and keeps it to the end: every node, pod and
DaemonSet as the JSON the API server sent (dicts and lists, which hold no reference cycles) and
the rows made from them. CPython's collector, left on, walks that heap again and again as it
grows (each full collection walks all of it), finding almost nothing: at 5,000 GPU nodes with
20 pods each, 4 to 6 s of a 10 to 13 s read-only run (docs/performance.md). The little cyclic
garbage a run makes (exceptions caught in worker threads, with their frames) is freed when the
process ends, which it does at once (``os._exit``, no teardown of the heap): about 20 MB more at
that size, 1.6% of the peak.

Only the command (``gpu-platform-verify``, ``python -m gpu_platform.verify``) runs this way;
``cli.main`` called in a test process leaves its collector alone.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_off() -> Iterator[None]:
    """The collector off for the block, what is already loaded frozen out of its sight (it
    stays so: a module never becomes garbage); the collector as it was after the block."""
    was_enabled = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
