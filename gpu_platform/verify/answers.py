"""What an API server's answer to a list must look like, and what it was when it was not.

Kubernetes answers a list with a ``<Kind>List``: a JSON object whose ``items`` is an array of
objects and whose ``metadata.continue`` names the next page (API concepts, "Retrieving large
results sets in chunks": https://kubernetes.io/docs/reference/using-api/api-concepts/). A
null or absent ``items`` reads as an empty list, as Go clients decode it. Anything else (an
array, ``null``, a string, a number, items that are not objects, a continue token that is not a
string or comes again) is an ``AnswerError`` naming what came instead. Items without a name
are left out, and said so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Obj = dict[str, Any]


class AnswerError(Exception):
    """The server answered, but not with what was asked for."""


@dataclass(frozen=True, slots=True)
class BadAnswer:
    """A list (or get) request whose answer could not be read; the run reports it as one row."""

    what: str
    """The request, as rows and errors name it: ``list pods in gpu-metrics``."""
    resource: str
    """The resource listed or got (``nodes``, ``pods``, ``namespaces``, ``storageclasses``...)."""
    namespace: str | None
    """Its namespace; None for cluster-scoped resources and lists across all namespaces."""
    selector: str
    """The label selector of the request, ``""`` for none."""
    expected: str
    cause: str
    partial: bool = False
    """The list was read, less some items that name no object (left out); the rest is
    judged as usual."""
    field_selector: str = ""
    """The field selector of a list (``spec.nodeName=<node>``: a node's pods), ``""`` for none."""
    name: str | None = None
    """The object a get asked for; None for a list."""


def shape(value: object) -> str:
    """What a JSON value is, for messages: ``a JSON array ([])``, ``null``, ``a string``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int | float):
        return f"a number ({value})"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"a string ({shown!r})"
    if isinstance(value, list):
        return "a JSON array ([])" if not value else f"a JSON array of {len(value)}"
    return "a JSON object"


def list_items(page: object) -> list[Obj]:
    """The objects of one page of a list."""
    if not isinstance(page, dict):
        raise AnswerError(f"the answer is {shape(page)}, not a list object")
    items = page.get("items")
    if items is None:
        return []
    if not isinstance(items, list):
        raise AnswerError(f"its items are {shape(items)}, not an array")
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise AnswerError(f"item {index} is {shape(item)}, not an object")
    return items


def unnamed(items: list[Obj]) -> list[int]:
    """The positions of items without a ``metadata.name`` string: no Kubernetes object, so no
    row could say which one it is."""
    out = []
    for index, item in enumerate(items):
        meta = item.get("metadata")
        name = meta.get("name") if isinstance(meta, dict) else None
        if not isinstance(name, str) or not name:
            out.append(index)
    return out


def continue_token(page: Obj, seen: set[str]) -> str | None:
    """The next page's token; ``seen`` (the tokens followed so far) grows by it."""
    meta = page.get("metadata")
    token = meta.get("continue") if isinstance(meta, dict) else None
    if token is None or token == "":
        return None
    if not isinstance(token, str):
        raise AnswerError(f"its continue token is {shape(token)}, not a string")
    if token in seen:
        raise AnswerError(
            f"the server sent the continue token {token!r} again after {len(seen) + 1} pages: "
            "paging stopped (it would never end)"
        )
    seen.add(token)
    return token
