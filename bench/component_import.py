"""Importing one AKS component in a fresh process, against importing the SDK modules it needs.

Issue 20's budget: ``from gpu_platform import AksGpuNodePool`` (and the same from its own
module) in a fresh interpreter costs at most 1.2× a process that imports exactly the
third-party modules that import loads (pulumi, azure-native's ``containerservice``, pydantic,
grpc, ...; ``bench.loaded_modules`` lists them from a real import) and nothing of ours. The
floor is checked the same way: the modules it loads must be the component's, or the report
says which differ.

Whole processes, timed in pairs (floor and component back to back, the order alternating so
drift on a shared machine hits both alike), after one unmeasured run of each that writes
their bytecode. The verdict is the median of the pairs' CPU-time ratios; the medians of wall
and CPU time and their ratios are reported too. On a shared machine one process's CPU time
varies by ±10%, as much as our part, so our part is also timed on its own: the statement
inside a process that has imported the floor first (``ours_on_floor``). ``-X importtime`` of
one more component process says where our own part of the time goes.
"""

from __future__ import annotations

import json
import os
import statistics
from dataclasses import dataclass, field
from typing import Any

from .loaded_modules import OUR_PACKAGES
from .startup import PROJECT_ROOT, _run, _timed_process, importtime_entries
from .timing import Clock, Timing, ratio

BUDGET = 1.2
"""Component import / floor, whole processes (issue 20)."""
STATEMENTS = (
    "from gpu_platform import AksGpuNodePool",
    "from gpu_platform.components.aks.gpu_node_pool import AksGpuNodePool",
)
OWN_MODULES_SHOWN = 8


def on_floor_script(floor_code: str, statement: str) -> str:
    """The floor, then ``statement`` timed in the same process: our own part, on its own (no
    other process's noise in it), printed as ``<wall s> <CPU s>``."""
    return (
        f"{floor_code}import time\n"
        "wall, cpu = time.perf_counter(), time.process_time()\n"
        f"{statement}\n"
        "print(time.perf_counter() - wall, time.process_time() - cpu)\n"
    )


def floor_statement(modules: list[str]) -> str:
    """Python that imports ``modules`` in order; touching each one runs a module the SDK only
    registered for lazy loading, as the component's import ran it."""
    return (
        f"import importlib\nfor name in {modules!r}:\n    importlib.import_module(name).__name__\n"
    )


@dataclass
class ImportBudget:
    statement: str
    floor_modules: list[str]
    """The third-party modules the statement loads, which the floor imports."""
    floor_missing: list[str]
    """Modules the statement loads and the floor did not (should be none)."""
    floor_extra: list[str]
    """Modules the floor loads and the statement did not (should be none)."""
    component: Timing = field(default_factory=Timing)
    floor: Timing = field(default_factory=Timing)
    ours_on_floor: Timing = field(default_factory=Timing)
    """The statement timed inside a process that imported the floor first: our part alone."""
    own_import_s: float = float("nan")
    """Self import time of our own modules (``-X importtime``, one process)."""
    own_modules: dict[str, float] = field(default_factory=dict)
    """Our slowest modules to import, self time in seconds."""
    exit_codes: tuple[int, int] = (0, 0)
    load: tuple[float, float] = (float("nan"), float("nan"))
    """One-minute load average before and after the timed pairs (the machine is shared)."""

    def over_floor(self, clock: Clock = "cpu") -> float:
        """The ratio of the two medians."""
        return ratio(self.component.median(clock), self.floor.median(clock))

    def paired_over_floor(self, clock: Clock = "cpu") -> float:
        """The median of each pair's ratio: drift between pairs cancels out. The verdict."""
        component = self.component.cpu_s if clock == "cpu" else self.component.wall_s
        floor = self.floor.cpu_s if clock == "cpu" else self.floor.wall_s
        pairs = [ratio(c, f) for c, f in zip(component, floor, strict=True)]
        return statistics.median(pairs) if pairs else float("nan")

    @property
    def met(self) -> bool:
        return self.exit_codes == (0, 0) and self.paired_over_floor("cpu") <= BUDGET

    def as_dict(self) -> dict[str, Any]:
        return {
            "statement": self.statement,
            "component": self.component.as_dict(),
            "floor": self.floor.as_dict(),
            "paired_over_floor_cpu": self.paired_over_floor("cpu"),
            "paired_over_floor_wall": self.paired_over_floor("wall"),
            "over_floor_cpu": self.over_floor("cpu"),
            "over_floor_wall": self.over_floor("wall"),
            "budget": BUDGET,
            "met": self.met,
            "exit_codes": list(self.exit_codes),
            "load_before_after": list(self.load),
            "floor_modules": len(self.floor_modules),
            "floor_packages": sorted({m.partition(".")[0] for m in self.floor_modules}),
            "floor_missing": self.floor_missing,
            "floor_extra": self.floor_extra,
            "ours_on_floor": self.ours_on_floor.as_dict(),
            "own_import_s": self.own_import_s,
            "own_modules": self.own_modules,
        }


