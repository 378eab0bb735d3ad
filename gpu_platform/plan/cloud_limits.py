"""What a config asks of the cloud's size limits, and what it is warned about: a default
quota it would pass (the cloud refuses until the quota is raised) and a GPU machine type a
source says the chosen region does not offer. The hard limits are refused earlier
(``cluster_size_problems``, ``pool_size_problems``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from gpu_facts import azure_vm_size
from gpu_facts.ack.addons import ACK_PRO_PREFIX
from gpu_facts.cloud_limits import (
    ACK_BASIC_MAX_NODES_PER_CLUSTER,
    ACK_PRO_DEFAULT_NODES_PER_CLUSTER,
    AKS_DEFAULT_NODES_PER_CLUSTER,
    AKS_FREE_TIER_RECOMMENDED_NODES,
    AKS_MAX_NODES_PER_CLUSTER,
    AKS_MAX_NODES_PER_POOL,
)
from gpu_facts.regions import (
    AZURE_VM_SIZE_REGIONS,
    ECS_INSTANCE_TYPE_REGIONS,
    RegionalOffer,
    azure_region_key,
    not_offered_in,
)
from gpu_platform.plan.clouds import cloud_plan
from gpu_platform.plan.problems import Problem
from gpu_platform.settings import (
    AckClusterSettings,
    AckGpuPoolSettings,
    AksClusterSettings,
    AksGpuPoolSettings,
    CpuPoolSettings,
    GpuPoolSettings,
    PlatformSettings,
)


def pool_size_problems(cloud: str, pool: GpuPoolSettings | CpuPoolSettings) -> list[Problem]:
    """A pool (GPU or CPU) past its cloud's hard limit of nodes per pool (the cloud's rule:
    ``plan.clouds``), with the key relative to the pool: the stack config puts it under
    ``gpuPools[i]``, the pool components under ``pool``."""
    plan = cloud_plan(cloud)
    return [
        (
            key,
            f"{nodes} nodes; {plan.title} allows at most {limit.value} in one node pool "
            f"({limit.source}): split it into several pools",
        )
        for key, nodes, limit in plan.pool_size_limits(pool)
    ]


ACK_BASIC_SPEC = "ack.standard"


def cluster_size_problems(settings: PlatformSettings) -> Iterator[Problem]:
    """The system pool and every GPU and CPU pool at their largest fit the cluster's hard
    limit (paths from the config's root). ACK Pro's node limit is a default quota: a warning
    (``cloud_limit_warnings``)."""
    cluster = settings.cluster
    system_over = False
    if isinstance(cluster, AksClusterSettings):
        limit, what = AKS_MAX_NODES_PER_CLUSTER, "AKS"
        system = cluster.system_pool.count
        system_over = system > AKS_MAX_NODES_PER_POOL.value
        if system_over:
            yield (
                "cluster.systemPool.count",
                f"{system} nodes; AKS allows at most {AKS_MAX_NODES_PER_POOL.value} in one node "
                f"pool ({AKS_MAX_NODES_PER_POOL.source})",
            )
    elif isinstance(cluster, AckClusterSettings) and cluster.cluster_spec == ACK_BASIC_SPEC:
        limit, what = ACK_BASIC_MAX_NODES_PER_CLUSTER, f"ACK Basic ({ACK_BASIC_SPEC})"
    else:
        return
    pools = [*settings.gpu_pools, *settings.cpu_pools]
    plan = cloud_plan(settings.cloud)
    if system_over or any(plan.pool_size_limits(pool) for pool in pools):
        return  # a pool past its own limit is reported on that pool; fix it first
    total = cluster_max_nodes(settings)
    if total is not None and total > limit.value:
        kinds = "GPU and CPU pools" if settings.cpu_pools else "GPU pools"
        yield (
            "cpuPools" if not settings.gpu_pools else "gpuPools",
            f"the cluster can grow to {total} nodes (system pool {cluster.system_pool.count} "
            f"+ {kinds} at their largest {total - cluster.system_pool.count}); {what} "
            f"allows at most {limit.value} per cluster ({limit.source})",
        )


def pool_max_nodes(pool: GpuPoolSettings | CpuPoolSettings) -> int:
    """The most nodes a pool can have: its count, or its autoscale maximum."""
    if pool.autoscale is not None:
        return pool.autoscale.max
    return pool.count or 0


def cluster_max_nodes(settings: PlatformSettings) -> int | None:
    """The most nodes a created cluster can have (system pool + every GPU and CPU pool at its
    largest), or None for an existing cluster (its nodes are not ours)."""
    cluster = settings.cluster
    if not isinstance(cluster, AksClusterSettings | AckClusterSettings):
        return None
    pools = [*settings.gpu_pools, *settings.cpu_pools]
    return cluster.system_pool.count + sum(pool_max_nodes(p) for p in pools)


def cloud_limit_warnings(
    settings: PlatformSettings,
    azure_offers: Mapping[str, RegionalOffer] = AZURE_VM_SIZE_REGIONS,
    ecs_offers: Mapping[str, RegionalOffer] = ECS_INSTANCE_TYPE_REGIONS,
) -> list[str]:
    """Warnings of a valid config about quotas and regional offers (the offer tables are
    parameters so tests can state an offer the catalog has no source for)."""
    cluster = settings.cluster
    total = cluster_max_nodes(settings)
    warnings: list[str] = []
    if isinstance(cluster, AksClusterSettings) and total is not None:
        quota = AKS_DEFAULT_NODES_PER_CLUSTER
        if quota.value < total <= AKS_MAX_NODES_PER_CLUSTER.value:
            warnings.append(
                f"gpuPools: the cluster can grow to {total} nodes, past AKS's default limit of "
                f"{quota.value} per cluster; ask Azure support to raise it first "
                f"({quota.source})"
            )
        recommended = AKS_FREE_TIER_RECOMMENDED_NODES
        if cluster.sku_tier == "Free" and total > recommended.value:
            warnings.append(
                f"cluster.skuTier: Free is recommended for at most {recommended.value} nodes and "
                f"the cluster can grow to {total}; use Standard ({recommended.source})"
            )
        region = azure_region_key(cluster.location)
        for i, pool in enumerate(settings.gpu_pools):
            if not isinstance(pool, AksGpuPoolSettings):
                continue
            size = azure_vm_size(pool.vm_size).name
            offer = not_offered_in(azure_offers, size, region)
            if offer is not None:
                warnings.append(
                    _not_offered(f"gpuPools[{i}].vmSize", size, cluster.location, offer)
                )
    if isinstance(cluster, AckClusterSettings) and total is not None:
        quota = ACK_PRO_DEFAULT_NODES_PER_CLUSTER
        if cluster.cluster_spec.startswith(ACK_PRO_PREFIX) and total > quota.value:
            warnings.append(
                f"gpuPools: the cluster can grow to {total} nodes, past ACK Pro's default quota "
                f"of {quota.value} worker nodes; raise it in Quota Center first ({quota.source})"
            )
        for i, pool in enumerate(settings.gpu_pools):
            if not isinstance(pool, AckGpuPoolSettings):
                continue
            offer = not_offered_in(ecs_offers, pool.instance_type, cluster.region)
            if offer is not None:
                at = f"gpuPools[{i}].instanceType"
                warnings.append(_not_offered(at, pool.instance_type, cluster.region, offer))
    return warnings


def _not_offered(at: str, machine: str, region: str, offer: RegionalOffer) -> str:
    where = ", ".join(sorted(offer.regions)) or "no region"
    return (
        f"{at}: {machine} is not offered in {region} ({offer.source} lists {where}); "
        "its nodes would never be created there"
    )
