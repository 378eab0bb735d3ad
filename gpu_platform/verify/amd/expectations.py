"""What the stack promised on its AMD GPU pools, in terms a live cluster shows (docs/amd.md).

AMD pools are served by AMD's GPU Operator, not by NVIDIA's components: one DeviceConfig per
pool (``plan.amd.gpu_operator``), whose device plugin, node labeller and metrics exporter
DaemonSets are named after it, in the operator's namespace. Derived from the same ``plan``
functions the components provision from, so the check cannot drift from what was built.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpu_facts.amd.gpu_operator import (
    DEVICE_PLUGIN_SUFFIX,
    EXPORTER_SUFFIX,
    METRICS_PORT,
    NODE_LABELLER_SUFFIX,
)
from gpu_platform.plan.amd.gpu_operator import device_config_name
from gpu_platform.plan.amd.pools import amd_pools
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.plan.pools import PoolFacts

from ..expectations import PoolExpectation, pool_expectation

DEVICE_PLUGIN_TITLE = "AMD device plugin"
NODE_LABELLER_TITLE = "AMD node labeller"
EXPORTER_TITLE = "AMD metrics exporter"


@dataclass(frozen=True, slots=True)
class AmdPoolExpectation:
    """One AMD pool: its nodes (count, labels, taint, allocatable) and its DeviceConfig."""

    pool: PoolExpectation
    device_config: str
    """The pool's DeviceConfig: its operands' DaemonSets are ``<name>-device-plugin``..."""
    gpus: int
    """Whole GPUs per node: one exporter series each (MI300X on AKS is modelled unpartitioned)."""

    @property
    def device_plugin(self) -> str:
        return self.device_config + DEVICE_PLUGIN_SUFFIX

    @property
    def node_labeller(self) -> str:
        return self.device_config + NODE_LABELLER_SUFFIX

    @property
    def exporter(self) -> str:
        return self.device_config + EXPORTER_SUFFIX

    def operands(self) -> list[tuple[str, str]]:
        """(DaemonSet name, how the report names it), in the order the report shows them."""
        return [
            (self.device_plugin, DEVICE_PLUGIN_TITLE),
            (self.node_labeller, NODE_LABELLER_TITLE),
            (self.exporter, EXPORTER_TITLE),
        ]


@dataclass(frozen=True, slots=True)
class AmdExpectation:
    namespace: str
    """The operator's namespace, where every operand DaemonSet runs."""
    pools: list[AmdPoolExpectation]
    workload_namespaces: list[str]
    """Workload namespaces that may run on an AMD pool: their GPU pods must be on the exporter's
    series with their pod and namespace."""
    port: int = METRICS_PORT


def amd_pool_expectation(platform: ResolvedPlatform, pf: PoolFacts) -> AmdPoolExpectation:
    return amd_pool_of(pool_expectation(platform, pf), pf)


def amd_pool_of(pool: PoolExpectation, pf: PoolFacts) -> AmdPoolExpectation:
    """An AMD pool's nodes and its DeviceConfig (the one ``plan.amd.gpu_operator`` names)."""
    return AmdPoolExpectation(pool, device_config_name(pf), pf.gpus_per_node)


def amd_expectation(platform: ResolvedPlatform) -> AmdExpectation | None:
    """The AMD pools' expectations, None when the stack has no AMD pool."""
    pools = amd_pools(platform.pools.values())
    if not pools:
        return None
    names = {pf.name for pf in pools}
    namespaces = [
        wl.name
        for wl in platform.settings.workloads
        if any(pf.name in names for pf in platform.workload_pools(wl))
    ]
    return AmdExpectation(
        namespace=platform.settings.amd_gpu_operator.namespace,
        pools=[amd_pool_expectation(platform, pf) for pf in pools],
        workload_namespaces=namespaces,
    )
