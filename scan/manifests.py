"""Kubernetes objects of a plan as manifests, as the Kubernetes provider would send them.

Objects the plan does not hold whole are listed as not scanned, with the reason: a Helm
release's objects are rendered by Helm at deploy time (the plan holds only the release's
values; ``scan/charts.py`` renders them from their charts when it can have them), a patch holds
only part of an object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from .plan import PlanResource, known_text, plain

CHART_TYPES = frozenset({"kubernetes:helm.sh/v3:Release"})
"""Helm releases whose objects Helm makes at deploy time (the plan holds only the values)."""
KUBERNETES_COMPONENTS = frozenset(
    {
        "kubernetes:helm.sh/v4:Chart",
        "kubernetes:yaml/v2:ConfigFile",
        "kubernetes:yaml/v2:ConfigGroup",
    }
)
"""Remote components the offline preview builds (their objects are their children)."""
_FIRST_KEYS = ("apiVersion", "kind", "metadata")


@dataclass(frozen=True)
class NotScanned:
    """A resource of the plan the scan cannot see, and why."""

    type: str
    name: str
    reason: str


def _api_version_of(token: str) -> str:
    """``kubernetes:apps/v1:DaemonSet`` -> ``apps/v1``; the core group has no prefix."""
    group_version = token.split(":")[1]
    return group_version.removeprefix("core/")


def ordered(value: Any) -> Any:
    """Keys sorted at every level (a stable diff), ``apiVersion, kind, metadata`` first."""
    if isinstance(value, dict):
        first = [k for k in _FIRST_KEYS if k in value]
        rest = sorted(k for k in value if k not in _FIRST_KEYS)
        return {k: ordered(value[k]) for k in first + rest}
    if isinstance(value, list):
        return [ordered(v) for v in value]
    return value


def chart_not_scanned(resource: PlanResource, why: str) -> NotScanned:
    """A Helm release whose chart could not be had to render its objects."""
    inputs = resource.inputs
    chart = known_text(inputs.get("chart")) or "?"
    version = known_text(inputs.get("version")) or "(unpinned)"
    namespace = known_text(inputs.get("namespace")) or "?"
    return NotScanned(
        resource.type,
        resource.name,
        f"Helm chart {chart} {version} in namespace {namespace}: its objects are rendered by "
        f"Helm at deploy time and the chart could not be had to render them ({why})",
    )


def manifest(resource: PlanResource) -> dict[str, Any] | NotScanned:
    """The object of one ``kubernetes:`` custom resource, or why it cannot be scanned."""
    kind_token = resource.type.rsplit(":", 1)[1]
    if kind_token.endswith("Patch"):
        reason = "a server-side apply patch: the scan does not see the whole object"
        return NotScanned(resource.type, resource.name, reason)
    if kind_token.endswith("List"):
        return NotScanned(resource.type, resource.name, "a list of objects: not exported")
    obj = plain(dict(resource.inputs))
    obj.setdefault("apiVersion", _api_version_of(resource.type))
    obj.setdefault("kind", kind_token)
    metadata = dict(obj.get("metadata") or {})
    if not known_text(metadata.get("name")):
        metadata["name"] = resource.name  # auto-named: the provider adds a random suffix
    obj["metadata"] = metadata
    return ordered(obj)


def as_yaml_stream(objects: list[dict[str, Any]]) -> str:
    """One YAML stream, a document per object, in plan order."""
    return yaml.safe_dump_all(objects, sort_keys=False, default_flow_style=False, width=100)
