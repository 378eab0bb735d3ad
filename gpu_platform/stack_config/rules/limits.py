"""Rules of the cloud's limits: region names, node pool and cluster sizes (the hard limits;
default quotas a stack may have raised are warnings, ``plan.cloud_limits``)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from gpu_facts.cloud_limits import (
    ACK_BASIC_MAX_NODES_PER_CLUSTER,
    AKS_MAX_NODES_PER_CLUSTER,
    AKS_MAX_NODES_PER_POOL,
    Limit,
)
from gpu_facts.regions import (
    ALIBABA_REGIONS,
    ALIBABA_REGIONS_SOURCE,
    AZURE_REGIONS,
    AZURE_REGIONS_SOURCE,
    azure_region_key,
)
from gpu_platform.plan.cloud_limits import cluster_max_nodes, pool_size_problems
from gpu_platform.plan.clouds import cloud_plan
from gpu_platform.plan.problems import under
from gpu_platform.plan.zones import alibaba_zone_problem
from gpu_platform.settings import (
    AckClusterSettings,
    AksClusterSettings,
    CpuPoolSettings,
    GpuPoolSettings,
)

from .base import ConfigUnderCheck, Problem, Rule
from .pools import per_pool

ACK_BASIC_SPEC = "ack.standard"


def _pool_sizes(
    cloud: str, pool: GpuPoolSettings | CpuPoolSettings
) -> list[tuple[str, int, Limit]]:
    """(key, nodes, limit) of each size of the pool past the cloud's limit per pool (its rule:
    ``plan.clouds``)."""
    return cloud_plan(cloud).pool_size_limits(pool)


def _pool_limit(
    cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings | CpuPoolSettings
) -> Iterator[Problem]:
    yield from under(at, pool_size_problems(cfg.cloud, pool))


def cpu_pool_limits(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    for i, pool in enumerate(cfg.settings.cpu_pools):
        yield from _pool_limit(cfg, f"cpuPools[{i}]", pool)


def cluster_size(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """The system pool and every GPU and CPU pool at their largest fit the cluster's hard
    limit."""
    cluster = cfg.settings.cluster
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
        return  # ACK Pro's node limit is a default quota: a warning (plan.cloud_limits)
    pools = [*cfg.settings.gpu_pools, *cfg.settings.cpu_pools]
    if system_over or any(_pool_sizes(cfg.cloud, pool) for pool in pools):
        return  # a pool past its own limit is reported on that pool; fix it first
    total = cluster_max_nodes(cfg.settings)
    if total is not None and total > limit.value:
        kinds = "GPU and CPU pools" if cfg.settings.cpu_pools else "GPU pools"
        yield (
            "cpuPools" if not cfg.settings.gpu_pools else "gpuPools",
            f"the cluster can grow to {total} nodes (system pool {cluster.system_pool.count} "
            f"+ {kinds} at their largest {total - cluster.system_pool.count}); {what} "
            f"allows at most {limit.value} per cluster ({limit.source})",
        )


def _unknown_region(
    key: str, name: str, known: frozenset[str], cloud: str, source: str, *, match: str = ""
) -> Problem:
    """``name`` as the user wrote it; ``match`` the form compared with the known names."""
    close = difflib.get_close_matches(match or name, sorted(known), n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}?" if close else f"region names: {source}"
    return (
        key,
        f"unknown {cloud} region {name!r}; {hint} (a region newer than the catalog: add it to "
        "policies/gpu_facts/regions.py)",
    )


def region(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """The cluster's region is one the cloud has, and ACK vSwitch zones are in it."""
    cluster = cfg.settings.cluster
    if isinstance(cluster, AksClusterSettings):
        key = azure_region_key(cluster.location)
        if key not in AZURE_REGIONS:
            yield _unknown_region(
                "cluster.location",
                cluster.location,
                AZURE_REGIONS,
                "Azure",
                AZURE_REGIONS_SOURCE,
                match=key,
            )
    elif isinstance(cluster, AckClusterSettings):
        if cluster.region not in ALIBABA_REGIONS:
            yield _unknown_region(
                "cluster.region",
                cluster.region,
                ALIBABA_REGIONS,
                "Alibaba Cloud",
                ALIBABA_REGIONS_SOURCE,
            )
            return  # the zones are judged against a region that exists
        vpc = cluster.vpc
        for field, switches in (("vswitches", vpc.vswitches), ("podVswitches", vpc.pod_vswitches)):
            for i, switch in enumerate(switches):
                problem = alibaba_zone_problem(switch.zone, cluster.region)
                if problem is not None:
                    yield f"cluster.vpc.{field}[{i}].zone", problem


# Not a POOL_RULE: a pool past the size limit is still sound for the rules that read its
# capacity (a workload quota on it is not also wrong).
RULES: tuple[Rule, ...] = (region, per_pool(_pool_limit), cpu_pool_limits, cluster_size)
