"""Repeated measurements summarised by their median: wall-clock and process CPU time.

The machine may be shared (other builds and tests on the same two cores), so the in-process
phases are compared by CPU time of this process (every thread, the mock engine's executor
included), which other processes do not inflate; wall time is kept alongside.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

T = TypeVar("T")
Clock = Literal["cpu", "wall"]


@dataclass(frozen=True)
class Timing:
    """Every run of one measurement, in seconds."""

    wall_s: list[float] = field(default_factory=list)
    cpu_s: list[float] = field(default_factory=list)

    def median(self, clock: Clock = "cpu") -> float:
        runs = self.cpu_s if clock == "cpu" else self.wall_s
        return statistics.median(runs) if runs else float("nan")

    @property
    def runs(self) -> int:
        return len(self.wall_s)

    def as_dict(self) -> dict[str, object]:
        return {
            "median_cpu_s": self.median("cpu"),
            "median_wall_s": self.median("wall"),
            "cpu_s": list(self.cpu_s),
            "wall_s": list(self.wall_s),
        }


def timed(fn: Callable[[], T], into: Timing, *, collect_during: bool = True) -> T:
    """Run ``fn`` once, after a full collection so earlier garbage is not billed to it.

    ``collect_during=False`` keeps CPython's cyclic collector off while ``fn`` runs: it tells
    the algorithmic cost apart from the collector's passes over a heap that grows with size.
    """
    gc.collect()
    if not collect_during:
        gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        into.cpu_s.append(time.process_time() - cpu)
        into.wall_s.append(time.perf_counter() - wall)
    finally:
        gc.enable()
    return result


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, NaN when the denominator is not positive."""
    return numerator / denominator if denominator > 0 else float("nan")
