"""Start-up: a whole offline-preview process for a stack against one that only imports pulumi,
and against its floors (``preview_floor``): the same third-party imports and as many
registrations, with none of our code.

Also lists which cloud SDK packages the preview process imports (``-X importtime``), so an
eager import of a cloud the stack does not use shows up as a number, not a guess.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .preview_floor import (
    FLOOR_KINDS,
    FloorKind,
    PreviewFloor,
    check_replay,
    floor_command,
    probe,
    probe_file,
)
from .timing import Timing, ratio

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CLOUD_SDKS: dict[str, str] = {"aks": "pulumi_azure_native", "ack": "pulumi_alicloud"}
"""The top-level package of each cloud's Pulumi SDK (``existing`` needs neither)."""
OTHER_PACKAGES = ("pulumi", "pulumi_kubernetes", "pulumi_policy", "pydantic", "grpc", "yaml")
"""Packages whose import cost the report breaks out as well."""


@dataclass
class ImportCost:
    """Modules of one top-level package a process imported, and their own import time."""

    modules: int = 0
    self_s: float = 0.0


# Where a preview process spends its CPU: each import layer, then the first preview (the
# program's and the pack's own imports, plus the run) and a second, warm one (the run alone).
_PHASES_SCRIPT = """
import json, sys, time
from pathlib import Path
t0 = time.process_time()
import pulumi
t1 = time.process_time()
from gpu_platform import offline_preview
t2 = time.process_time()
offline_preview.preview(Path.cwd(), stack=sys.argv[1])
t3 = time.process_time()
offline_preview.preview(Path.cwd(), stack=sys.argv[1])
t4 = time.process_time()
print(json.dumps({
    "import_pulumi_s": t1 - t0,
    "import_offline_preview_s": t2 - t1,
    "program_and_pack_imports_s": (t3 - t2) - (t4 - t3),
    "run_and_pack_s": t4 - t3,
}))
"""


@dataclass
class StartupResult:
    stack: str
    cloud: str | None
    command: list[str]
    exit_code: int
    import_pulumi: Timing
    preview: Timing
    imports: dict[str, ImportCost] = field(default_factory=dict)
    """Per package: what the preview process imported."""
    import_total_s: float = 0.0
    """Sum of every module's own import time in the preview process."""
    phases: dict[str, float] = field(default_factory=dict)
    """CPU seconds per phase of one preview process (see ``_PHASES_SCRIPT``)."""
    floor: PreviewFloor = field(default_factory=PreviewFloor)
    """The floor processes, timed beside the preview's."""

    @property
    def preview_over_import_pulumi(self) -> float:
        return ratio(self.preview.median("wall"), self.import_pulumi.median("wall"))

    @property
    def cloud_sdks_loaded(self) -> list[str]:
        return sorted(
            c for c, pkg in CLOUD_SDKS.items() if self.imports.get(pkg, ImportCost()).modules
        )

    @property
    def only_chosen_cloud_sdk(self) -> bool:
        """True when no cloud SDK besides the stack's own cloud was imported."""
        return all(cloud == self.cloud for cloud in self.cloud_sdks_loaded)

    def as_dict(self) -> dict[str, Any]:
        return {
            "stack": self.stack,
            "cloud": self.cloud,
            "command": self.command,
            "exit_code": self.exit_code,
            "import_pulumi": self.import_pulumi.as_dict(),
            "preview": self.preview.as_dict(),
            "preview_over_import_pulumi": self.preview_over_import_pulumi,
            "import_total_s": self.import_total_s,
            "phases": self.phases,
            "imports": {
                pkg: {"modules": cost.modules, "self_s": cost.self_s}
                for pkg, cost in sorted(self.imports.items())
            },
            "cloud_sdks_loaded": self.cloud_sdks_loaded,
            "only_chosen_cloud_sdk": self.only_chosen_cloud_sdk,
            "floor": self.floor.as_dict(self.preview),
        }


def stack_file(stack: str, root: Path = PROJECT_ROOT) -> Path:
    """``Pulumi.<stack>.yaml``; a missing one is an error, not a silent substitute."""
    path = root / f"Pulumi.{stack}.yaml"
    if not path.exists():
        found = ", ".join(sorted(p.name.split(".")[1] for p in root.glob("Pulumi.*.yaml")))
        raise FileNotFoundError(f"no stack file {path.name}; stacks: {found or 'none'}")
    return path


