"""Fleet scale: a team program's whole offline preview at 1,000, 5,000 and 20,000 resources.

``fleet_program/`` is a team program of GPU teams (ten Kubernetes resources each, and one Helm
release for the fleet) that the pack accepts. Each size is one process of ``python -m
gpu_platform.offline_preview`` (the program, the pack, the JSON plan written to nowhere), as a
pull request's check runs it; a process of the same program with no team is measured beside
them, and its cost (interpreter, imports, the pack's load) is taken off each size's before the
cost per resource: ``(CPU(size) - CPU(empty)) / resources``. Flat within 15% from the smallest
to the largest size means nothing grows faster than the fleet. Peak memory is the process's
own high-water mark (``VmHWM``, which it reports as it exits), and per resource above the empty
program's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .timing import Timing, ratio

PROGRAM = Path(__file__).resolve().parent / "fleet_program"
RESOURCES_PER_TEAM = 10
FLEET_SIZES = (1_000, 5_000, 20_000)
"""Resources of the team program at each size (teams × 10, plus the fleet's Helm release)."""
FLAT_TARGET = 1.15
"""The largest cost per resource over the smallest (issue 34)."""


@dataclass
class FleetRun:
    """The processes of one size."""

    teams: int
    timing: Timing = field(default_factory=Timing)
    peak_rss_kb: list[int] = field(default_factory=list)
    exit_codes: list[int] = field(default_factory=list)

    @property
    def resources(self) -> int:
        return self.teams * RESOURCES_PER_TEAM + 1

    @property
    def peak_mb(self) -> float:
        return max(self.peak_rss_kb, default=0) / 1024

    def as_dict(self) -> dict[str, Any]:
        return {
            "teams": self.teams,
            "resources": self.resources,
            "timing": self.timing.as_dict(),
            "peak_rss_kb": list(self.peak_rss_kb),
            "exit_codes": list(self.exit_codes),
        }


@dataclass
class FleetScale:
    """Every size, and the empty program measured beside them."""

    empty: FleetRun
    sizes: list[FleetRun]

    def per_resource_ms(self, run: FleetRun) -> float:
        extra = run.timing.median("cpu") - self.empty.timing.median("cpu")
        return 1000 * ratio(extra, run.resources)

    def memory_per_resource_kb(self, run: FleetRun) -> float:
        return ratio(max(run.peak_rss_kb) - max(self.empty.peak_rss_kb), run.resources)

    @property
    def flatness(self) -> float:
        """The largest size's cost per resource over the smallest's (1.0: flat)."""
        if len(self.sizes) < 2:
            return float("nan")
        return ratio(self.per_resource_ms(self.sizes[-1]), self.per_resource_ms(self.sizes[0]))

    def as_dict(self) -> dict[str, Any]:
        return {
            "empty": self.empty.as_dict(),
            "sizes": [
                {
                    **run.as_dict(),
                    "per_resource_ms": self.per_resource_ms(run),
                    "memory_per_resource_kb": self.memory_per_resource_kb(run),
                }
                for run in self.sizes
            ],
            "flatness": self.flatness,
            "target": FLAT_TARGET,
        }


# ``python -m gpu_platform.offline_preview`` that reports its peak memory as it exits: the
# high-water mark of its own address space (``VmHWM``). A child's ``ru_maxrss`` would start at
# the bench process's size, which Linux carries into a forked child across its exec.
_PREVIEW_WITH_PEAK = """
import os, runpy, sys
exit_ = os._exit
def _exit(code):
    with open("/proc/self/status") as status:
        peak = next((line.split()[1] for line in status if line.startswith("VmHWM:")), "")
    sys.stderr.write(f"\\n{PEAK_MARK}{peak}\\n")
    sys.stderr.flush()
    exit_(code)
os._exit = _exit
sys.argv[0] = "gpu_platform.offline_preview"
runpy.run_module("gpu_platform.offline_preview", run_name="__main__", alter_sys=True)
"""
PEAK_MARK = "bench-fleet-peak-kb="


def preview_command(python: str, config: Path) -> list[str]:
    script = _PREVIEW_WITH_PEAK.replace("{PEAK_MARK}", PEAK_MARK)
    return [
        python,
        "-c",
        script,
        "--program",
        str(PROGRAM),
        "--config",
        str(config),
        "--format",
        "json",
        # A loaded machine stretches a 20,000-resource run past the default five minutes.
        "--timeout",
        "3600",
    ]


def _stack_file(folder: Path, teams: int) -> Path:
    path = folder / f"Pulumi.fleet-{teams}.yaml"
    path.write_text(f'config:\n  fleet:teams: "{teams}"\n')
    return path


def _timed(command: list[str], cwd: Path, env: dict[str, str], into: FleetRun) -> None:
    """One whole process: wall time, CPU (user + system) and peak memory from its own rusage."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    into.timing.wall_s.append(time.perf_counter() - start)
    into.timing.cpu_s.append(usage.ru_utime + usage.ru_stime)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.stderr is not None
    errors = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    peaks = [line.removeprefix(PEAK_MARK) for line in errors.splitlines() if PEAK_MARK in line]
    into.peak_rss_kb.append(int(peaks[-1]) if peaks and peaks[-1].isdigit() else 0)
    into.exit_codes.append(process.returncode)
    if process.returncode not in (0, 1):  # 1: the pack found mandatory violations
        raise RuntimeError(f"fleet preview failed ({process.returncode}): {errors[-2000:]}")


def measure_fleet(
    sizes: Sequence[int] = FLEET_SIZES,
    *,
    repeats: int = 1,
    empty_repeats: int = 3,
    python: str | None = None,
    cwd: Path = PROGRAM.parent.parent,
    progress: Callable[[str], None] = lambda line: None,
) -> FleetScale:
    """Each size ``repeats`` times, smallest first, with the empty program before each size's
    runs (``empty_repeats`` in all, at least one per size round), so drift touches both."""
    python = python or sys.executable
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    empty = FleetRun(teams=0)
    runs = [FleetRun(teams=max(size // RESOURCES_PER_TEAM, 1)) for size in sizes]
    with tempfile.TemporaryDirectory(prefix="bench-fleet-") as tmp:
        folder = Path(tmp)
        empty_command = preview_command(python, _stack_file(folder, 0))
        _timed(empty_command, cwd, env, FleetRun(teams=0))  # unmeasured: bytecode, caches
        for _ in range(repeats):
            for run in runs:
                progress(f"fleet: {run.resources} resources ({run.teams} teams)")
                _timed(empty_command, cwd, env, empty)
                _timed(preview_command(python, _stack_file(folder, run.teams)), cwd, env, run)
        while empty.timing.runs < empty_repeats:
            _timed(empty_command, cwd, env, empty)
    return FleetScale(empty=empty, sizes=runs)


def report_lines(fleet: FleetScale) -> list[str]:
    empty = fleet.empty
    lines = [
        f"Fleet scale: a team program's whole preview (bench/fleet_program), CPU per resource "
        f"above the empty program's {empty.timing.median('cpu'):.3f} s "
        f"({empty.peak_mb:.0f} MB peak)",
        f"  {'resources':>9}{'CPU':>10}{'wall':>10}{'ms/res':>9}{'peak':>10}{'KB/res':>9}",
    ]
    for run in fleet.sizes:
        cpu, wall = run.timing.median("cpu"), run.timing.median("wall")
        lines.append(
            f"  {run.resources:>9}{cpu:>9.2f}s{wall:>9.2f}s"
            f"{fleet.per_resource_ms(run):>9.3f}{run.peak_mb:>8.0f}MB"
            f"{fleet.memory_per_resource_kb(run):>9.1f}"
        )
    verdict = "met" if fleet.flatness <= FLAT_TARGET else "NOT met"
    lines.append(
        f"  largest/smallest per resource {fleet.flatness:.3f}× (target ≤ {FLAT_TARGET}×): "
        f"{verdict}"
    )
    return lines
