"""Rules of the values the cloud or Kubernetes validates itself, judged here by the same rules
first (``plan.names``, ``plan.kubernetes_values``, ``plan.cloud_tags``, ``plan.zones``,
``plan.schedules``): cluster and resource group names, tags, IDs, node pool labels and zones,
the driver-check schedule. None of them changes what a pool can offer, so a pool they fault
stays sound for the rules that look across pools."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.ack.cluster import ack_cluster_value_problems
from gpu_platform.plan.aks.cluster import aks_cluster_value_problems
from gpu_platform.plan.node_pools import label_syntax_problems
from gpu_platform.plan.problems import under
from gpu_platform.plan.schedules import schedule_problem
from gpu_platform.plan.zones import pool_zone_problems
from gpu_platform.settings import (
    AckClusterSettings,
    AksClusterSettings,
    CpuPoolSettings,
    GpuPoolSettings,
)

from .base import ConfigUnderRules, Problem, Rule


def cluster_values(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """The cluster's name, resource group, audit log project, tags and IDs, by the cloud's
    rules (``plan.aks.cluster``, ``plan.ack.cluster``: the cluster components ask the same)."""
    cluster = cfg.settings.cluster
    if isinstance(cluster, AksClusterSettings):
        yield from under("cluster", aks_cluster_value_problems(cluster))
    elif isinstance(cluster, AckClusterSettings):
        yield from under("cluster", ack_cluster_value_problems(cluster))


def _pools(cfg: ConfigUnderRules) -> Iterator[tuple[str, GpuPoolSettings | CpuPoolSettings]]:
    """(key path, settings) of every GPU and CPU pool."""
    for i, pool in cfg.pools:
        yield f"gpuPools[{i}]", pool
    for i, cpu in enumerate(cfg.settings.cpu_pools):
        yield f"cpuPools[{i}]", cpu


def pool_labels(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """Node labels by Kubernetes' syntax (``plan.node_pools.label_syntax_problems``)."""
    for at, pool in _pools(cfg):
        yield from under(at, label_syntax_problems(cfg.cloud, pool.labels))


def pool_zones(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """Zones the cloud takes for each pool (``plan.zones.pool_zone_problems``)."""
    for at, pool in _pools(cfg):
        yield from under(at, pool_zone_problems(cfg.settings.cluster, pool))


def driver_check_schedule(cfg: ConfigUnderRules) -> Iterator[Problem]:
    schedule = cfg.settings.driver_check.schedule
    if schedule is not None and (problem := schedule_problem(schedule)) is not None:
        yield "driverCheck.schedule", problem


RULES: tuple[Rule, ...] = (cluster_values, pool_labels, pool_zones, driver_check_schedule)
