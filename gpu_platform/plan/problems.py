"""Problems with paths relative to what a check judged, and how a caller puts them under its
own path: the stack config under the key it read (``gpuPools[1]``), a component under its
property (``pool``)."""

from __future__ import annotations

from collections.abc import Iterable

Problem = tuple[str, str]
"""(path relative to the value judged, message); ``""`` is the value itself."""


def join(prefix: str, relative: str) -> str:
    """``("gpuPools[1]", "labels.x")`` -> ``gpuPools[1].labels.x``; an index joins without a
    dot, an empty side leaves the other."""
    if not relative:
        return prefix
    if not prefix or relative.startswith("["):
        return prefix + relative
    return f"{prefix}.{relative}"


def under(prefix: str, problems: Iterable[Problem]) -> list[Problem]:
    """``problems`` with their paths under ``prefix``."""
    return [(join(prefix, path), message) for path, message in problems]
