"""Every ``python -m <module>`` the README, docs, examples, scripts and our own code tell a
reader to run names a module that exists. The package move left ``python -m offline_preview``
in the examples and ``python -m plan.gpu_rules`` in docs/observability.md, which fail as
written; this keeps the next rename from doing the same."""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WHERE = ["README.md", "docs", "examples", "gpu_platform", "components", "policies", "scan",
         "bench", "scripts", "provider", "Makefile"]  # fmt: skip
NOT_OURS = {"pip", "uv", "venv", "ensurepip", "pytest", "build", "twine"}
_COMMAND = re.compile(r"python3? -m ([A-Za-z_][\w.]*)")


def _commands() -> dict[str, list[str]]:
    """Module -> where it is named (``file:line``), in the files git tracks there."""
    files = subprocess.run(
        ["git", "ls-files", *WHERE], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    found: dict[str, list[str]] = {}
    for name in files:
        path = ROOT / name
        if path.is_symlink() or path.suffix not in {".md", ".py", ".sh", ".yaml", ".txt", ""}:
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for module in _COMMAND.findall(line):
                found.setdefault(module.rstrip("."), []).append(f"{name}:{number}")
    return found


COMMANDS = _commands()


def test_the_docs_name_commands_at_all() -> None:
    assert {"gpu_platform.offline_preview", "gpu_platform.verify"} <= set(COMMANDS)


@pytest.mark.parametrize("module", sorted(set(COMMANDS) - NOT_OURS))
def test_each_python_m_names_a_module_that_exists(module: str) -> None:
    try:
        spec = importlib.util.find_spec(module)
    except ModuleNotFoundError:
        spec = None
    assert spec is not None, f"`python -m {module}` does not exist: {COMMANDS[module]}"
