"""The schema's (pydantic's) errors as problems: the key path the user wrote, a plain message.

Pydantic names union members in error locations (``gpuQuota.constrained-int``) and reports
every member that failed. A value has one shape, so only the members of that shape speak: a
``gpuQuota`` mapping with a bad count is not also "must be a whole number". When no member
takes the value's shape, one problem names the shapes the key takes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from gpu_platform.plan.clouds import pool_key_elsewhere
from gpu_platform.plan.problems import Problem

from .known_keys import closest, known_keys, unknown_key_message

UNION_TAG = re.compile(r"^(constrained-\w+|(dict|list)\[.*\]|int|str|bool|float)$")
"""How pydantic names a union member in an error location; not a key the user wrote."""

_SHAPES = (
    ("dict[", "a mapping"),
    ("list[", "a list"),
    ("constrained-int", "a whole number"),
    ("int", "a whole number"),
    ("constrained-str", "text"),
    ("str", "text"),
    ("bool", "true or false"),
    ("float", "a number"),
)


def key_path(loc: Sequence[int | str]) -> str:
    """``("gpuPools", 0, "mig", "profile")`` -> ``gpuPools[0].mig.profile``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif UNION_TAG.match(part):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out or "(root)"


def _shape(tag: str) -> str:
    return next((text for prefix, text in _SHAPES if tag.startswith(prefix)), tag)


def _union_at(loc: Sequence[int | str]) -> int | None:
    return next((i for i, p in enumerate(loc) if isinstance(p, str) and UNION_TAG.match(p)), None)


def _wrong_shape(error: ErrorDetails, at: int) -> bool:
    """The member refused the value's type itself (not something inside it)."""
    return len(error["loc"]) == at + 1 and error["type"].endswith(("_type", "_parsing"))


def _one_shape(errors: list[ErrorDetails]) -> list[ErrorDetails | Problem]:
    """Each union's errors reduced to those of the members of the value's shape."""
    unions: dict[tuple[int | str, ...], list[ErrorDetails]] = {}
    out: list[ErrorDetails | Problem] = []
    for error in errors:
        at = _union_at(error["loc"])
        if at is None:
            out.append(error)
        else:
            unions.setdefault(tuple(error["loc"][:at]), []).append(error)
    for where, members in unions.items():
        at = len(where)
        fitting = [e for e in members if not _wrong_shape(e, at)]
        if fitting:
            tags = {e["loc"][at] for e in fitting}
            out.extend(e for e in members if e["loc"][at] in tags)
        else:
            shapes = list(dict.fromkeys(_shape(str(e["loc"][at])) for e in members))
            out.append((key_path(where), f"must be {' or '.join(shapes)}"))
    return out


def _keys(error: ErrorDetails) -> list[int | str]:
    return [p for p in error["loc"] if not (isinstance(p, str) and UNION_TAG.match(p))]


def _misspelt(errors: list[ErrorDetails | Problem]) -> dict[int, str]:
    """Unknown keys that are a missing required key misspelt (``nmae`` for ``name``): the
    unknown key's error -> the key meant. That key's "Field required" is the same mistake."""
    missing: dict[tuple[int | str, ...], list[str]] = {}
    for error in errors:
        if not isinstance(error, tuple) and error["type"] == "missing":
            keys = _keys(error)
            missing.setdefault(tuple(keys[:-1]), []).append(str(keys[-1]))
    meant: dict[int, str] = {}
    for i, error in enumerate(errors):
        if not isinstance(error, tuple) and error["type"] == "extra_forbidden":
            keys = _keys(error)
            match = closest(str(keys[-1]), missing.get(tuple(keys[:-1]), []), cutoff=0.5)
            if match is not None:
                meant[i] = match
    return meant


def schema_problems(err: ValidationError, data: Mapping[str, Any]) -> list[Problem]:
    """Every problem of a validation of the whole config ``data``, each once."""
    problems: list[Problem] = []
    errors = _one_shape(err.errors(include_url=False))
    meant = _misspelt(errors)
    explained = set()
    for i, key in meant.items():
        error = errors[i]
        if not isinstance(error, tuple):
            explained.add((key_path(_keys(error)[:-1]), key))
    for i, error in enumerate(errors):
        if isinstance(error, tuple):
            problems.append(error)
            continue
        message = error["msg"]
        keys = _keys(error)
        if error["type"] == "missing" and (key_path(keys[:-1]), str(keys[-1])) in explained:
            continue  # the unknown key next to it is this one misspelt
        if i in meant:
            message = f"unknown key; did you mean {meant[i]!r}?"
        elif error["type"] == "extra_forbidden":
            known = known_keys(keys[:-1], data)
            message = "unknown key" if known is None else unknown_key_message(str(keys[-1]), known)
            if len(keys) == 3 and keys[0] == "gpuPools":  # another cloud's key?
                message = pool_key_elsewhere(str(data.get("cloud")), str(keys[-1])) or message
        elif error["type"] == "value_error":
            message = message.removeprefix("Value error, ")
        elif error["type"] in ("int_type", "int_parsing", "int_from_float"):
            message = "must be a whole number"
        problems.append((key_path(error["loc"]), message))
    return list(dict.fromkeys(problems))
