"""Node placement of chart pods: nodeSelector AND (required affinity terms ORed, expressions
ANDed), as the scheduler reads them."""

from __future__ import annotations

from typing import Any

import pytest
from gpu_policy_support.node_placement import ANYWHERE, node_placement

LABELS = {"gpu": "true", "zone": "2", "pool": "t4"}


def required(*terms: dict[str, Any]) -> dict[str, Any]:
    nodes = {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": list(terms)}}
    return {"affinity": {"nodeAffinity": nodes}}


def expr(key: str, operator: str, *values: str) -> dict[str, Any]:
    return {"matchExpressions": [{"key": key, "operator": operator, "values": list(values)}]}


@pytest.mark.parametrize(
    ("term", "admitted"),
    [
        (expr("pool", "In", "t4", "a100"), True),
        (expr("pool", "In", "a100"), False),
        (expr("pool", "NotIn", "a100"), True),
        (expr("missing", "NotIn", "x"), True),
        (expr("pool", "NotIn", "t4"), False),
        (expr("gpu", "Exists"), True),
        (expr("missing", "Exists"), False),
        (expr("missing", "DoesNotExist"), True),
        (expr("gpu", "DoesNotExist"), False),
        (expr("zone", "Gt", "1"), True),
        (expr("zone", "Gt", "2"), False),
        (expr("zone", "Lt", "3"), True),
        (expr("pool", "Gt", "1"), False),
        (expr("pool", "Matches", "t4"), False),
        ({}, False),
        ({"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n"]}]}, True),
    ],
)
def test_operators(term: dict[str, Any], admitted: bool) -> None:
    assert node_placement(required(term)).admits(LABELS) is admitted


def test_terms_are_ored_and_expressions_anded() -> None:
    both = {"matchExpressions": [*expr("gpu", "Exists")["matchExpressions"]]}
    both["matchExpressions"].append({"key": "pool", "operator": "In", "values": ["a100"]})
    assert not node_placement(required(both)).admits(LABELS)
    assert node_placement(required(both, expr("pool", "In", "t4"))).admits(LABELS)


def test_node_selector_and_affinity_both_apply() -> None:
    values = {**required(expr("gpu", "Exists")), "nodeSelector": {"pool": "a100"}}
    assert not node_placement(values).admits(LABELS)
    values["nodeSelector"] = {"pool": "t4"}
    assert node_placement(values).admits(LABELS)


def test_no_constraint_admits_every_node() -> None:
    placement = node_placement({"affinity": {"podAntiAffinity": {}}})
    assert placement == ANYWHERE
    assert placement.admits({})
