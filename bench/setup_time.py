"""Set-up and test-suite time: a fresh virtualenv through scripts/install.sh, and `make test`.

Slow (tens of seconds to minutes), so only ``python -m bench --setup`` runs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from .startup import PROJECT_ROOT
from .timing import Timing, timed

# What scripts/install.sh reads: the top-level requirement and constraint files, the script
# itself, and the pack it installs editable.
INSTALL_GLOBS = ("*.txt", "scripts/install.sh")
PACK_IGNORE = shutil.ignore_patterns(".venv", "*.egg-info", "__pycache__", "build")


@dataclass
class CommandTime:
    command: list[str]
    seconds: float
    exit_code: int
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "seconds": self.seconds,
            "exit_code": self.exit_code,
            "note": self.note,
        }


def _installer_note() -> str:
    uv = shutil.which("uv")
    if uv is None:
        return "uv absent: pip path of scripts/install.sh"
    version = subprocess.run([uv, "--version"], capture_output=True, text=True, check=False)
    return f"{version.stdout.strip()} present; its package cache was warm (no cold download)"


def fresh_setup(python: str = "python3") -> CommandTime:
    """Virtualenv + install into a temporary copy of the project's install inputs."""
    with tempfile.TemporaryDirectory(prefix="bench-setup-") as tmp:
        work = Path(tmp)
        for pattern in INSTALL_GLOBS:
            for source in PROJECT_ROOT.glob(pattern):
                target = work / source.relative_to(PROJECT_ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
        shutil.copytree(PROJECT_ROOT / "policies", work / "policies", ignore=PACK_IGNORE)
        command = ["bash", "scripts/install.sh", python, ".venv"]
        timing = Timing()
        done = timed(
            lambda: subprocess.run(command, cwd=work, capture_output=True, text=True, check=False),
            timing,
        )
        note = _installer_note()
        if done.returncode != 0:
            note += "; failed: " + " ".join((done.stderr or done.stdout).split())[-200:]
        return CommandTime(command, timing.wall_s[0], done.returncode, note)


def make_test() -> list[CommandTime]:
    """`make test` step by step (lint, typecheck, unit), each timed even if another fails.

    ruff and mypy get empty cache folders, as in a fresh clone (a warm mypy cache turns tens
    of seconds into one or two).
    """
    times = []
    with tempfile.TemporaryDirectory(prefix="bench-caches-") as caches:
        env = {
            **os.environ,
            "MYPY_CACHE_DIR": str(Path(caches) / "mypy"),
            "RUFF_CACHE_DIR": str(Path(caches) / "ruff"),
        }
        for target in ("lint", "typecheck", "unit"):
            command = ["make", target]
            timing = Timing()
            run = partial(
                subprocess.run,
                command,
                cwd=PROJECT_ROOT,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            done = timed(run, timing)
            tail = (done.stdout + done.stderr).strip().splitlines()[-1:] or [""]
            note = f"cold caches; {tail[0][:160]}"
            times.append(CommandTime(command, timing.wall_s[0], done.returncode, note))
    return times
