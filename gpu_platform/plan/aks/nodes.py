"""The node hardening of an AKS pool a valid config means: pods per node, the OS disk (type from
the VM size's local disks) and encryption at host, the same for system, GPU and CPU pools."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from gpu_facts import AzureVmSize, azure_node_size
from gpu_facts.aks.nodes import AKS_SYSTEM_POOL_MIN_PODS, EPHEMERAL_OS_DISK_MAX_GIB
from gpu_facts.aks.storage import NVME_DISKS_BESIDE_EPHEMERAL_OS
from gpu_platform.settings import (
    AckClusterSettings,
    AksClusterSettings,
    AksGpuPoolSettings,
    AksNodeSettings,
    GpuPoolSettings,
    PlatformSettings,
    SystemPoolSettings,
    UpgradeSettings,
)
from gpu_platform.settings.pools import OsDiskType

from ..clouds import pool_key_elsewhere
from ..cpu_pools import azure_size_problem
from ..problems import Problem, under

SURGE_COUNT_OR_PERCENTAGE = "a node count (e.g. 1) or a percentage (e.g. 10%)"
SYSTEM_POOL_TOO_FEW_PODS = (
    f"AKS system pools must run at least {AKS_SYSTEM_POOL_MIN_PODS} pods per node"
)


@dataclass(frozen=True, slots=True)
class AksNode:
    """What every node of one AKS pool is given, each value explicit."""

    max_pods: int
    os_disk_type: OsDiskType
    os_disk_size_gb: int
    encryption_at_host: bool


def ephemeral_os_capacity_gib(vm_size: str) -> int | None:
    """The largest ephemeral OS disk ``vm_size`` holds (its cache or temp disk, at most
    2,040 GiB), or None when the catalog does not know the size."""
    size = azure_node_size(vm_size)
    if size is None:
        return None
    return min(size.ephemeral_os_disk_gib, EPHEMERAL_OS_DISK_MAX_GIB)


def _nvme_wanted_for_cache(vm_size: str, nvme_cache: bool) -> bool:
    """A pool's NVMe cache on a size whose only NVMe disk an ephemeral OS disk could take."""
    size = azure_node_size(vm_size)
    nvme_disks = size.nvme_disk_count if isinstance(size, AzureVmSize) else 0
    return nvme_cache and nvme_disks < NVME_DISKS_BESIDE_EPHEMERAL_OS


def os_disk_type(vm_size: str, node: AksNodeSettings, *, nvme_cache: bool = False) -> OsDiskType:
    """The configured OS disk type, else ``Ephemeral`` where the size's local disk holds the
    OS disk and ``Managed`` where it does not (or the size is not catalogued, or the pool's
    NVMe cache needs the size's only NVMe disk)."""
    if node.os_disk_type is not None:
        return node.os_disk_type
    capacity = ephemeral_os_capacity_gib(vm_size)
    fits = capacity is not None and node.os_disk_size_gb <= capacity
    return "Ephemeral" if fits and not _nvme_wanted_for_cache(vm_size, nvme_cache) else "Managed"


def ephemeral_os_problem(
    vm_size: str, node: AksNodeSettings, *, nvme_cache: bool = False
) -> str | None:
    """Why the pool's explicit ``Ephemeral`` OS disk cannot be, or None (it fits, it is not
    asked for, or the size is unknown: ``ephemeral_os_unchecked`` says so)."""
    capacity = ephemeral_os_capacity_gib(vm_size)
    if node.os_disk_type != "Ephemeral" or capacity is None:
        return None
    if _nvme_wanted_for_cache(vm_size, nvme_cache):
        return (
            f"{vm_size} has one NVMe disk and the pool's NVMe cache (nvme) needs it: an "
            "ephemeral OS disk may take it; use Managed"
        )
    if capacity == 0:
        return f"{vm_size} has no cache or temp disk to hold an ephemeral OS disk; use Managed"
    if node.os_disk_size_gb > capacity:
        holder = (
            f"an ephemeral OS disk is at most {capacity} GiB on any size"
            if capacity == EPHEMERAL_OS_DISK_MAX_GIB
            else f"{vm_size}'s cache or temp disk holds at most {capacity} GiB"
        )
        return (
            f"{holder}, not the {node.os_disk_size_gb} GiB OS disk (osDiskSizeGb); use "
            f"Managed, or an OS disk of at most {capacity} GiB"
        )
    return None


def os_disk_problems(
    vm_size: str | None, node: AksNodeSettings, *, nvme_cache: bool = False
) -> Iterator[Problem]:
    """What AKS refuses in a pool's OS disk (``ephemeral_os_problem``), relative to the pool."""
    problem = (
        None if vm_size is None else ephemeral_os_problem(vm_size, node, nvme_cache=nvme_cache)
    )
    if problem is not None:
        yield "osDiskType", problem


def surge_problems(upgrade: UpgradeSettings) -> Iterator[Problem]:
    """AKS takes a node count or a percentage as a pool's upgrade surge, never zero."""
    surge = upgrade.max_surge.removesuffix("%")
    if not (surge.isdigit() and int(surge) > 0):
        yield "upgrade.maxSurge", SURGE_COUNT_OR_PERCENTAGE


