"""Component tests read no stack file: they build their args from the raw configs of
``tests/components/platforms.py`` (or their own literals), so a change to a
``Pulumi.<stack>.yaml`` cannot break or change one. What checks the stack files themselves is in
``tests/stacks/``.

A module under ``tests/components`` may not use the suite's stack readers (``stack_raw``,
``stack_preview``, ``platform_of``, the ``raw_config`` fixture), the program's
(``read_stack_config``, ``Project.stack_file``, the offline ``preview`` of a stack), import a
module of ``tests/stacks`` or ``tests.robustness.stack_mutations``, nor name a
``Pulumi.<stack>.yaml``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPONENT_TESTS = ROOT / "tests" / "components"
STACK_READERS = frozenset(
    {"stack_raw", "stack_preview", "platform_of", "raw_config", "read_stack_config", "stack_file"}
)
"""Names that read a stack file, wherever they come from (imported, an attribute, a fixture
argument)."""
STACK_MODULES = ("tests.stacks", "tests.robustness.stack_mutations")
PREVIEW_MODULE = "gpu_platform.offline_preview"
"""Its ``preview`` runs a program with a stack file."""
STACK_FILE = re.compile(r"Pulumi\.[^/\s]+\.ya?ml")
"""``Pulumi.dev.yaml``, ``Pulumi.{stack}.yaml``, ``Pulumi.*.yaml``; not ``Pulumi.yaml``."""


def _text(node: ast.JoinedStr) -> str:
    """An f-string with ``{}`` for each placeholder."""
    return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


def _from_stack_module(module: str) -> bool:
    return any(module == m or module.startswith(m + ".") for m in STACK_MODULES)


def stack_file_reads(source: str) -> list[str]:
    """What in ``source`` reads a stack file, one line each (``line N: what``)."""
    found: list[str] = []
    tree = ast.parse(source)
    # Bare strings (docstrings) say what a module is about, they read nothing.
    prose = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if id(node) in prose:
            continue
        line = getattr(node, "lineno", 0)
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            if _from_stack_module(node.module):
                found.append(f"line {line}: imports from {node.module}")
            names = [a.name for a in node.names]
            if node.module == PREVIEW_MODULE and "preview" in names:
                found.append(f"line {line}: imports {PREVIEW_MODULE}.preview")
        elif isinstance(node, ast.Import):
            found += [
                f"line {line}: imports {a.name}" for a in node.names if _from_stack_module(a.name)
            ]
        elif isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, ast.arg):
            names = [node.arg]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if STACK_FILE.search(node.value):
                found.append(f"line {line}: names a stack file ({node.value!r})")
        elif isinstance(node, ast.JoinedStr) and STACK_FILE.search(_text(node)):
            found.append(f"line {line}: names a stack file ({_text(node)!r})")
        found += [f"line {line}: {name}" for name in names if name in STACK_READERS]
    return sorted(set(found), key=lambda s: int(s.split(":")[0].split()[1]))


def _modules() -> list[Path]:
    return sorted(COMPONENT_TESTS.rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(COMPONENT_TESTS)))
def test_no_component_test_reads_a_stack_file(path: Path) -> None:
    reads = stack_file_reads(path.read_text())
    assert reads == [], (
        f"{path.relative_to(ROOT)} reads a stack file: build its args from "
        "tests/components/platforms.py, or move a test of the stacks to tests/stacks/"
    )


def test_the_component_tests_and_their_fixtures_are_scanned() -> None:
    names = {p.relative_to(COMPONENT_TESTS).as_posix() for p in _modules()}
    assert {"platforms.py", "aks/test_cluster.py", "nvidia/test_device_plugin.py"} <= names


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from tests.conftest import run, stack_raw\n", ["line 1: stack_raw"]),
        ("import tests.conftest as c\nraw = c.stack_raw('dev')\n", ["line 2: stack_raw"]),
        ("def test_x(raw_config):\n    pass\n", ["line 1: raw_config"]),
        ("from tests.conftest import platform_of\n", ["line 1: platform_of"]),
        ("from tests.conftest import stack_preview\n", ["line 1: stack_preview"]),
        (
            "from gpu_platform.offline_preview import preview\n",
            ["line 1: imports gpu_platform.offline_preview.preview"],
        ),
        (
            "from tests.stacks.test_verify import cluster\n",
            ["line 1: imports from tests.stacks.test_verify"],
        ),
        (
            "import tests.robustness.stack_mutations\n",
            ["line 1: imports tests.robustness.stack_mutations"],
        ),
        ("p = ROOT / 'Pulumi.dev.yaml'\n", ["line 1: names a stack file ('Pulumi.dev.yaml')"]),
        (
            "p = ROOT / f'Pulumi.{stack}.yaml'\n",
            ["line 1: names a stack file ('Pulumi.{}.yaml')"],
        ),
        ("p = ROOT / 'Pulumi.yaml'\nraw = platforms.aks_queued()\n", []),
        ('"""Not from Pulumi.dev.yaml."""\n', []),
    ],
)
def test_every_way_of_reading_a_stack_file_is_found(source: str, expected: list[str]) -> None:
    assert stack_file_reads(source) == expected
