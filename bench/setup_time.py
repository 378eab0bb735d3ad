"""The inner loop's budgets on fresh clones: set-up of `make preview`, and `make test`.

Issue 16's budgets on a 2-core machine: `make preview` set-up ≤ 30 s without uv on the PATH,
`make test` ≤ 90 s once the virtualenv is installed, both from a fresh clone. Each command runs
in a fresh `git clone` of the committed HEAD, with uv taken off the PATH (scripts/install.sh
then bootstraps it from PyPI).
The machine may be shared, so every figure keeps the load average around it and the CPU time
of the command's processes next to the wall time.

Slow (a few minutes), so only ``python -m bench --setup`` runs it.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .startup import PROJECT_ROOT


@dataclass
class CommandTime:
    command: list[str]
    seconds: float
    exit_code: int
    note: str = ""
    cpu_s: float = float("nan")
    """User + system time of the command and every process it waited for."""
    load: tuple[float, float] = (float("nan"), float("nan"))
    """One-minute load average before and after the command."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "seconds": self.seconds,
            "cpu_s": self.cpu_s,
            "exit_code": self.exit_code,
            "load_before_after": list(self.load),
            "note": self.note,
        }


def path_without_uv(path: str) -> str:
    """``path`` without the folders that hold a ``uv`` executable."""
    return os.pathsep.join(
        d for d in path.split(os.pathsep) if d and not os.access(Path(d, "uv"), os.X_OK)
    )


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_timed(command: list[str], cwd: Path, env: dict[str, str], note: str = "") -> CommandTime:
    """Run ``command`` once; wall and CPU time, load, and the last line of its output."""
    load_before = os.getloadavg()[0]
    cpu_before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    cpu = _children_cpu() - cpu_before
    tail = [line for line in (done.stdout + done.stderr).strip().splitlines() if line.strip()]
    last = tail[-1][:160] if tail else ""
    return CommandTime(
        command,
        seconds,
        done.returncode,
        "; ".join(part for part in (note, last) if part),
        cpu,
        (load_before, os.getloadavg()[0]),
    )


def fresh_clone(dest: Path) -> Path:
    """A clone of the committed HEAD, as CI and a newcomer get it (no venv, no caches)."""
    subprocess.run(["git", "clone", "--quiet", str(PROJECT_ROOT), str(dest)], check=True)
    return dest


def _clean_env() -> dict[str, str]:
    env = {**os.environ, "PATH": path_without_uv(os.environ.get("PATH", ""))}
    # Nothing of an activated virtualenv leaks into the clone's own.
    env.pop("VIRTUAL_ENV", None)
    return env


def _installer_note(env: dict[str, str]) -> str:
    if shutil.which("uv", path=env["PATH"]) is not None:
        return "uv on the PATH"
    cache = os.environ.get("UV_CACHE_DIR") or str(Path.home() / ".cache" / "uv")
    state = "warm" if Path(cache).is_dir() and any(Path(cache).iterdir()) else "cold"
    return f"uv not on the PATH (bootstrapped from PyPI); uv package cache {state}"


def fresh_setup(python: str = "python3") -> list[CommandTime]:
    """A fresh clone: `make venv` (the set-up `make preview` does), then `make preview`,
    then `make lint`, `make typecheck` and `make unit` one by one, each timed even if another
    fails."""
    env = _clean_env()
    times = []
    with tempfile.TemporaryDirectory(prefix="bench-setup-") as tmp:
        clone = fresh_clone(Path(tmp) / "clone")
        times.append(
            run_timed(["make", "venv", f"PYTHON={python}"], clone, env, _installer_note(env))
        )
        times.append(run_timed(["make", "preview"], clone, env, "the preview itself"))
        for target in ("lint", "typecheck", "unit"):
            times.append(run_timed(["make", target], clone, env))
    return times


def make_test(python: str = "python3") -> list[CommandTime]:
    """`make test` in another fresh clone: its `make venv` first, timed on its own, then
    `make test` (lint and every test; the type check is `make typecheck`) with the virtualenv
    installed but nothing else: no bytecode of the SDKs, no caches. The budget is for the
    second."""
    env = _clean_env()
    with tempfile.TemporaryDirectory(prefix="bench-test-") as tmp:
        clone = fresh_clone(Path(tmp) / "clone")
        venv = run_timed(
            ["make", "venv", f"PYTHON={python}"], clone, env, "set-up of the make test clone"
        )
        test = run_timed(["make", "test"], clone, env, "fresh clone, venv installed")
        return [venv, test]
