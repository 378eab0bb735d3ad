"""Where each pod-bearing Kubernetes kind keeps its pod spec, and what a pod spec asks for."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gpu_facts.scheduling import is_gpu_resource

from .props import mapping, mappings, path, text

# Kind -> keys from the resource's props to its pod spec.
_TEMPLATE_SPEC = ("spec", "template", "spec")
POD_SPEC_PATHS: dict[str, tuple[str, ...]] = {
    "Pod": ("spec",),
    "Deployment": _TEMPLATE_SPEC,
    "StatefulSet": _TEMPLATE_SPEC,
    "DaemonSet": _TEMPLATE_SPEC,
    "ReplicaSet": _TEMPLATE_SPEC,
    "Job": _TEMPLATE_SPEC,
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}
DEFAULT_NAMESPACE = "default"


def kubernetes_kind(resource_type: str) -> str | None:
    """``kubernetes:apps/v1:Deployment`` -> ``Deployment``; None for other providers."""
    parts = resource_type.split(":")
    if len(parts) != 3 or parts[0] != "kubernetes":
        return None
    return parts[2]


def pod_spec(resource_type: str, props: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The pod spec of a pod-bearing resource (any API version), None for any other type."""
    kind = kubernetes_kind(resource_type)
    keys = POD_SPEC_PATHS.get(kind or "")
    if keys is None:
        return None
    return mapping(path(props, *keys))


def namespace(props: Mapping[str, Any]) -> str:
    """The object's namespace; Kubernetes puts an object without one in ``default``."""
    return text(path(props, "metadata", "namespace")) or DEFAULT_NAMESPACE


@dataclass(frozen=True, slots=True)
class Container:
    """One container of a pod spec, with where it sits (for messages)."""

    name: str
    where: str
    """``containers`` or ``initContainers``."""
    spec: Mapping[str, Any]

    @property
    def label(self) -> str:
        return f"{self.where}[{self.name}]"


def containers(spec: Mapping[str, Any]) -> Iterator[Container]:
    """Every container that can hold resources: regular and init containers."""
    for where in ("initContainers", "containers"):
        for index, container in enumerate(mappings(spec.get(where))):
            name = text(container.get("name")) or f"#{index}"
            yield Container(name, where, container)


def gpu_resources(container: Container) -> set[str]:
    """GPU resources a container names in its limits or requests."""
    resources = mapping(container.spec.get("resources"))
    names: set[str] = set()
    for section in ("limits", "requests"):
        names.update(str(key) for key in mapping(resources.get(section)) if is_gpu_resource(key))
    return names


def pod_gpu_resources(spec: Mapping[str, Any]) -> set[str]:
    """GPU resources any container of the pod asks for."""
    names: set[str] = set()
    for container in containers(spec):
        names |= gpu_resources(container)
    return names