def stack_cloud(stack: str, root: Path = PROJECT_ROOT) -> str | None:
    data = yaml.safe_load(stack_file(stack, root).read_text()) or {}
    cloud = (data.get("config") or {}).get("gpu-platform:cloud")
    return str(cloud) if cloud is not None else None


def importtime_entries(stderr: str) -> Iterator[tuple[str, int]]:
    """``(module, self import time in µs)`` for each module in ``-X importtime`` output."""
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, _cumulative, name = (part.strip() for part in line[12:].split("|"))
        yield name, int(self_us)


def parse_importtime(stderr: str) -> tuple[dict[str, ImportCost], float]:
    """Per top-level package: modules imported and their own (self) import time, in seconds."""
    costs: dict[str, ImportCost] = defaultdict(ImportCost)
    total_us = 0
    for name, self_us in importtime_entries(stderr):
        cost = costs[name.split(".")[0]]
        cost.modules += 1
        cost.self_s += self_us / 1e6
        total_us += self_us
    return dict(costs), total_us / 1e6


def _run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, check=False
    )


def _timed_process(
    command: list[str], env: dict[str, str], into: Timing
) -> subprocess.CompletedProcess[str]:
    """Wall time of the whole process, and its CPU time (user + system) from rusage."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = _run(command, env)
    into.wall_s.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    into.cpu_s.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return done


def measure_startup(repeats: int, stack: str = "dev", python: str | None = None) -> StartupResult:
    """Median wall time of whole processes; the interpreter is the project's virtualenv."""
    python = python or str(PROJECT_ROOT / ".venv" / "bin" / "python")
    if not Path(python).exists():
        python = sys.executable
    stack_file(stack)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    baseline = [python, "-c", "import pulumi"]
    preview = [python, "-m", "gpu_platform.offline_preview", "--stack", stack, "--format", "json"]
    found = probe(python, stack, PROJECT_ROOT, env)
    floor = PreviewFloor(
        modules=len(found["modules"]),
        registrations=len(found["registrations"]),
        floors={kind: Timing() for kind in FLOOR_KINDS},
    )
    found_file = probe_file(found)
    floors: dict[FloorKind, list[str]] = {
        kind: floor_command(python, found_file, kind) for kind in FLOOR_KINDS
    }
    commands: list[tuple[list[str], Timing]] = [
        (baseline, import_pulumi := Timing()),
        (preview, whole := Timing()),
        *((command, floor.floors[kind]) for kind, command in floors.items()),
    ]
    exit_code = 0
    try:
        check_replay(python, found_file, found, PROJECT_ROOT, env)
        floor.replay_checked = True
        # Each command once per round, the order reversed every other round, so the machine's
        # drift and each position's luck touch them alike; ratios are taken round by round.
        for round_ in range(max(repeats, 1)):
            for command, into in commands if round_ % 2 == 0 else reversed(commands):
                done = _timed_process(command, env, into)
                if command is preview:
                    exit_code = done.returncode
                elif command is not baseline:
                    _check(done)
    finally:
        found_file.unlink(missing_ok=True)
    traced = _run([python, "-X", "importtime", *preview[1:]], env)
    imports, total = parse_importtime(traced.stderr)
    wanted = {*CLOUD_SDKS.values(), *OTHER_PACKAGES}
    phased = _run([python, "-c", _PHASES_SCRIPT, stack], env)
    phases = json.loads(phased.stdout.strip().splitlines()[-1]) if phased.returncode == 0 else {}
    return StartupResult(
        stack=stack,
        cloud=stack_cloud(stack),
        command=preview,
        exit_code=exit_code,
        import_pulumi=import_pulumi,
        preview=whole,
        imports={pkg: cost for pkg, cost in imports.items() if pkg in wanted},
        import_total_s=total,
        phases=phases,
        floor=floor,
    )


def _check(done: subprocess.CompletedProcess[str]) -> None:
    """A floor that fails measures nothing: say why."""
    if done.returncode != 0:
        raise RuntimeError(f"floor process failed: {done.stderr.strip()[-2000:]}")
