"""The keys the stack config knows at a place in it, and the closest one to a key it does not.

An unknown key is almost always a misspelt known one (``retentionDay``, ``gpu-platfrom:``): the
message names the closest (``difflib``), else lists the known keys.
"""

from __future__ import annotations

import difflib
import types
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from gpu_platform.settings import PlatformSettings
from gpu_platform.settings.platform import CLUSTER_SETTINGS, GPU_POOL_SETTINGS

CLOSE_ENOUGH = 0.6
"""``difflib`` similarity from which a known key is offered as the one meant."""


def closest(key: str, known: Iterable[str], cutoff: float = CLOSE_ENOUGH) -> str | None:
    matches = difflib.get_close_matches(key, sorted(known), n=1, cutoff=cutoff)
    return matches[0] if matches else None


def unknown_key_message(key: str, known: Iterable[str]) -> str:
    """ "unknown key" with the closest known key, else every known key."""
    known = sorted(known)
    match = closest(key, known)
    if match is not None:
        return f"unknown key; did you mean {match!r}?"
    return f"unknown key; known keys: {', '.join(known)}"


def model_keys(model: type[BaseModel]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]


def annotation_at(loc: Sequence[int | str], data: Mapping[str, object]) -> Any:
    """The type the schema has at ``loc`` (keys of the whole config ``data``; the cluster's and
    the GPU pools' models follow the cloud), or None when the schema has no one type there."""
    current: Any = PlatformSettings
    for i, part in enumerate(loc):
        if isinstance(part, int) and tuple(loc[:i]) == ("gpuPools",):
            current = GPU_POOL_SETTINGS.get(str(data.get("cloud")))
        elif isinstance(part, int):
            current = _item_type(current)
        elif current is PlatformSettings and part == "cluster":
            current = CLUSTER_SETTINGS.get(str(data.get("cloud")))
        else:
            current = _field_type(current, part)
        if current is None:
            return None
    return current


def field_at(loc: Sequence[int | str], data: Mapping[str, object]) -> FieldInfo | None:
    """The schema's field at ``loc`` (its last part a key of a model), or None."""
    if not loc or isinstance(loc[-1], int):
        return None
    model = model_of(annotation_at(loc[:-1], data))
    if model is None:
        return None
    return next(
        (info for name, info in model.model_fields.items() if loc[-1] in (name, info.alias)),
        None,
    )


def known_keys(loc: Sequence[int | str], data: Mapping[str, object]) -> list[str] | None:
    """The keys of the settings model at ``loc`` (a pydantic error location in the whole
    config ``data``), or None when no one model is there."""
    model = model_of(annotation_at(loc, data))
    return model_keys(model) if model is not None else None


def model_of(annotation: Any) -> type[BaseModel] | None:
    """The one model an annotation holds (``X``, ``X | None``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) in (Union, types.UnionType):
        models = [m for m in map(model_of, get_args(annotation)) if m is not None]
        return models[0] if len(models) == 1 else None
    return None


def _field_type(annotation: Any, key: str) -> Any:
    model = model_of(annotation)
    if model is None:
        return None
    for name, info in model.model_fields.items():
        if key in (name, info.alias):
            return info.annotation
    return None


def _item_type(annotation: Any) -> Any:
    if get_origin(annotation) is list:
        return get_args(annotation)[0]
    return None
