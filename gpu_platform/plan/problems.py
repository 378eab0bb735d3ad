"""What a rule in ``plan`` returns: problems with key paths relative to what it judges.

A rule judges one thing (a pool, a cluster) and names its keys as the stack config and the
component schemas spell them (camelCase: ``mig.profile``, ``upgrade.maxSurge``); ``""`` is the
thing itself. Each caller puts the paths under its own: the stack config under ``gpuPools[1]``
or ``cluster``, a component under its property (``pool``, ``pools[0]``).
"""

from __future__ import annotations

from collections.abc import Iterable

Problem = tuple[str, str]
"""(key path relative to what the rule judges, message)"""


def join_path(prefix: str, path: str) -> str:
    """``("gpuPools[1]", "mig")`` -> ``gpuPools[1].mig``; an empty side is left out, and an
    index joins without a dot (``("zones", "[0]")`` -> ``zones[0]``)."""
    if not path:
        return prefix
    if not prefix:
        return path
    return f"{prefix}{path}" if path.startswith("[") else f"{prefix}.{path}"


def under(prefix: str, problems: Iterable[Problem]) -> list[Problem]:
    """``problems`` with their paths under ``prefix``."""
    return [(join_path(prefix, path), message) for path, message in problems]
