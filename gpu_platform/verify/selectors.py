"""Kubernetes label selectors, evaluated the way the API server does (matchLabels and
matchExpressions with In, NotIn, Exists, DoesNotExist; all terms must hold)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class SelectorError(ValueError):
    """A selector this module cannot evaluate (malformed, or an unknown operator)."""


def matches(selector: Mapping[str, Any] | None, labels: Mapping[str, str]) -> bool:
    """Whether ``labels`` satisfy ``selector``; an absent or empty selector selects everything."""
    if not selector:
        return True
    if not isinstance(selector, Mapping):
        raise SelectorError(f"label selector is not an object: {selector!r}")
    match_labels = selector.get("matchLabels") or {}
    expressions = selector.get("matchExpressions") or []
    if not isinstance(match_labels, Mapping) or not isinstance(expressions, list):
        raise SelectorError(
            "label selector: matchLabels must be an object, matchExpressions a list"
        )
    for key, value in match_labels.items():
        if labels.get(key) != value:
            return False
    for expr in expressions:
        if not isinstance(expr, Mapping) or not isinstance(expr.get("key"), str):
            raise SelectorError(f"label selector expression without a key: {expr!r}")
        key, op, values = expr["key"], expr.get("operator"), expr.get("values")
        values = values if isinstance(values, list) else []
        if op == "In":
            ok = key in labels and labels[key] in values
        elif op == "NotIn":
            ok = key not in labels or labels[key] not in values
        elif op == "Exists":
            ok = key in labels
        elif op == "DoesNotExist":
            ok = key not in labels
        else:
            raise SelectorError(f"unknown label selector operator {op!r}")
        if not ok:
            return False
    return True


def equality(labels: Mapping[str, str]) -> str:
    """The ``labelSelector`` query string for exact label values."""
    return ",".join(f"{key}={value}" for key, value in labels.items())
