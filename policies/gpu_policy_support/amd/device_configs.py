"""AMD GPU Operator ``DeviceConfig`` objects of a stack, and the AMD pools each one serves.

A DeviceConfig (``amd.com/v1alpha1``) runs AMD's device plugin, node labeller and metrics
exporter on the nodes its ``spec.selector`` picks (a map of labels, every pair required; the
exporter may have its own ``metricsExporter.selector``), each tolerating what its own
``*Tolerations`` list says, and the exporter ``amd-gpu-unhealthy`` too (the operator adds it).
Defaults from the CRD (v1.5.1): the device plugin on, the exporter off, single resource naming.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pulumi_policy import PolicyResource

from gpu_facts.amd.gpu_operator import UNHEALTHY_TAINT_KEY
from gpu_facts.scheduling import AMD_GPU, GPU_TAINT_EFFECT

from ..node_placement import NodePlacement
from ..props import is_false, is_true, mapping, mappings, path, text
from ..resource_types import AMD_DEVICE_CONFIG

MIXED = "mixed"
"""The device plugin's naming strategy that advertises partitions (``amd.com/<c>_<m>``)."""
_UNHEALTHY = {"key": UNHEALTHY_TAINT_KEY, "operator": "Exists", "effect": GPU_TAINT_EFFECT}


@dataclass(frozen=True, slots=True)
class DeviceConfig:
    """One DeviceConfig: where its plugin and exporter run and what the plugin advertises."""

    resource: PolicyResource
    name: str
    placement: NodePlacement
    """Its ``spec.selector`` (no selector: NFD's ``amd-gpu`` label, which our pools never have
    on Azure: the operator's default)."""
    plugin: bool
    plugin_tolerations: tuple[Mapping[str, Any], ...]
    naming: str
    """``single`` (``amd.com/gpu``) or ``mixed`` (partitions)."""
    exporter: bool
    exporter_placement: NodePlacement
    exporter_tolerations: tuple[Mapping[str, Any], ...]

    @property
    def label(self) -> str:
        return f"DeviceConfig '{self.name}'"

    @property
    def plugin_resource(self) -> str | None:
        """The resource its plugin advertises, None under ``mixed`` (partition names depend on
        the node's partition mode, unknown at preview)."""
        return None if self.naming == MIXED else AMD_GPU


def _selector(value: Any) -> NodePlacement:
    labels = {str(k): str(v) for k, v in mapping(value).items()}
    return NodePlacement(labels or {"feature.node.kubernetes.io/amd-gpu": "true"}, None)


def _device_config(resource: PolicyResource) -> DeviceConfig:
    spec = mapping(resource.props.get("spec"))
    plugin = mapping(spec.get("devicePlugin"))
    exporter = mapping(spec.get("metricsExporter"))
    own = exporter.get("selector")
    naming = text(path(plugin, "devicePluginArguments", "resource_naming_strategy")) or "single"
    return DeviceConfig(
        resource=resource,
        name=text(path(resource.props, "metadata", "name")) or resource.name,
        placement=_selector(spec.get("selector")),
        plugin=not is_false(plugin.get("enableDevicePlugin")),
        plugin_tolerations=tuple(mappings(plugin.get("devicePluginTolerations"))),
        naming=naming,
        exporter=is_true(exporter.get("enable")),
        exporter_placement=_selector(own if mapping(own) else spec.get("selector")),
        exporter_tolerations=(*mappings(exporter.get("tolerations")), _UNHEALTHY),
    )


def device_configs(index: Mapping[str, list[PolicyResource]]) -> Iterator[DeviceConfig]:
    """Every DeviceConfig of the stack (``stack_index.index_by_type``)."""
    for resource in index.get(AMD_DEVICE_CONFIG, ()):
        yield _device_config(resource)
