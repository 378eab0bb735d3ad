"""Config validation, registration and the policy pack at growing platform sizes, against floors.

Each repeat validates the config, registers our program, registers both floors (see
``floors``) with the same number of resources, and runs the policy pack over what our program
registered; ours and the floors alternate so drift of the machine affects them alike.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gpu_platform.components.platform import GpuPlatform
from gpu_platform.offline_preview import ProgramRun, run_callable, run_policies
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.stack_config import load_platform
from gpu_policies.registry import policies

from .floors import Registration, matched_floor, plain_floor
from .synthetic import SIZES, BenchCloud, Size, synthetic_raw
from .timing import Clock, Timing, ratio, timed

PLATFORM_NAME = "bench"
PHASES = ("validate", "register", "policies")
"""What each scale point measures of our code."""
FLOORS = ("floor", "matched")
"""Measured alongside ``register``: plain Kubernetes objects, and the same SDK classes."""


class _EngineLog(logging.Handler):
    """Counts what the program logs through the mock engine (warnings such as BP-15's)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@contextlib.contextmanager
def _engine_log() -> Iterator[_EngineLog]:
    # The mock engine logs to the root logger; a handler there keeps the table readable.
    handler = _EngineLog()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


@dataclass
class ScalePoint:
    """One cloud at one size: every phase's runs and what the run registered."""

    cloud: str
    size: Size
    resources: int
    """Registrations of our program (components, providers and cloud/Kubernetes objects)."""
    floor_resources: int
    resource_types: dict[str, int]
    violations: int
    engine_warnings: int
    """Warnings one registration run logged (the program's own, e.g. shared-GPU notices)."""
    timings: dict[str, Timing] = field(default_factory=dict)
    """``PHASES`` and ``FLOORS``."""
    clock: Clock = "cpu"

    def seconds(self, phase: str) -> float:
        return self.timings[phase].median(self.clock)

    def per_resource_ms(self, phase: str) -> float:
        return 1000 * ratio(self.seconds(phase), self.resources)

    @property
    def validate_per_item_ms(self) -> float:
        """Validation per config item (pools plus namespaces): what validation scales with."""
        return 1000 * ratio(self.seconds("validate"), self.size.pools + self.size.namespaces)

    @property
    def register_over_floor(self) -> float:
        return ratio(self.seconds("register"), self.seconds("floor"))

    @property
    def register_over_matched(self) -> float:
        """Our registration against the same SDK classes registered bare: our code's share."""
        return ratio(self.seconds("register"), self.seconds("matched"))

    @property
    def policies_over_register(self) -> float:
        return ratio(self.seconds("policies"), self.seconds("register"))

    def as_dict(self) -> dict[str, Any]:
        return {
            "cloud": self.cloud,
            "size": self.size.label,
            "pools": self.size.pools,
            "namespaces": self.size.namespaces,
            "resources": self.resources,
            "floor_resources": self.floor_resources,
            "resource_types": dict(sorted(self.resource_types.items())),
            "violations": self.violations,
            "engine_warnings": self.engine_warnings,
            "clock": self.clock,
            "timings": {phase: t.as_dict() for phase, t in self.timings.items()},
            "per_resource_ms": {ph: self.per_resource_ms(ph) for ph in (*PHASES, *FLOORS)},
            "validate_per_item_ms": self.validate_per_item_ms,
            "register_over_floor": self.register_over_floor,
            "register_over_matched": self.register_over_matched,
            "policies_over_register": self.policies_over_register,
        }


@dataclass
class CloudScale:
    """Every size of one cloud, or why the cloud could not be measured."""

    cloud: str
    points: list[ScalePoint] = field(default_factory=list)
    unavailable: str | None = None

    def growth(self, phase: str, base: int = 0) -> float:
        """Per-resource time at the largest size over that at ``points[base]`` (1.0 = flat)."""
        if len(self.points) < 2:
            return float("nan")
        largest, smaller = self.points[-1], self.points[base]
        if phase == "validate":
            return ratio(largest.validate_per_item_ms, smaller.validate_per_item_ms)
        return ratio(largest.per_resource_ms(phase), smaller.per_resource_ms(phase))

    def overhead_growth(self, base: int = 0) -> float:
        """register/matched at the largest size over the same at ``points[base]``: flat is 1.0."""
        if len(self.points) < 2:
            return float("nan")
        return ratio(self.points[-1].register_over_matched, self.points[base].register_over_matched)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"cloud": self.cloud, "unavailable": self.unavailable}
        data["points"] = [p.as_dict() for p in self.points]
        if len(self.points) >= 2:
            for key, base in (("largest_over_smallest", 0), ("largest_over_previous", -2)):
                data[f"growth_{key}"] = {
                    **{ph: self.growth(ph, base) for ph in (*PHASES, *FLOORS)},
                    "register_over_matched": self.overhead_growth(base),
                }
        return data


