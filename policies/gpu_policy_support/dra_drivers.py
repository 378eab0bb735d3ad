"""NVIDIA's DRA driver in a stack: its Helm releases (either chart name), and the pools its
GPU kubelet plugin runs on.

The kubelet plugin's pods land where ``values.kubeletPlugin`` places them: its ``nodeSelector``
and required node affinity against a pool's labels, its ``tolerations`` against the pool's
taints. A release that sets no affinity keeps the chart's default, which matches labels NFD
(or the GPU Operator) adds at run time: like the device plugin's default, it counts as running
on every GPU pool it tolerates. A release that sets no tolerations keeps its chart's
(``gpu_facts.nvidia.dra_driver_chart.DEFAULT_KUBELET_PLUGIN_TOLERATIONS``): none in 25.12.0, so
it runs on no tainted pool; ``nvidia.com/gpu`` in the newer ``dra-driver-nvidia-gpu``, so it runs
on every GPU pool so tainted. A release whose ``resources.gpus.enabled`` is false runs no GPU
plugin at all.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pulumi_policy import PolicyResource

from gpu_facts.nvidia.dra_driver_chart import CHART_NAMES, DEFAULT_KUBELET_PLUGIN_TOLERATIONS

from .helm_releases import releases
from .node_placement import ANYWHERE, NodePlacement, node_placement
from .node_pools import NodePool
from .props import is_false, mapping, mappings, path
from .tolerations import may_schedule


@dataclass(frozen=True, slots=True)
class DraDriverRelease:
    """One release of NVIDIA's DRA driver: where its GPU kubelet plugin may run."""

    resource: PolicyResource
    placement: NodePlacement
    tolerations: tuple[Mapping[str, Any], ...]

    def serves(self, pool: NodePool) -> bool:
        """Whether its GPU kubelet plugin may run on the pool's nodes."""
        return self.placement.admits(pool.labels) and may_schedule(self.tolerations, pool.taints)


def dra_driver_releases(index: Mapping[str, list[PolicyResource]]) -> Iterator[DraDriverRelease]:
    """Every release of NVIDIA's DRA driver chart that runs its GPU kubelet plugin."""
    for chart in CHART_NAMES:
        for release in releases(index, chart):
            values = mapping(release.props.get("values"))
            if is_false(path(values, "resources", "gpus", "enabled")):
                continue
            plugin = mapping(values.get("kubeletPlugin"))
            placed = "affinity" in plugin or "nodeSelector" in plugin
            placement = node_placement(plugin) if placed else ANYWHERE
            tolerations = (
                tuple(mappings(plugin.get("tolerations")))
                if "tolerations" in plugin
                else DEFAULT_KUBELET_PLUGIN_TOLERATIONS[chart]
            )
            yield DraDriverRelease(release, placement, tolerations)
