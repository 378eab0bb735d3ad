"""Reading fields of Kubernetes objects (JSON as the API server sent it) without tracebacks.

A field the server left out, sent as ``null`` or with an unexpected type reads as empty, so a
check on odd data reports one failing row instead of crashing the whole run.
"""

from __future__ import annotations

from typing import Any

from .cluster import Obj


def mapping(obj: object, *path: str) -> dict[str, Any]:
    """The object at ``path``, or ``{}`` when a step is missing, null or not an object."""
    current: object = obj
    for key in path:
        current = current.get(key) if isinstance(current, dict) else None
    return current if isinstance(current, dict) else {}


def entries(obj: object, *path: str) -> list[Obj]:
    """The objects in the list at ``path`` (``[]`` when it is missing or not a list)."""
    *parents, last = path
    value = mapping(obj, *parents).get(last)
    return [e for e in value if isinstance(e, dict)] if isinstance(value, list) else []


def text(obj: object, *path: str) -> str:
    """The scalar at ``path`` as text, ``""`` when it is missing, null or not a scalar."""
    *parents, last = path
    value = mapping(obj, *parents).get(last)
    return str(value) if isinstance(value, str | int | float | bool) else ""


def count(obj: object, *path: str) -> int | None:
    """The whole number at ``path``, None when it is missing or not one."""
    *parents, last = path
    value = mapping(obj, *parents).get(last)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def whole(value: object) -> int | None:
    """A value written as a whole number (an extended resource, an index annotation), None
    when it is not one."""
    try:
        return int(str(value))
    except ValueError:
        return None


def name_of(obj: object) -> str:
    return text(obj, "metadata", "name") or "?"


def labels_of(obj: object) -> dict[str, str]:
    return {str(k): str(v) for k, v in mapping(obj, "metadata", "labels").items()}
