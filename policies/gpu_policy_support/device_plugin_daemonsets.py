"""The NVIDIA device plugin deployed without its Helm chart: DaemonSets running its image.

A DaemonSet runs the plugin when a container runs ``k8s-device-plugin`` (any registry) with
the plugin's command or none (the static manifests set none); it runs GPU Feature Discovery
when a container runs that image with ``gpu-feature-discovery``, or the standalone GFD image.
DaemonSets a Helm chart rendered (their parent is the chart) belong to that release, which
the release policies judge already.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pulumi_policy import PolicyResource

from gpu_facts.device_plugin_chart import (
    GFD_COMMAND,
    GFD_IMAGE_NAME,
    HELPER_COMMANDS,
    PLUGIN_IMAGE_NAME,
)

from .images import repository_name, split_image
from .pod_specs import containers, kubernetes_kind, pod_spec
from .props import items, text
from .resource_types import HELM_RELEASES


@dataclass(frozen=True, slots=True)
class PluginDaemonSet:
    """A DaemonSet of the stack that runs the plugin image."""

    resource: PolicyResource
    image: str
    tag: str | None
    digest: str | None
    role: str
    """``plugin``, ``gfd`` (GPU Feature Discovery from the plugin image) or ``gfd-standalone``."""

    @property
    def label(self) -> str:
        return f"'{self.resource.name}' ({self.image})"


def _words(spec: Mapping[str, object]) -> list[str]:
    return [w for key in ("command", "args") for w in items(spec.get(key)) if isinstance(w, str)]


def _role(repository: str, words: list[str]) -> str | None:
    name = repository_name(repository)
    if name == GFD_IMAGE_NAME:
        return "gfd-standalone"
    if name != PLUGIN_IMAGE_NAME:
        return None
    if any(GFD_COMMAND in w for w in words):
        return "gfd"
    if any(w in HELPER_COMMANDS for w in words):
        return None
    return "plugin"


def rendered_by_chart(resource: PolicyResource) -> bool:
    parent = resource.parent
    return parent is not None and parent.resource_type in HELM_RELEASES


def raw_daemonsets(
    index: Mapping[str, list[PolicyResource]],
) -> Iterator[tuple[PolicyResource, Mapping[str, Any]]]:
    """Each DaemonSet the program declares itself (not one a chart renders), with its pod spec."""
    for resource_type, resources in index.items():
        if kubernetes_kind(resource_type) != "DaemonSet":
            continue
        for resource in resources:
            spec = pod_spec(resource_type, resource.props)
            if spec is not None and not rendered_by_chart(resource):
                yield resource, spec


def plugin_daemonsets(index: Mapping[str, list[PolicyResource]]) -> Iterator[PluginDaemonSet]:
    """Every container role a DaemonSet of the stack plays, one entry per DaemonSet and role."""
    for resource, spec in raw_daemonsets(index):
        seen: set[str] = set()
        for container in containers(spec):
            image = text(container.spec.get("image"))
            if image is None:
                continue
            repository, tag, digest = split_image(image)
            role = _role(repository, _words(container.spec))
            if role is not None and role not in seen:
                seen.add(role)
                yield PluginDaemonSet(resource, image, tag, digest, role)
