"""Reading resource props safely.

Under the real analyzer props arrive as unknown-checking proxies, which are ``Mapping`` and
``Sequence`` but not ``dict`` and ``list``; these helpers accept both and never assume a shape.

What many policies read of each resource (its pods, its name and namespace) is read once per
props object (``per_props``): the offline preview hands every policy of a run the same
read-only props, and about twenty policies and stack readers ask each resource the same.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from gpu_facts.pod_templates import ANY as ANY_KEY

EMPTY: Mapping[str, Any] = {}
T = TypeVar("T")

_READ: dict[int, tuple[weakref.ref[Mapping[str, Any]], dict[str, Any]]] = {}
"""``id(props)`` -> (props, what was read of it), for as long as ``props`` lives: an entry goes
with its props (the weak reference's callback), so an id is never read for another object."""


def _forget(key: int) -> None:
    _READ.pop(key, None)


def per_props(props: Mapping[str, Any], what: str, read: Callable[[Mapping[str, Any]], T]) -> T:
    """``read(props)``, once per ``props`` object and ``what`` while the object lives (props
    are read-only to policies): ``read`` must depend on ``props`` and ``what`` alone and give a
    value nobody changes (a tuple). Props that cannot be referenced weakly (a plain dict) are
    read each time; a read that raises (a value unknown at preview) raises each time."""
    key = id(props)
    held = _READ.get(key)
    if held is not None and held[0]() is props:
        found = held[1]
        if what in found:
            return found[what]
    else:
        try:
            ref = weakref.ref(props, lambda _, key=key: _forget(key))
        except TypeError:
            return read(props)
        found = {}
        _READ[key] = (ref, found)
    value = found[what] = read(props)
    return value


def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a mapping, else an empty one."""
    return value if isinstance(value, Mapping) else EMPTY


def items(value: Any) -> Sequence[Any]:
    """``value`` if it is a list (not a string), else an empty one."""
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return value
    return ()


def mappings(value: Any) -> Iterator[Mapping[str, Any]]:
    """The mapping elements of a list, skipping anything else."""
    for item in items(value):
        if isinstance(item, Mapping):
            yield item


def path(value: Any, *keys: str) -> Any:
    """``value[k1][k2]...``, or None as soon as a level is missing or not a mapping."""
    current = value
    for key in keys:
        if not isinstance(current, Mapping):
            return None
        current = current.get(key)
    return current


def text(value: Any) -> str | None:
    """``value`` if it is a string, else None."""
    return value if isinstance(value, str) else None


def is_true(value: Any) -> bool:
    """True for the boolean true and for ``"true"`` (providers JSON-encode some flags)."""
    return value is True or (isinstance(value, str) and value.lower() == "true")


def is_false(value: Any) -> bool:
    """True for the boolean false and for ``"false"``."""
    return value is False or (isinstance(value, str) and value.lower() == "false")


def _item_label(item: Any, index: int) -> str:
    """A list item as a path shows it: its name (``[gpu]``) when it has one, else its index."""
    if isinstance(item, Mapping):
        for key in ("name", "groupName"):
            name = item.get(key)
            if isinstance(name, str) and name:
                return f"[{name}]"
    return f"[{index}]"


def walk(value: Any, keys: Sequence[str], where: str = "") -> Iterator[tuple[str, Any]]:
    """Every value at ``keys`` below ``value``, with its dotted path (``spec.tasks[train]``);
    ``*`` forks over a list's items or a map's values. Missing levels yield nothing."""
    if not keys:
        yield where, value
        return
    key, rest = keys[0], keys[1:]
    if key == ANY_KEY:
        if isinstance(value, Mapping):
            for name, item in value.items():
                yield from walk(item, rest, f"{where}.{name}")
        else:
            for index, item in enumerate(items(value)):
                yield from walk(item, rest, f"{where}{_item_label(item, index)}")
    elif isinstance(value, Mapping):
        yield from walk(value.get(key), rest, f"{where}.{key}" if where else key)
