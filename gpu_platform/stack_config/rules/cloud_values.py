"""Rules of the values the cloud or Kubernetes validates itself, judged here by the same rules
first (``plan.names``, ``plan.kubernetes_values``, ``plan.cloud_tags``, ``plan.zones``,
``plan.schedules``): cluster and resource group names, tags, IDs, node pool labels and zones,
the driver-check schedule. None of them changes what a pool can offer, so a pool they fault
stays sound for the rules that look across pools."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_facts.kubernetes_syntax import RESERVED_LABEL_DOMAINS
from gpu_platform.plan.ack.cluster import ack_cluster_value_problems
from gpu_platform.plan.aks.cluster import aks_cluster_value_problems
from gpu_platform.plan.clouds import cloud_plan
from gpu_platform.plan.kubernetes_values import kubernetes_label_problems
from gpu_platform.plan.problems import under
from gpu_platform.plan.schedules import schedule_problem
from gpu_platform.plan.zones import ack_pool_zone_problems, aks_zone_problems
from gpu_platform.settings import (
    AckClusterSettings,
    AksClusterSettings,
    CpuPoolSettings,
    GpuPoolSettings,
    ManagedGpuPoolSettings,
)

from .base import ConfigUnderCheck, Problem, Rule


def cluster_values(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """The cluster's name, resource group, audit log project, tags and IDs, by the cloud's
    rules (``plan.aks.cluster``, ``plan.ack.cluster``: the cluster components ask the same)."""
    cluster = cfg.settings.cluster
    if isinstance(cluster, AksClusterSettings):
        yield from under("cluster", aks_cluster_value_problems(cluster))
    elif isinstance(cluster, AckClusterSettings):
        yield from under("cluster", ack_cluster_value_problems(cluster))


def _pools(cfg: ConfigUnderCheck) -> Iterator[tuple[str, GpuPoolSettings | CpuPoolSettings]]:
    """(key path, settings) of every GPU and CPU pool."""
    for i, pool in cfg.pools:
        yield f"gpuPools[{i}]", pool
    for i, cpu in enumerate(cfg.settings.cpu_pools):
        yield f"cpuPools[{i}]", cpu


def pool_labels(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """Node labels by Kubernetes' syntax; on the pools we create, not in Kubernetes' own
    domains (the kubelet refuses them). An existing cluster's nodes are labelled by hand, with
    whatever labels its operators use."""
    reserved = RESERVED_LABEL_DOMAINS if cloud_plan(cfg.cloud).creates_nodes else ()
    for at, pool in _pools(cfg):
        yield from under(f"{at}.labels", kubernetes_label_problems(pool.labels, reserved))


def pool_zones(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """AKS: zones 1 to 3, in a region that has zones. ACK: zones pick among the node vSwitches
    the stack creates. An existing cluster's nodes are where they are."""
    cluster = cfg.settings.cluster
    for at, pool in _pools(cfg):
        if not getattr(pool, "zones", None):  # an existing cluster's pools have none
            continue
        assert isinstance(pool, ManagedGpuPoolSettings | CpuPoolSettings)
        if isinstance(cluster, AksClusterSettings):
            yield from under(f"{at}.zones", aks_zone_problems(pool.zones, cluster.location))
        elif isinstance(cluster, AckClusterSettings):
            switch_zones = [switch.zone for switch in cluster.vpc.vswitches]
            yield from under(f"{at}.zones", ack_pool_zone_problems(pool.zones, switch_zones))


def driver_check_schedule(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    schedule = cfg.settings.driver_check.schedule
    if schedule is not None and (problem := schedule_problem(schedule)) is not None:
        yield "driverCheck.schedule", problem


RULES: tuple[Rule, ...] = (cluster_values, pool_labels, pool_zones, driver_check_schedule)
