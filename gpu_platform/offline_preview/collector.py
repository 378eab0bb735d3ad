"""CPython's cyclic collector during a preview: full collections deferred, the others kept.

A program's heap is almost all long-lived: the SDK modules it imports and every resource's
Outputs, held until the run ends. CPython (3.13 and earlier) collects the oldest generation
each time that heap has grown by a quarter, and each such collection walks all of it to find
little garbage: on the dev stack, five of them cost about a quarter of the preview's CPU
(docs/performance.md). The collections of the two younger generations, which catch the
short-lived cycles of the SDK's Outputs and tasks, run as before.

Where: around ``engine.run_program`` (a program, in this interpreter or in its own
virtualenv's) and around the whole ``python -m gpu_platform.offline_preview`` process. An
incremental collector (CPython's design with two generations) has no such threshold and
ignores it: there this changes nothing.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

FULL_COLLECTION_AFTER = 1000
"""Collections of the middle generation between two of the oldest while deferred; CPython's
default is 10. A dev preview makes about 60, a 1,600-pool one a few thousand, so a large run
still collects in full now and then."""


@contextmanager
def full_collections_deferred() -> Iterator[None]:
    """Defer full collections for the block; the previous thresholds come back after it."""
    young, middle, oldest = gc.get_threshold()
    gc.set_threshold(young, middle, max(oldest, FULL_COLLECTION_AFTER))
    try:
        yield
    finally:
        gc.set_threshold(young, middle, oldest)
