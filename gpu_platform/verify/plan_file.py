"""A program's plan as ``make verify --plan`` reads it: each resource's type, name and inputs.

Three shapes are read, whichever the file is:

- the offline preview's JSON (``python -m gpu_platform.offline_preview --format json``):
  ``resources[]`` with ``type``, ``name`` and ``inputs``;
- ``pulumi preview --json``: ``steps[]``, each resource in ``newState`` (``type``, ``urn``,
  ``inputs``);
- ``pulumi stack export``: ``deployment.resources[]`` (``type``, ``urn``, ``inputs``).

Only our components' inputs are kept (``gpu-platform:`` types; the rest, which make verify
does not read, keep their type and name). Numbers come as JSON numbers; whole ones are made ints
(the engine carries every number as a double). A secret reads as ``[secret]`` whatever the file
holds (the offline preview's ``[secret]``, a state export's envelope, encrypted or, with
``--show-secrets``, in plain text), so no message can show one; unknowns are ``[unknown]``.

A plan file is untrusted input: over ``MAX_BYTES``, or nested too deeply for the JSON reader, it
is refused with a ``PlanError`` (exit 2), like a file that is not JSON or not a plan.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_BYTES = 256 * 2**20
"""The largest plan read (the dev stack's is about 110 KB; a team program of 20,000 resources
some tens of MB)."""
COMPONENT_TYPES = "gpu-platform:"
"""The type prefix of our components, the only resources whose inputs make verify reads."""
SECRET_SIG = "4dabf18193072939515e22adb298388d"
"""The key the engine marks a secret value with in state (``pulumi stack export``)."""
SECRET = "[secret]"
MAX_DEPTH = 64
"""The deepest an input of our components may be nested (theirs are a few levels deep)."""


class PlanError(Exception):
    """The plan cannot be read, or has nothing make verify can check."""


@dataclass(frozen=True, slots=True)
class PlannedResource:
    type: str
    name: str
    inputs: dict[str, Any]


class TooDeep(Exception):
    """A value nested deeper than ``MAX_DEPTH``."""


def plan_value(value: Any, depth: int = 0) -> Any:
    """``value`` with every whole float an int and every secret ``[secret]``; ``TooDeep`` past
    ``MAX_DEPTH`` levels."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict | list) and depth >= MAX_DEPTH:
        raise TooDeep
    if isinstance(value, dict):
        if SECRET_SIG in value:
            return SECRET
        return {k: plan_value(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [plan_value(v, depth + 1) for v in value]
    return value


def _name(entry: dict[str, Any]) -> str:
    name = entry.get("name")
    if isinstance(name, str):
        return name
    urn = entry.get("urn")
    return urn.rsplit("::", 1)[-1] if isinstance(urn, str) else "?"


def _entries(doc: object) -> list[Any]:
    if not isinstance(doc, dict):
        raise PlanError("not a plan: a JSON object was expected")
    if isinstance(doc.get("resources"), list):
        return list(doc["resources"])
    if isinstance(doc.get("steps"), list):
        return [step.get("newState") for step in doc["steps"] if isinstance(step, dict)]
    deployment = doc.get("deployment")
    if isinstance(deployment, dict) and isinstance(deployment.get("resources"), list):
        return list(deployment["resources"])
    raise PlanError(
        "not a plan: no resources (the offline preview's --format json), steps (pulumi "
        "preview --json) or deployment.resources (pulumi stack export)"
    )


def plan_resources(doc: object) -> list[PlannedResource]:
    """The resources of a plan document, in its order, our components' with their inputs."""
    found = []
    for entry in _entries(doc):
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
            continue
        inputs = entry.get("inputs")
        ours = entry["type"].startswith(COMPONENT_TYPES) and isinstance(inputs, dict)
        try:
            read = plan_value(inputs) if ours else {}
        except TooDeep:
            raise PlanError(
                f"{_name(entry)}: its inputs are nested deeper than {MAX_DEPTH} levels"
            ) from None
        found.append(PlannedResource(entry["type"], _name(entry), read))
    return found


def plan_document(data: bytes | str, source: str) -> list[PlannedResource]:
    """The resources of a plan's JSON text, from ``source`` (for messages)."""
    if len(data) > MAX_BYTES:
        raise PlanError(f"{source} is larger than {MAX_BYTES // 2**20} MiB: not a plan to read")
    try:
        doc = json.loads(data)
    except RecursionError:
        raise PlanError(f"{source} is nested too deeply to be a plan") from None
    except ValueError as err:
        raise PlanError(f"{source} is not JSON ({err})") from None
    return plan_resources(doc)


def read_plan(path: Path) -> list[PlannedResource]:
    """The resources of the plan file at ``path``, read to at most ``MAX_BYTES``."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as err:
        raise PlanError(f"cannot read {path}: {err.strerror or err}") from None
    return plan_document(data, str(path))
