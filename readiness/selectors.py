"""Kubernetes label selectors, evaluated the way the API server does (matchLabels and
matchExpressions with In, NotIn, Exists, DoesNotExist; all terms must hold)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class SelectorError(ValueError):
    """A selector this module cannot evaluate (an unknown operator)."""


def matches(selector: Mapping[str, Any] | None, labels: Mapping[str, str]) -> bool:
    """Whether ``labels`` satisfy ``selector``; an absent or empty selector selects everything."""
    if not selector:
        return True
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for expr in selector.get("matchExpressions") or []:
        key, op, values = expr["key"], expr["operator"], expr.get("values") or []
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
