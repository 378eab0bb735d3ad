"""Rules of AKS clusters and their pools: Entra ID, the API server, upgrade surge, and the node
hardening every pool the platform creates shares (pods per node, OS disk)."""

from __future__ import annotations

from collections.abc import Iterator
from ipaddress import ip_network

from gpu_facts.aks_nodes import AKS_SYSTEM_POOL_MIN_PODS
from gpu_platform.plan.aks_nodes import ephemeral_os_problem
from gpu_platform.settings import (
    AckClusterSettings,
    AksClusterSettings,
    AksNodeSettings,
    GpuPoolSettings,
    UpgradeSettings,
)

from .base import ConfigUnderCheck, Problem, Rule
from .pools import per_pool

AKS_NODE_KEYS = {
    "max_pods": "maxPods",
    "os_disk_type": "osDiskType",
    "os_disk_size_gb": "osDiskSizeGb",
}
"""The AKS node-hardening fields of a pool and their keys in the stack config."""


def cluster(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    aks = cfg.settings.cluster
    if not isinstance(aks, AksClusterSettings):
        return
    if aks.disable_local_accounts and not aks.entra_id.enabled:
        yield "cluster.disableLocalAccounts", "needs entraId.enabled, or nobody can log in"
    if "kubelogin_mode" in aks.model_fields_set and not aks.entra_id.enabled:
        yield "cluster.kubeloginMode", "used only with entraId.enabled; set that, or remove it"
    if aks.api_server.private and aks.api_server.authorized_ip_ranges:
        yield "cluster.apiServer.authorizedIpRanges", "not allowed on a private API server"
    for j, cidr in enumerate(aks.api_server.authorized_ip_ranges):
        try:
            ip_network(cidr, strict=False)  # AKS accepts host bits and single addresses
        except ValueError:
            yield f"cluster.apiServer.authorizedIpRanges[{j}]", f"not a CIDR: {cidr!r}"


def surge_problem(upgrade: UpgradeSettings) -> str | None:
    """AKS takes a node count or a percentage, never zero."""
    surge = upgrade.max_surge.removesuffix("%")
    if surge.isdigit() and int(surge) > 0:
        return None
    return "a node count (e.g. 1) or a percentage (e.g. 10%)"


def _pool_surge(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    if cfg.cloud == "azure" and (problem := surge_problem(pool.upgrade)) is not None:
        yield f"{at}.upgrade.maxSurge", problem


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
        yield f"gpuPools[{i}]", pool.vm_size, pool
    for i, cpu in enumerate(cfg.settings.cpu_pools):
        yield f"cpuPools[{i}]", cpu.vm_size, cpu


def node_hardening(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """AKS: an ephemeral OS disk fits the size's cache or temp disk, system pools run at least
    30 pods a node, CPU pools surge. Elsewhere the AKS node settings mean nothing: refused."""
    if cfg.cloud != "azure":
        for at, _, node in _pools_with_nodes(cfg):
            for field in sorted(node.model_fields_set & AKS_NODE_KEYS.keys()):
                yield (
                    f"{at}.{AKS_NODE_KEYS[field]}",
                    f"AKS only (cloud 'azure'); on cloud '{cfg.cloud}' remove it",
                )
        return
    for at, vm_size, node in _pools_with_nodes(cfg):
        nvme = isinstance(node, GpuPoolSettings) and node.nvme
        problem = None if vm_size is None else ephemeral_os_problem(vm_size, node, nvme_cache=nvme)
        if problem is not None:
            yield f"{at}.osDiskType", problem
    aks = cfg.settings.cluster
    if isinstance(aks, AksClusterSettings) and aks.system_pool.max_pods < AKS_SYSTEM_POOL_MIN_PODS:
        yield (
            "cluster.systemPool.maxPods",
            f"AKS system pools must run at least {AKS_SYSTEM_POOL_MIN_PODS} pods per node",
        )
    for i, cpu in enumerate(cfg.settings.cpu_pools):
        if (problem := surge_problem(cpu.upgrade)) is not None:
            yield f"cpuPools[{i}].upgrade.maxSurge", problem


POOL_RULES: tuple[Rule, ...] = (per_pool(_pool_surge),)
RULES: tuple[Rule, ...] = (cluster, node_hardening)
