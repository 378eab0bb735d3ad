"""Rules of CPU pools: created on AKS and ACK only, a machine type without GPUs, a size, labels
that pull no GPU component onto the pool (their zones and label syntax: ``cloud_values``); and
the system pool's machine type."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.cpu_pools import cpu_pools_problems, ecs_type_problem
from gpu_platform.settings import AckClusterSettings

from .base import ConfigUnderRules, Problem, Rule, placed


def cpu_pools(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """Every CPU pool on its own: name, machine type, size and reserved labels, as the
    components ask them."""
    yield from placed("cpuPools", cpu_pools_problems(cfg.cloud, cfg.settings.cpu_pools))


def system_pool(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """ACK's system pool runs the add-ons: a machine type without GPUs (AKS's is judged with
    its cluster, ``plan.aks.cluster``)."""
    cluster = cfg.settings.cluster
    if isinstance(cluster, AckClusterSettings):
        problem = ecs_type_problem(cluster.system_pool.instance_type)
        if problem is not None:
            yield "cluster.systemPool.instanceType", problem


RULES: tuple[Rule, ...] = (cpu_pools, system_pool)
