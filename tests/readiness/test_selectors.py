"""Kubernetes label selectors as make verify reads them (readiness.selectors)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_platform.verify.selectors import SelectorError, matches


@pytest.mark.parametrize(
    ("selector", "selected"),
    [
        (None, True),
        ({}, True),
        ({"matchLabels": {"team": "a"}}, True),
        ({"matchLabels": {"team": "b"}}, False),
        ({"matchExpressions": [{"key": "team", "operator": "In", "values": ["a", "b"]}]}, True),
        ({"matchExpressions": [{"key": "team", "operator": "NotIn", "values": ["a"]}]}, False),
        ({"matchExpressions": [{"key": "gpu", "operator": "Exists"}]}, False),
        ({"matchExpressions": [{"key": "gpu", "operator": "DoesNotExist"}]}, True),
        (
            {
                "matchLabels": {"team": "a"},
                "matchExpressions": [{"key": "env", "operator": "In", "values": ["prod"]}],
            },
            False,
        ),
    ],
)
def test_label_selector(selector: dict[str, Any] | None, selected: bool) -> None:
    assert matches(selector, {"team": "a", "env": "dev"}) is selected


def test_unknown_selector_operator_is_an_error() -> None:
    with pytest.raises(SelectorError, match="'Gt'"):
        matches({"matchExpressions": [{"key": "n", "operator": "Gt", "values": ["1"]}]}, {})


@pytest.mark.parametrize(
    "selector",
    [
        {"matchLabels": ["team"]},
        {"matchExpressions": {"key": "team"}},
        {"matchExpressions": [None]},
        ["team"],
    ],
)
def test_malformed_selector_is_a_selector_error(selector: Any) -> None:
    with pytest.raises(SelectorError):
        matches(selector, {"team": "a"})
