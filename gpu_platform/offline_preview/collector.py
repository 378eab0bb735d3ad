"""CPython's cyclic collector during a preview.

A program's heap is almost all long-lived: the SDK modules it imports and every resource's
Outputs, held until the run ends. CPython (3.13 and earlier) collects the oldest generation
each time that heap has grown by a quarter, and each such collection walks all of it to find
little garbage: on the dev stack, five of them cost about a quarter of the preview's CPU
(docs/performance.md); the younger generations' collections, too, cost more per resource the
larger the run (a team program of 20,000 resources: 10 s of 62 s).

Two policies:

- ``off_until_exit``, for a process that ends with ``os._exit`` once the preview is done (``python
  -m gpu_platform.offline_preview``): what the imports made is frozen and the collector is off
  until the end. Nothing is walked, and the cyclic garbage a run leaves (the SDK's finished
  tasks and their frames) stays until the process ends: about 8 KB per resource, +12% of the
  peak memory at 20,000 resources (1.57 GB against 1.41 GB), for 20% less CPU, and the cost per
  resource stays flat from 1,000 to 20,000 resources (docs/performance.md#fleet-scale). A
  process that goes on after the preview must not use it.
- ``full_collections_deferred``, around ``engine.run_program`` wherever it runs (a test process,
  a program's own virtualenv): full collections deferred, the younger generations collected as
  before, the caller's thresholds back afterwards. An incremental collector (CPython's design
  with two generations) has no such threshold and ignores it: there this changes nothing.
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


def off_until_exit() -> None:
    """Freeze what the process holds and turn the collector off for the rest of it: only for a
    process that ends with ``os._exit`` after one preview (see the module's docstring)."""
    gc.freeze()
    gc.disable()
