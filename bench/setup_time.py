"""Set-up and test-suite time: a fresh virtualenv through scripts/install.sh, and `make test`.

Slow (tens of seconds to minutes), so only ``python -m bench --setup`` runs it.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from .startup import PROJECT_ROOT
from .timing import Timing, timed

# What scripts/install.sh reads: the requirement files and the pack it installs editable.
INSTALL_INPUTS = ("requirements.txt", "requirements-dev.txt", "scripts/install.sh")
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
        for name in INSTALL_INPUTS:
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(PROJECT_ROOT / name, work / name)
        shutil.copytree(PROJECT_ROOT / "policies", work / "policies", ignore=PACK_IGNORE)
        command = ["bash", "scripts/install.sh", python, ".venv"]
        timing = Timing()
        done = timed(
            lambda: subprocess.run(command, cwd=work, capture_output=True, text=True, check=False),
            timing,
        )
        return CommandTime(command, timing.wall_s[0], done.returncode, _installer_note())


def make_test() -> list[CommandTime]:
    """`make test` step by step (lint, typecheck, unit), each timed even if another fails."""
    times = []
    for target in ("lint", "typecheck", "unit"):
        command = ["make", target]
        timing = Timing()
        run = partial(
            subprocess.run, command, cwd=PROJECT_ROOT, capture_output=True, text=True, check=False
        )
        done = timed(run, timing)
        tail = (done.stdout + done.stderr).strip().splitlines()[-1:] or [""]
        times.append(CommandTime(command, timing.wall_s[0], done.returncode, tail[0][:160]))
    return times
