"""The preview's floor: a process that imports exactly the third-party modules a stack's preview
imports and registers as many resources on the same mock engine, with none of our code but
the policies the preview runs under (its collector's, azure-native's aliases).

``plain``: as many plain Kubernetes objects (``floors.plain_floor``). ``matched``: one resource of
the very SDK class of each one the preview registered (``floors.matched_floor``), so the SDK
classes' own costs (their typed outputs, the aliases they keep) are in the floor too. What the
preview costs above a floor is ours: our modules' import (settings models, components, the
pack), the config's validation, the components' work and the inputs they send, the pack's run.
Each floor runs under the preview's collector policy (``offline_preview.collector``), so the
cyclic collector's passes are billed alike.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .timing import Timing, ratio

FloorKind = Literal["plain", "matched"]
FLOOR_KINDS: tuple[FloorKind, ...] = ("plain", "matched")

# Run once: the preview, then what it imported that is not this project's, and what it
# registered. A module of ours is one whose file is in the project, outside its virtualenv.
_PROBE_SCRIPT = """
import json, sys
from pathlib import Path
from gpu_platform import offline_preview
result = offline_preview.preview(Path.cwd(), stack=sys.argv[1])
root, venv = str(Path.cwd()), str(Path.cwd() / ".venv")
def ours(name):
    file = getattr(sys.modules.get(name), "__file__", None) or ""
    return file.startswith(root) and not file.startswith(venv)
print(json.dumps({
    "modules": [name for name in list(sys.modules) if not ours(name)],
    "registrations": [[r.type, r.name, r.custom] for r in result.run.resources],
}))
"""

# The floor process: the same imports in the same order, then the registrations, under the
# collector policy the preview runs with (``offline_preview.cli.preview``), which covers the
# program's imports there as it covers these here; it exits as the preview does.
_FLOOR_SCRIPT = """
import importlib, json, os, sys
from gpu_platform.offline_preview.collector import full_collections_deferred

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
    from bench.floors import Registration, matched_floor, plain_floor
    registrations = [Registration(*r) for r in probe["registrations"]]
    if sys.argv[2] == "matched":
        run_callable(lambda: matched_floor(registrations))
    else:
        run_callable(lambda: plain_floor(len(registrations)))

with full_collections_deferred():
    floor()
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

    def over(self, preview: Timing, kind: FloorKind, clock: Literal["cpu", "wall"]) -> float:
        """The preview's median over the floor's."""
        floor = self.floors.get(kind)
        return ratio(preview.median(clock), floor.median(clock)) if floor else float("nan")

    def as_dict(self, preview: Timing) -> dict[str, Any]:
        return {
            "modules": self.modules,
            "registrations": self.registrations,
            "floors": {kind: timing.as_dict() for kind, timing in self.floors.items()},
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


def probe_file(found: dict[str, Any]) -> Path:
    """The probe's findings in a file the floor processes read."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(found, handle)
    return Path(handle.name)
