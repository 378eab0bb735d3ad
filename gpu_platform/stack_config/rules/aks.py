"""Rules of AKS clusters and their pools: Entra ID, the API server, upgrade surge, and the node
hardening every pool the platform creates shares (pods per node, OS disk)."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.aks.cluster import aks_cluster_problems
from gpu_platform.plan.aks.nodes import os_disk_problems, surge_problems
from gpu_platform.plan.problems import under
from gpu_platform.settings import (
    AckClusterSettings,
    AksClusterSettings,
    AksGpuPoolSettings,
    AksNodeSettings,
)

from .base import ConfigUnderCheck, Problem, Rule

AKS_NODE_KEYS = {
    "max_pods": "maxPods",
    "os_disk_type": "osDiskType",
    "os_disk_size_gb": "osDiskSizeGb",
}
"""The AKS node-hardening fields of a pool and their keys in the stack config."""


def cluster(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """The AKS cluster's own settings and its system pool (``plan.aks.cluster``, which the
    AksCluster component asks too)."""
    aks = cfg.settings.cluster
    if isinstance(aks, AksClusterSettings):
        yield from under("cluster", aks_cluster_problems(aks))


def _pools_with_nodes(
    cfg: ConfigUnderCheck,
) -> Iterator[tuple[str, str | None, AksNodeSettings]]:
    """(key path, VM size, node settings) of every pool the stack would create nodes for."""
    cluster_settings = cfg.settings.cluster
    if isinstance(cluster_settings, AksClusterSettings):
        system = cluster_settings.system_pool
        yield "cluster.systemPool", system.vm_size, system
    elif isinstance(cluster_settings, AckClusterSettings):
        yield "cluster.systemPool", None, cluster_settings.system_pool
    for i, pool in cfg.pools:
        if isinstance(pool, AksGpuPoolSettings):  # other clouds' GPU pools have no such keys
            yield f"gpuPools[{i}]", pool.vm_size, pool
    for i, cpu in enumerate(cfg.settings.cpu_pools):
        yield f"cpuPools[{i}]", cpu.vm_size, cpu


def node_hardening(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """AKS: an ephemeral OS disk fits the size's cache or temp disk, CPU pools surge (the
    system pool's own rules are the cluster's). Elsewhere the AKS node settings mean nothing:
    refused."""
    if cfg.cloud != "aks":
        for at, _, node in _pools_with_nodes(cfg):
            for field in sorted(node.model_fields_set & AKS_NODE_KEYS.keys()):
                yield (
                    f"{at}.{AKS_NODE_KEYS[field]}",
                    f"AKS only (cloud 'aks'); on cloud '{cfg.cloud}' remove it",
                )
        return
    for at, vm_size, node in _pools_with_nodes(cfg):
        if at == "cluster.systemPool":
            continue  # judged with the cluster (plan.aks.cluster)
        nvme = isinstance(node, AksGpuPoolSettings) and node.nvme
        yield from under(at, os_disk_problems(vm_size, node, nvme_cache=nvme))
    for i, cpu in enumerate(cfg.settings.cpu_pools):
        yield from under(f"cpuPools[{i}]", surge_problems(cpu.upgrade))


POOL_RULES: tuple[Rule, ...] = ()
"""A GPU pool's surge is AKS's own pool rule (``plan.aks.pools``), asked with the others."""
RULES: tuple[Rule, ...] = (cluster, node_hardening)
