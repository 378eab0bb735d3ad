"""docs/traceability.md stays true: every practice, component, policy and test it names exists."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from gpu_policies.registry import REGISTERED

ROOT = Path(__file__).resolve().parents[2]
PRACTICES = [f"BP-{n:02d}" for n in range(1, 21)]
_CODE = re.compile(r"`([^`]+)`")


def _rows() -> dict[str, list[str]]:
    rows = {}
    for line in (ROOT / "docs/traceability.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and re.fullmatch(r"BP-\d\d", cells[0]):
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


def test_every_practice_has_a_row() -> None:
    assert list(ROWS) == PRACTICES


@pytest.mark.parametrize("practice", PRACTICES)
def test_row_names_real_components_policies_and_tests(practice: str) -> None:
    _, _, components, policies, tests = ROWS[practice]
    classes = _component_classes()
    for component in _CODE.findall(components):
        assert component in classes, f"{practice}: no component class {component}"
    named_policies = _CODE.findall(policies)
    assert named_policies, f"{practice}: no enforcing policy named"
    for policy in named_policies:
        assert policy in POLICY_PRACTICES, f"{practice}: {policy} is not registered"
        assert practice in POLICY_PRACTICES[policy], f"{policy} is not registered for {practice}"
    refs = _CODE.findall(tests)
    assert refs, f"{practice}: no tests named"
    for ref in refs:
        file, _, function = ref.partition("::")
        path = ROOT / file
        assert path.exists(), f"{practice}: no test file {file}"
        assert function in _test_functions(path), f"{practice}: no test {ref}"


def test_every_registered_practice_is_in_the_table() -> None:
    for policy, practices in POLICY_PRACTICES.items():
        for practice in practices:
            assert f"`{policy}`" in ROWS[practice][3], f"{policy} missing from the {practice} row"