def system_pool_problems(system: SystemPoolSettings) -> Iterator[Problem]:
    """What AKS refuses in the system pool, relative to it: a size with GPUs (or no size), too
    few pods per node, an OS disk its size cannot hold."""
    if (problem := azure_size_problem(system.vm_size)) is not None:
        yield "vmSize", problem
    if system.max_pods < AKS_SYSTEM_POOL_MIN_PODS:
        yield "maxPods", SYSTEM_POOL_TOO_FEW_PODS
    yield from os_disk_problems(system.vm_size, system)


def ephemeral_os_unchecked(vm_size: str, node: AksNodeSettings) -> bool:
    """An explicit ``Ephemeral`` OS disk on a size whose local disks the catalog does not know."""
    return node.os_disk_type == "Ephemeral" and ephemeral_os_capacity_gib(vm_size) is None


def aks_node(
    vm_size: str, node: AksNodeSettings, *, encryption_at_host: bool, nvme_cache: bool = False
) -> AksNode:
    """The hardening of a pool of ``vm_size`` nodes with ``node``'s settings."""
    return AksNode(
        max_pods=node.max_pods,
        os_disk_type=os_disk_type(vm_size, node, nvme_cache=nvme_cache),
        os_disk_size_gb=node.os_disk_size_gb,
        encryption_at_host=encryption_at_host,
    )


def ephemeral_os_warnings(settings: PlatformSettings) -> list[str]:
    """An explicit ephemeral OS disk on a size the catalog has no local-disk facts for: AKS
    decides at creation (and refuses the pool if the disk does not fit)."""
    cluster = settings.cluster
    if not isinstance(cluster, AksClusterSettings):
        return []
    pools: list[tuple[str, str | None, AksNodeSettings]] = [
        ("cluster.systemPool", cluster.system_pool.vm_size, cluster.system_pool),
        *((f"cpuPools[{i}]", p.vm_size, p) for i, p in enumerate(settings.cpu_pools)),
    ]
    return [
        f"{at}.osDiskType: Ephemeral on {vm_size}, whose cache and temp disks the catalog does "
        f"not know; AKS refuses the pool if they cannot hold {node.os_disk_size_gb} GiB (add "
        "the size to policies/gpu_facts/aks/machine_types.py to have it checked)"
        for at, vm_size, node in pools
        if vm_size is not None and ephemeral_os_unchecked(vm_size, node)
    ]


AKS_NODE_KEYS = {
    "max_pods": "maxPods",
    "os_disk_type": "osDiskType",
    "os_disk_size_gb": "osDiskSizeGb",
}
"""The AKS node-hardening fields of a pool and their keys in the stack config."""


def _pools_with_nodes(
    settings: PlatformSettings, pools: Sequence[tuple[int, GpuPoolSettings]]
) -> Iterator[tuple[str, str | None, AksNodeSettings]]:
    """(key path, VM size, node settings) of every pool the stack would create nodes for."""
    cluster_settings = settings.cluster
    if isinstance(cluster_settings, AksClusterSettings):
        system = cluster_settings.system_pool
        yield "cluster.systemPool", system.vm_size, system
    elif isinstance(cluster_settings, AckClusterSettings):
        yield "cluster.systemPool", None, cluster_settings.system_pool
    for i, pool in pools:
        if isinstance(pool, AksGpuPoolSettings):  # other clouds' GPU pools have no such keys
            yield f"gpuPools[{i}]", pool.vm_size, pool
    for i, cpu in enumerate(settings.cpu_pools):
        yield f"cpuPools[{i}]", cpu.vm_size, cpu


def node_hardening_problems(
    settings: PlatformSettings, pools: Sequence[tuple[int, GpuPoolSettings]]
) -> Iterator[Problem]:
    """AKS: an ephemeral OS disk fits the size's cache or temp disk, CPU pools surge (the system
    pool's own rules are the cluster's). Elsewhere the AKS node settings mean nothing: refused.
    Paths from the config's root; ``pools``: the GPU pools with their places in the config."""
    if settings.cloud != "aks":
        for at, _, node in _pools_with_nodes(settings, pools):
            for field in sorted(node.model_fields_set & AKS_NODE_KEYS.keys()):
                key = AKS_NODE_KEYS[field]
                why = pool_key_elsewhere(settings.cloud, key)  # AKS's keys: never None
                if why is not None:
                    yield f"{at}.{key}", why
        return
    for at, vm_size, node in _pools_with_nodes(settings, pools):
        if at == "cluster.systemPool":
            continue  # judged with the cluster (plan.aks.cluster)
        nvme = isinstance(node, AksGpuPoolSettings) and node.nvme
        yield from under(at, os_disk_problems(vm_size, node, nvme_cache=nvme))
    for i, cpu in enumerate(settings.cpu_pools):
        yield from under(f"cpuPools[{i}]", surge_problems(cpu.upgrade))
