"""docs/traceability.md stays true: every practice has its row, every component and test it
names exists, and each practice's tests include those of every policy registered for it. (Its
table of the policies per practice is written from the registry: tests/unit/test_doc_tables.py.)"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from gpu_policies.registry import MODULES, REGISTERED

ROOT = Path(__file__).resolve().parents[2]
PRACTICES = [f"BP-{n:02d}" for n in range(1, 21)]
_CODE = re.compile(r"`([^`]+)`")


def _rows() -> dict[str, list[str]]:
    rows = {}
    for line in (ROOT / "docs/traceability.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        # The hand-written table's rows: BP, practice, components, tests.
        if len(cells) == 4 and re.fullmatch(r"BP-\d\d", cells[0]):
            rows[cells[0]] = cells
    return rows


@functools.cache  # parsed once for all rows
def _component_classes() -> frozenset[str]:
    names: set[str] = set()
    for path in (ROOT / "components").rglob("*.py"):
        tree = ast.parse(path.read_text())
        names |= {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    return frozenset(names)


@functools.cache
def _test_functions(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text())
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef))


ROWS = _rows()
POLICY_PRACTICES = {entry.policy.name: set(entry.practices) for entry in REGISTERED}
POLICY_MODULES = {module.INFO.name: module.__name__.rsplit(".", 1)[-1] for module in MODULES}


def test_every_practice_has_a_row() -> None:
    assert list(ROWS) == PRACTICES


@pytest.mark.parametrize("practice", PRACTICES)
def test_row_names_real_components_and_tests(practice: str) -> None:
    _, _, components, tests = ROWS[practice]
    classes = _component_classes()
    for component in _CODE.findall(components):
        assert component in classes, f"{practice}: no component class {component}"
    refs = _CODE.findall(tests)
    assert refs, f"{practice}: no tests named"
    assert len(refs) == len(set(refs)), f"{practice}: a test named twice"
    for ref in refs:
        file, _, function = ref.partition("::")
        path = ROOT / file
        assert path.exists(), f"{practice}: no test file {file}"
        assert function in _test_functions(path), f"{practice}: no test {ref}"


@pytest.mark.parametrize("practice", PRACTICES)
def test_the_tests_of_every_enforcing_policy_are_named(practice: str) -> None:
    files = {ref.partition("::")[0] for ref in _CODE.findall(ROWS[practice][3])}
    for policy, practices in POLICY_PRACTICES.items():
        if practice in practices:
            own = f"tests/policies/test_{POLICY_MODULES[policy]}.py"
            assert own in files, f"{practice}: {policy}'s tests ({own}) are not named"
