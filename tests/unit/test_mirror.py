"""Tests mirror the layers: every module of ``gpu_platform.plan``, ``.settings``,
``.stack_config`` (its ``rules`` too), ``.verify`` and ``.components`` has its test file,
``tests/<package path below gpu_platform>/test_<module>.py``, which imports it; and every test
file there names a module that exists.

A package's ``__init__.py`` that defines something is tested by ``test_<package>.py`` beside
the others (``gpu_platform/stack_config/rules/__init__.py``:
``tests/stack_config/rules/test_rules.py``);
one that only re-exports, and ``__main__.py``, need none. ``gpu_policies`` follows the same
scheme (``tests/policies``, whose ``test_meta.py`` holds the pack to it).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from tests.unit.test_layers import _imports

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "gpu_platform"
MIRRORED = ("plan", "settings", "stack_config", "verify", "components")
"""Packages of ``gpu_platform`` whose every module has a test file laid out like it
(``components`` is the top-level folder ``gpu_platform/components`` links to)."""
ACROSS_COMPONENTS = frozenset(
    {
        "test_args_shape.py",
        "test_cloud_value_inputs.py",
        "test_component_schema.py",
        "test_k8s_schemas.py",
    }
)
"""Tests of what every component shares (the args' shapes, the analyzer's schema, Kubernetes'
schemas, the cloud's values): ``tests/components/`` only. A
component's own test may have siblings on one aspect, ``test_<module>_<aspect>.py``."""


def _defines_something(path: Path) -> bool:
    """A module with a function, class or assignment of its own (not only imports)."""
    body = ast.parse(path.read_text()).body
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Assign)
        and not (isinstance(node, ast.Assign) and _is_all(node))
        for node in body
    )


def _is_all(node: ast.Assign) -> bool:
    return any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)


@cache
def modules_and_test_files() -> dict[str, Path]:
    """Dotted module name -> the test file it must have."""
    wanted: dict[str, Path] = {}
    for package in MIRRORED:
        source = ROOT / package if package == "components" else PACKAGE / package
        for path in sorted(source.rglob("*.py")):
            folder = path.parent.relative_to(source.parent)
            if path.name == "__main__.py":
                continue
            if path.name == "__init__.py":
                if not _defines_something(path):
                    continue
                module, stem = ".".join(("gpu_platform", *folder.parts)), folder.name
            else:
                module, stem = ".".join(("gpu_platform", *folder.parts, path.stem)), path.stem
            wanted[module] = ROOT / "tests" / folder / f"test_{stem}.py"
    return wanted


@pytest.mark.parametrize("module", sorted(modules_and_test_files()))
def test_every_module_has_its_test_file_which_imports_it(module: str) -> None:
    test_file = modules_and_test_files()[module]
    assert test_file.is_file(), f"{module}: no {test_file.relative_to(ROOT)}"
    assert module in _imports(test_file), (
        f"{test_file.relative_to(ROOT)} does not import {module} (import what it tests)"
    )


def _an_aspect_of(path: Path, expected: set[Path]) -> bool:
    """``test_<module>_<aspect>.py`` beside its module's test file (components only)."""
    if path.name in ACROSS_COMPONENTS and path.parent == ROOT / "tests" / "components":
        return True
    stem = path.stem
    return any(t.parent == path.parent and stem.startswith(t.stem + "_") for t in expected) and (
        "components" in path.relative_to(ROOT / "tests").parts[:1]
    )


def test_every_test_file_names_a_module_that_exists() -> None:
    expected = set(modules_and_test_files().values())
    found = {path for package in MIRRORED for path in (ROOT / "tests" / package).rglob("test_*.py")}
    strays = {path for path in found - expected if not _an_aspect_of(path, expected)}
    assert strays == set(), "test files named after no module (rename or move them)"


def test_the_mirror_is_not_vacuous() -> None:
    wanted = modules_and_test_files()
    assert "gpu_platform.plan.gpu_pools" in wanted and "gpu_platform.stack_config.rules" in wanted
    assert "gpu_platform.verify.snapshot" in wanted and "gpu_platform.settings.gpu_layer" in wanted
    assert "gpu_platform.settings" not in wanted  # its __init__ only re-exports
    assert "gpu_platform.components.aks.gpu_node_pool" in wanted
