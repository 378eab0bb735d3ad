"""The preview's floors: processes that import exactly the third-party modules a stack's preview
imports and register on the same mock engine, with none of our code but the policies the
preview runs under (its collector's, azure-native's aliases).

``plain``: as many plain Kubernetes objects (``floors.plain_floor``). ``matched``: one resource of
the very SDK class of each one the preview registered (``floors.matched_floor``), so the SDK
classes' own costs (their typed outputs, the aliases they keep) are in the floor too.
``replay``: exactly what the preview registered, through the SDK's generic classes
(``replay``): the same types, names, parents, inputs, providers, options and dependencies,
checked identical to the preview's in an unmeasured run first. No Python program registering
that plan can cost less. What the preview costs above a floor is ours: our modules' import
(settings models, components, the pack), the config's validation, the components' work and the
typed ``*Args`` classes they use, the pack's run. Each floor runs under the preview process's
collector policy (``offline_preview.collector.off_until_exit``) and ends with ``os._exit`` as the
preview does.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .replay import differences
from .timing import Timing, ratio

FloorKind = Literal["plain", "matched", "replay"]
FLOOR_KINDS: tuple[FloorKind, ...] = ("plain", "matched", "replay")

# Run once: the preview, then what it imported that is not this project's, and what it
# registered. A module of ours is one whose file is in the project, outside its virtualenv.
_PROBE_SCRIPT = """
import json, sys
from pathlib import Path
from gpu_platform import offline_preview
from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor
from bench.replay import recorded_plan
monitor = RecordingMonitor(PreviewMocks())
result = offline_preview.preview(Path.cwd(), stack=sys.argv[1], monitor=monitor)
root, venv = str(Path.cwd()), str(Path.cwd() / ".venv")
def ours(name):
    file = getattr(sys.modules.get(name), "__file__", None) or ""
    return file.startswith(root) and not file.startswith(venv)
run = result.run
print(json.dumps({
    "modules": [name for name in list(sys.modules) if not ours(name)],
    "registrations": [[r.type, r.name, r.custom] for r in run.resources],
    "project": run.project,
    "stack": run.stack,
    "plan": recorded_plan(run.resources, monitor.registered_outputs, run.outputs).as_dict(),
}))
"""

# The floor process: the same imports in the same order, then the registrations, under the
# collector policy of the preview's process (``offline_preview/__main__.py``: off from its
# start, imports included); it exits as the preview does.
_FLOOR_SCRIPT = """
import importlib, json, os, sys
from gpu_platform.offline_preview.collector import off_until_exit

def floor():
    probe = json.loads(open(sys.argv[1]).read())
    for name in probe["modules"]:
        parent, _, child = name.rpartition(".")
        before = getattr(sys.modules.get(parent), child, None) if parent else None
        try:
            importlib.import_module(name)
        except Exception:
            continue  # a module its package imports its own way (the preview imported it)
        if before is not None and not isinstance(before, type(sys)):
            # The SDKs name a class like its module (k8s.core.v1.Namespace): keep the class.
            setattr(sys.modules[parent], child, before)
    from gpu_platform.offline_preview.engine import run_callable
    if sys.argv[2] == "replay":
        from bench.replay import ReplayPlan, replay
        plan = ReplayPlan(**probe["plan"])
        run = run_callable(lambda: replay(plan), project=probe["project"], stack=probe["stack"])
        return run
    from bench.floors import Registration, matched_floor, plain_floor
    registrations = [Registration(*r) for r in probe["registrations"]]
    if sys.argv[2] == "matched":
        return run_callable(lambda: matched_floor(registrations))
    return run_callable(lambda: plain_floor(len(registrations)))

off_until_exit()  # as the preview's process does (offline_preview/__main__.py)
run = floor()
if sys.argv[3:] == ["--check"]:  # an unmeasured run: what the replay registered
    from bench.replay import plan_of
    print(json.dumps([plan_of(r) for r in run.resources]))
# The preview ends with os._exit (offline_preview/__main__.py): no interpreter teardown, which
# for this heap costs about a third of the process. The floor ends the same way.
sys.stdout.flush()
os._exit(0)
"""


@dataclass
class PreviewFloor:
    """Processes of each floor, timed beside the preview's."""

    modules: int = 0
    """Third-party modules the preview imported (and each floor imports)."""
    registrations: int = 0
    floors: dict[FloorKind, Timing] = field(default_factory=dict)
    replay_checked: bool = False
    """The replay registered exactly what the preview did (``check_replay``)."""

    def over(self, preview: Timing, kind: FloorKind, clock: Literal["cpu", "wall"]) -> float:
        """The median of the preview's runs over the floor's, round by round (each round
        times both, side by side), so the machine's drift between rounds cancels out."""
        floor = self.floors.get(kind)
        if floor is None or not floor.cpu_s:
            return float("nan")
        runs = (preview.cpu_s, floor.cpu_s) if clock == "cpu" else (preview.wall_s, floor.wall_s)
        return statistics.median(ratio(ours, theirs) for ours, theirs in zip(*runs, strict=True))

    def as_dict(self, preview: Timing) -> dict[str, Any]:
        return {
            "modules": self.modules,
            "registrations": self.registrations,
            "floors": {kind: timing.as_dict() for kind, timing in self.floors.items()},
            "replay_checked": self.replay_checked,
            "preview_over_floor": {
                kind: {clock: self.over(preview, kind, clock) for clock in ("cpu", "wall")}
                for kind in self.floors
            },
        }


def probe(python: str, stack: str, cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    """What one preview of ``stack`` imported (third-party modules, in order) and registered."""
    done = subprocess.run(
        [python, "-c", _PROBE_SCRIPT, stack],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def floor_command(python: str, probe_file: Path, kind: FloorKind) -> list[str]:
    return [python, "-c", _FLOOR_SCRIPT, str(probe_file), kind]


def check_replay(
    python: str, probe_file: Path, found: dict[str, Any], cwd: Path, env: dict[str, str]
) -> None:
    """One unmeasured replay, its registrations compared with the preview's: the replay floor
    measures that plan or nothing (``ReplayMismatch``)."""
    done = subprocess.run(
        [*floor_command(python, probe_file, "replay"), "--check"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"replay floor failed: {done.stderr.strip()[-2000:]}")
    replayed = json.loads(done.stdout.strip().splitlines()[-1])
    found_differences = differences(found["plan"]["registrations"], replayed)
    if found_differences:
        raise ReplayMismatch(found_differences)


class ReplayMismatch(RuntimeError):
    """The replay registered something other than the preview did."""

    def __init__(self, found: list[str]) -> None:
        shown = "\n".join(found[:20])
        more = f"\n(and {len(found) - 20} more)" if len(found) > 20 else ""
        super().__init__(f"the replay floor differs from the preview:\n{shown}{more}")
        self.differences = found


def probe_file(found: dict[str, Any]) -> Path:
    """The probe's findings in a file the floor processes read."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(found, handle)
    return Path(handle.name)
