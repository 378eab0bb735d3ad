"""No production module compares a cloud name outside the per-cloud folders and the two
dispatches (the platform's ``gpu_platform/plan/clouds.py``, the pack's
``gpu_policy_support/clouds.py``): what differs by cloud lives in that cloud's folder (``aks/``,
``ack/``, ``existing/``, ``eks/``, ``gke/``) or module (``settings/aks.py``,
``stack_config/rules/ack.py``) and is asked through a dispatch, so adding a cloud is one more
folder and one more entry there."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = (
    "gpu_platform",
    "components",
    "policies/gpu_facts",
    "policies/gpu_policy_support",
    "policies/gpu_policies",
)
CLOUD_NAMES = frozenset({"azure", "alicloud", "existing", "aws", "gcp", "aks", "ack", "eks", "gke"})
"""Every name a cloud goes by: today's, the folders' and the config's (``aks``, ``ack``, ``eks``,
``gke``, ``existing``), the config's of 0.1 (``azure``, ``alicloud``) and the providers'
(``aws``, ``gcp``)."""
PER_CLOUD = frozenset({"aks", "ack", "existing", "eks", "gke"})
DISPATCH = "gpu_platform/plan/clouds.py"
PACK_DISPATCH = "policies/gpu_policy_support/clouds.py"
"""The pack's own dispatch on cloud (it loads without ``gpu_platform``)."""
DISPATCHES = (DISPATCH, PACK_DISPATCH)


def _strings(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return {s for element in node.elts for s in _strings(element)}
    return set()


EQUALITY = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def comparisons(source: str, where: str) -> Iterator[str]:
    """Each ``==``, ``!=``, ``in`` or ``match`` against a cloud name in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            equality = all(isinstance(op, EQUALITY) for op in node.ops)
            if equality and any(_strings(side) & CLOUD_NAMES for side in sides):
                yield f"{where}:{node.lineno}: {ast.unparse(node)}"
        elif isinstance(node, ast.MatchValue) and _strings(node.value) & CLOUD_NAMES:
            yield f"{where}:{node.lineno}: case {ast.unparse(node.value)}"


def _of(path: Path) -> Iterator[str]:
    return comparisons(path.read_text(), path.relative_to(ROOT).as_posix())


def production_modules() -> Iterator[Path]:
    for root in PRODUCTION:
        for path in sorted((ROOT / root).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if relative.parts[:2] == ("gpu_platform", "components"):
                continue  # the link to components/, counted there
            if set(relative.with_suffix("").parts) & PER_CLOUD or relative.as_posix() in DISPATCHES:
                continue
            yield path


def test_no_cloud_name_is_compared_outside_the_cloud_folders_and_the_dispatch() -> None:
    found = [hit for path in production_modules() for hit in _of(path)]
    assert found == [], (
        "ask plan.clouds (cloud_plan(cloud).<what differs>) or, in the pack, "
        "gpu_policy_support.clouds (pool.on.<what differs>) instead:\n" + "\n".join(found)
    )


def test_the_dispatches_are_counted_out_by_name_only() -> None:
    """Only the two dispatch modules are left out of the count, and both exist."""
    assert all((ROOT / path).is_file() for path in DISPATCHES)
    counted = {p.relative_to(ROOT).as_posix() for p in production_modules()}
    assert not counted & set(DISPATCHES)
    assert "policies/gpu_policy_support/node_pools.py" in counted


def test_the_count_sees_every_kind_of_comparison() -> None:
    source = (
        'if cloud == "azure" or settings.cloud != "existing":\n    pass\n'
        'if pool.cloud in ("aws", "gcp"):\n    pass\n'
        'match cloud:\n    case "alicloud":\n        pass\n'
        'PLANS = {"azure": 1}\nname = "aks"\n'  # a table and a name are no comparison
    )
    assert sorted(hit.split(": ", 1)[0] for hit in comparisons(source, "x")) == [
        "x:1",
        "x:1",
        "x:3",
        "x:6",
    ]
