"""The plan as the exporter reads it: each resource's type token, name and public inputs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SECRET_TEXT = "[secret]"
UNKNOWN_TEXT = "[unknown]"
"""How secrets and values known only after apply appear in inputs (as in the JSON preview)."""


@dataclass(frozen=True)
class PlanResource:
    """One registration: inputs with camelCase wire keys, secrets and unknowns as text."""

    type: str
    name: str
    inputs: dict[str, Any]
    custom: bool = True
    """False for a component (its children carry the objects)."""
    remote: bool = False
    """A component a provider plugin builds (Helm v4 ``Chart``, ``yaml/v2``, pulumi-eks)."""
    urn: str = ""
    parent: str | None = None
    """The parent's URN: a Kubernetes remote component's objects, as the offline preview built
    them, are its children."""

    @property
    def package(self) -> str:
        return self.type.split(":", 1)[0]


def plain(value: Any) -> Any:
    """``value`` as a manifest or template holds it: whole numbers as integers.

    The engine carries every number as a float (a port of ``53.0``); scanners compare some of
    them with integers, and a reader expects ``53``.
    """
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def known_text(value: Any) -> str | None:
    """``value`` when it is a known string (not a secret, not unknown), else None."""
    if isinstance(value, str) and value and value not in (SECRET_TEXT, UNKNOWN_TEXT):
        return value
    return None