def register(platform: ResolvedPlatform) -> ProgramRun:
    """Our program on the mock engine, with a platform validated beforehand."""
    return run_callable(partial(GpuPlatform, PLATFORM_NAME, platform))


def measure_point(
    cloud: BenchCloud, size: Size, repeats: int, clock: Clock = "cpu", *, gc_during: bool = True
) -> ScalePoint:
    """Every phase of one size, ``repeats`` times, ours and the floors alternating."""
    timed_ = partial(timed, collect_during=gc_during)
    raw = synthetic_raw(cloud, size)
    pack = policies()
    timings = {phase: Timing() for phase in (*PHASES, *FLOORS)}
    last: ProgramRun | None = None
    floor: ProgramRun | None = None
    violations = warnings = 0
    with _engine_log() as log:
        for _ in range(max(repeats, 1)):
            platform = timed_(partial(load_platform, raw), timings["validate"])
            log.count = 0
            last = timed_(partial(register, platform), timings["register"])
            warnings = log.count
            count = len(last.resources)
            floor = timed_(partial(run_callable, partial(plain_floor, count)), timings["floor"])
            replay = [Registration(r.type, r.name, r.custom) for r in last.resources]
            timed_(partial(run_callable, partial(matched_floor, replay)), timings["matched"])
            found = timed_(partial(run_policies, last.resources, pack), timings["policies"])
            violations = len(found)
    assert last is not None and floor is not None
    return ScalePoint(
        cloud=cloud,
        size=size,
        resources=len(last.resources),
        floor_resources=len(floor.resources),
        resource_types=dict(Counter(r.type for r in last.resources)),
        violations=violations,
        engine_warnings=warnings,
        timings=timings,
        clock=clock,
    )


def measure_cloud(
    cloud: BenchCloud,
    sizes: Sequence[Size] = SIZES,
    repeats_for: Callable[[Size], int] = lambda size: 3,
    clock: Clock = "cpu",
    progress: Callable[[str], None] = lambda line: None,
    *,
    gc_during: bool = True,
) -> CloudScale:
    """Every size of one cloud; a cloud whose components are missing or broken is reported."""
    result = CloudScale(cloud)
    try:
        # Warm-up at the smallest size: lazy SDK imports are start-up cost, not per-run cost.
        with _engine_log():
            register(load_platform(synthetic_raw(cloud, sizes[0])))
    except NotImplementedError as err:
        result.unavailable = f"not implemented yet: {err}"
        return result
    except Exception as err:  # a cloud broken mid-development is reported, not raised
        result.unavailable = f"the program failed: {type(err).__name__}: {err}"
        return result
    for size in sizes:
        progress(f"{cloud} {size.label}: {repeats_for(size)} runs")
        point = measure_point(cloud, size, repeats_for(size), clock, gc_during=gc_during)
        result.points.append(point)
    return result


VALIDATION_SIZES: tuple[Size, ...] = (Size(100, 200), Size(400, 800), Size(1600, 3200))
"""Config validation alone is cheap enough to push past the issue's sizes, where W×P work shows."""


@dataclass
class ValidationScale:
    """Config validation alone at larger sizes: microseconds per config item should stay flat."""

    cloud: str
    sizes: list[Size]
    timings: list[Timing]

    def per_item_us(self, i: int) -> float:
        size = self.sizes[i]
        return 1e6 * ratio(self.timings[i].median("cpu"), size.pools + size.namespaces)

    @property
    def growth(self) -> float:
        """Per-item time at the largest size over that at the smallest (1.0 = flat)."""
        return ratio(self.per_item_us(len(self.sizes) - 1), self.per_item_us(0))

    def as_dict(self) -> dict[str, Any]:
        return {
            "cloud": self.cloud,
            "points": [
                {"size": size.label, "timing": t.as_dict(), "per_item_us": self.per_item_us(i)}
                for i, (size, t) in enumerate(zip(self.sizes, self.timings, strict=True))
            ],
            "growth_largest_over_smallest": self.growth,
        }


def measure_validation(
    cloud: BenchCloud, sizes: Sequence[Size] = VALIDATION_SIZES, repeats: int = 3
) -> ValidationScale:
    """``load_platform`` alone on ever larger synthetic configs."""
    timings = []
    for size in sizes:
        raw = synthetic_raw(cloud, size)
        timing = Timing()
        for _ in range(max(repeats, 1)):
            timed(partial(load_platform, raw), timing)
        timings.append(timing)
    return ValidationScale(cloud, list(sizes), timings)