def _env() -> dict[str, str]:
    # As bench.startup: no PYTHON* settings (this machine's PYTHONDONTWRITEBYTECODE would make
    # every process compile the SDKs again).
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}


def loaded_by(python: str, statement: str, env: dict[str, str]) -> list[str]:
    """The third-party modules ``statement`` loads in a fresh process."""
    done = _run([python, "-m", "bench.loaded_modules", statement], env)
    if done.returncode != 0:
        raise RuntimeError(f"{statement!r} failed in a fresh process:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def own_import_times(stderr: str) -> tuple[float, dict[str, float]]:
    """Total self time of our modules in ``-X importtime`` output, and the slowest of them."""
    own = {
        name: self_us / 1e6
        for name, self_us in importtime_entries(stderr)
        if name.partition(".")[0] in OUR_PACKAGES
    }
    slowest = dict(sorted(own.items(), key=lambda kv: -kv[1])[:OWN_MODULES_SHOWN])
    return sum(own.values()), slowest


def measure_import_budget(statement: str, runs: int, python: str | None = None) -> ImportBudget:
    python = python or str(PROJECT_ROOT / ".venv" / "bin" / "python")
    env = _env()
    modules = loaded_by(python, statement, env)
    floor_code = floor_statement(modules)
    floor_loads = loaded_by(python, floor_code, env)
    result = ImportBudget(
        statement=statement,
        floor_modules=modules,
        floor_missing=sorted(set(modules) - set(floor_loads)),
        floor_extra=sorted(set(floor_loads) - set(modules)),
    )
    component_cmd = [python, "-c", statement]
    floor_cmd = [python, "-c", floor_code]
    _run(component_cmd, env)  # bytecode written, caches warm, not measured
    _run(floor_cmd, env)
    codes = [0, 0]
    load_before = os.getloadavg()[0]
    for i in range(max(runs, 1)):
        pair = [(component_cmd, result.component, 0), (floor_cmd, result.floor, 1)]
        for command, into, slot in pair if i % 2 == 0 else reversed(pair):
            codes[slot] = codes[slot] or _timed_process(command, env, into).returncode
    result.exit_codes = (codes[0], codes[1])
    result.load = (load_before, os.getloadavg()[0])
    on_floor = [python, "-c", on_floor_script(floor_code, statement)]
    for _ in range(max(runs, 1)):
        done = _run(on_floor, env)
        if done.returncode == 0:
            wall, cpu = (float(x) for x in done.stdout.split())
            result.ours_on_floor.wall_s.append(wall)
            result.ours_on_floor.cpu_s.append(cpu)
    traced = _run([python, "-X", "importtime", "-c", statement], env)
    result.own_import_s, result.own_modules = own_import_times(traced.stderr)
    return result


def measure_component_imports(runs: int, python: str | None = None) -> list[ImportBudget]:
    return [measure_import_budget(statement, runs, python) for statement in STATEMENTS]


def report_lines(budgets: list[ImportBudget]) -> list[str]:
    lines = [
        f"Importing one AKS component, fresh processes against the SDK modules it loads "
        f"(budget ≤ {BUDGET}×, CPU)",
    ]
    for b in budgets:
        verdict = "met" if b.met else "NOT met"
        lines += [
            f"  {b.statement}",
            f"    component {b.component.median('wall'):.3f} s wall {b.component.median('cpu'):.3f}"
            f" s CPU; floor {b.floor.median('wall'):.3f} s wall {b.floor.median('cpu'):.3f} s CPU"
            f" ({len(b.floor_modules)} modules); median of {b.component.runs} pairs, load"
            f" {b.load[0]:.1f}→{b.load[1]:.1f}",
            f"    ratio (median of the pairs') {b.paired_over_floor('cpu'):.2f}× CPU, "
            f"{b.paired_over_floor('wall'):.2f}× wall: {verdict}; of the medians "
            f"{b.over_floor('cpu'):.2f}× CPU, {b.over_floor('wall'):.2f}× wall",
            f"    ours on top of the floor, in one process: {b.ours_on_floor.median('cpu'):.3f} s"
            f" CPU (median of {b.ours_on_floor.runs}); our modules' self time in -X importtime"
            f" {b.own_import_s:.3f} s",
        ]
        if b.floor_missing or b.floor_extra:
            lines.append(
                f"    floor differs: missing {b.floor_missing[:5]}, extra {b.floor_extra[:5]}"
            )
        if b.exit_codes != (0, 0):
            lines.append(f"    exit codes (component, floor): {b.exit_codes}")
    if budgets and budgets[0].own_modules:
        slowest = ", ".join(f"{m} {s * 1000:.1f} ms" for m, s in budgets[0].own_modules.items())
        lines.append(f"  our slowest modules: {slowest}")
    return lines
