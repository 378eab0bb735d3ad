"""The NVIDIA device plugin deployed without its Helm chart: DaemonSets running its image.

A DaemonSet runs the plugin when a container runs ``k8s-device-plugin`` (any registry) with
the plugin's command or none (the static manifests set none); it runs GPU Feature Discovery
when a container runs that image with ``gpu-feature-discovery``, or the standalone GFD image.
DaemonSets a Helm release of a chart the policies read by its values rendered (their parent is
the release) belong to that release, which the release policies judge already. Any other
rendered DaemonSet is judged itself: under ``pulumi preview`` a Helm v4 ``Chart``'s outputs
hold only the objects it made (pulumi-kubernetes ``helm/v4/chart.go``: ``ChartState`` has just
``resources``), not its ``chart`` or ``values``, so its DaemonSets are all the pack can see.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pulumi_policy import PolicyResource

from gpu_facts.nvidia.device_plugin_chart import (
    CHART_NAME,
    GFD_COMMAND,
    GFD_IMAGE_NAME,
    GPU_OPERATOR_CHART_NAME,
    HELPER_COMMANDS,
    PLUGIN_IMAGE_NAME,
)

from .helm_releases import chart_name
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


PLUGIN_CHARTS = frozenset({CHART_NAME, GPU_OPERATOR_CHART_NAME})
"""The charts whose releases the device-plugin policies judge by their values."""


def rendered_by_chart(resource: PolicyResource, charts: Collection[str]) -> bool:
    """Whether a Helm release of one of ``charts`` (named in its props) rendered ``resource``."""
    parent = resource.parent
    return (
        parent is not None
        and parent.resource_type in HELM_RELEASES
        and chart_name(parent.props) in charts
    )


def raw_daemonsets(
    index: Mapping[str, list[PolicyResource]], judged_charts: Collection[str]
) -> Iterator[tuple[PolicyResource, Mapping[str, Any]]]:
    """Each DaemonSet of the stack with its pod spec, but those a release of one of
    ``judged_charts`` rendered (the release stands for them)."""
    for resource_type, resources in index.items():
        if kubernetes_kind(resource_type) != "DaemonSet":
            continue
        for resource in resources:
            spec = pod_spec(resource_type, resource.props)
            if spec is not None and not rendered_by_chart(resource, judged_charts):
                yield resource, spec


def plugin_daemonsets(index: Mapping[str, list[PolicyResource]]) -> Iterator[PluginDaemonSet]:
    """Every container role a DaemonSet of the stack plays, one entry per DaemonSet and role."""
    for resource, spec in raw_daemonsets(index, PLUGIN_CHARTS):
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
