"""A program's plan as ``make verify --plan`` reads it: each resource's type, name and inputs.

Three shapes are read, whichever the file is:

- the offline preview's JSON (``python -m gpu_platform.offline_preview --format json``):
  ``resources[]`` with ``type``, ``name`` and ``inputs``;
- ``pulumi preview --json``: ``steps[]``, each resource in ``newState`` (``type``, ``urn``,
  ``inputs``);
- ``pulumi stack export``: ``deployment.resources[]`` (``type``, ``urn``, ``inputs``).

Numbers come as JSON numbers; whole ones are made ints (the engine carries every number as a
double). Secrets and unknowns are whatever the file holds (``[secret]``, an encrypted value,
``[unknown]``): the checks read none of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class PlanError(Exception):
    """The plan cannot be read, or has nothing make verify can check."""


@dataclass(frozen=True, slots=True)
class PlannedResource:
    type: str
    name: str
    inputs: dict[str, Any]


def whole_numbers(value: Any) -> Any:
    """``value`` with every whole float an int, at any depth."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [whole_numbers(v) for v in value]
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
    """The resources of a plan document, in its order."""
    found = []
    for entry in _entries(doc):
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
            continue
        inputs = entry.get("inputs")
        found.append(
            PlannedResource(
                entry["type"],
                _name(entry),
                whole_numbers(inputs if isinstance(inputs, dict) else {}),
            )
        )
    return found


def read_plan(path: Path) -> list[PlannedResource]:
    """The resources of the plan file at ``path``."""
    try:
        doc = json.loads(path.read_text())
    except OSError as err:
        raise PlanError(f"cannot read {path}: {err.strerror or err}") from None
    except ValueError as err:
        raise PlanError(f"{path} is not JSON ({err})") from None
    return plan_resources(doc)
