"""CPython's cyclic collector during a preview: full collections deferred, young ones kept.

A program's heap is almost all long-lived: the SDK modules it imports and every resource's
Outputs, held until the run ends. CPython runs a full collection each time that heap has grown
by a quarter, and each one walks all of it to find little garbage: on the dev stack, five
walks cost about a quarter of the preview's CPU (docs/performance.md). Young collections,
which catch the short-lived cycles of the SDK's Outputs and tasks, run as before.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

FULL_COLLECTION_AFTER = 1000
"""Young-generation (gen1) collections between full ones while deferred; CPython's default
is 10. A dev preview makes about 60, a 1,600-pool one a few thousand: large runs still
collect in full now and then, so the heap stays bounded in a long test session."""


@contextmanager
def full_collections_deferred() -> Iterator[None]:
    """Defer full collections for the block; the previous thresholds come back after it."""
    young, middle, full = gc.get_threshold()
    gc.set_threshold(young, middle, max(full, FULL_COLLECTION_AFTER))
    try:
        yield
    finally:
        gc.set_threshold(young, middle, full)
