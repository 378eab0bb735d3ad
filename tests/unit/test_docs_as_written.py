"""The README and docs as a reader meets them.

Every ``python -m <module>`` the README, docs, examples, scripts and our own code tell a reader
to run names a module that exists: the package move left ``python -m offline_preview`` in the
examples and ``python -m plan.prometheus_rules`` in docs/observability.md, which failed as written.
And no line says the same thing twice: merges left two versions of one table row side by side
(docs/policies.md's driver-check and exporter rows, docs/architecture.md's layers)."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WHERE = ["README.md", "docs", "examples", "gpu_platform", "components", "policies", "scan",
         "bench", "scripts", "provider", "Makefile"]  # fmt: skip
NOT_OURS = {"pip", "uv", "venv", "ensurepip", "pytest", "build", "twine"}
_COMMAND = re.compile(r"python3? -m ([A-Za-z_][\w.]*)")


def _files() -> Iterator[Path]:
    """The files there, read from the tree (no git: the suite runs from a source archive too),
    leaving out what tools make (virtual environments, caches, builds) and links."""
    for name in WHERE:
        top = ROOT / name
        paths = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in paths:
            parts = path.relative_to(ROOT).parts
            if any(
                p.startswith(".")
                or p in {"__pycache__", "node_modules", "dist", "build"}
                or p.endswith(".egg-info")
                for p in parts
            ):
                continue
            if path.is_file() and not path.is_symlink():
                yield path


def _commands() -> dict[str, list[str]]:
    """Module -> where it is named (``file:line``)."""
    found: dict[str, list[str]] = {}
    for path in _files():
        name = path.relative_to(ROOT).as_posix()
        if path.suffix not in {".md", ".py", ".sh", ".yaml", ".txt", ""}:
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


REPEAT = 80
"""Characters that, found twice in one line, are a merge's leftover rather than prose."""


@pytest.mark.parametrize(
    "doc",
    ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))],
)
def test_no_line_says_the_same_thing_twice(doc: str) -> None:
    repeated = []
    for number, line in enumerate((ROOT / doc).read_text().splitlines(), 1):
        for word in re.finditer(r"(?<=\s)\S", line):  # from each word on
            chunk = line[word.start() : word.start() + REPEAT]
            if len(chunk) == REPEAT and line.find(chunk, word.start() + 1) != -1:
                repeated.append(f"{doc}:{number}: {chunk!r}")
                break
    assert repeated == []
