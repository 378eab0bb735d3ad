"""Rules of the cloud's limits: region names, node pool and cluster sizes (the hard limits;
default quotas a stack may have raised are warnings): ``plan.cloud_limits``, ``plan.zones``."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.cloud_limits import cluster_size_problems, pool_size_problems
from gpu_platform.plan.problems import under
from gpu_platform.plan.zones import region_problems
from gpu_platform.settings import CpuPoolSettings, GpuPoolSettings

from .base import ConfigUnderRules, Problem, Rule, placed
from .pools import per_pool


def _pool_limit(
    cfg: ConfigUnderRules, at: str, pool: GpuPoolSettings | CpuPoolSettings
) -> Iterator[Problem]:
    yield from under(at, pool_size_problems(cfg.cloud, pool))


def cpu_pool_limits(cfg: ConfigUnderRules) -> Iterator[Problem]:
    for i, pool in enumerate(cfg.settings.cpu_pools):
        yield from _pool_limit(cfg, f"cpuPools[{i}]", pool)


def cluster_size(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """The system pool and every pool at their largest fit the cluster's hard limit."""
    yield from cluster_size_problems(cfg.settings)


def region(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """The cluster's region is one the cloud has, and ACK vSwitch zones are in it."""
    yield from placed("cluster", region_problems(cfg.settings.cluster))


# Not a POOL_RULE: a pool past the size limit is still sound for the rules that read its
# capacity (a workload quota on it is not also wrong).
RULES: tuple[Rule, ...] = (region, per_pool(_pool_limit), cpu_pool_limits, cluster_size)
