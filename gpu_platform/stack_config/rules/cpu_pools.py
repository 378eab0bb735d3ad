"""Rules of CPU pools: created on AKS and ACK only, a machine type without GPUs, a size, labels
that pull no GPU component onto the pool (their zones and label syntax: ``cloud_values``); and
the system pool's machine type."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.clouds import cloud_plan
from gpu_platform.plan.cpu_pools import cpu_pool_problems, ecs_type_problem
from gpu_platform.plan.problems import under
from gpu_platform.settings import AckClusterSettings

from .base import ConfigUnderCheck, Problem, Rule


def cpu_pools(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """Every CPU pool on its own."""
    pools = cfg.settings.cpu_pools
    if pools and not cloud_plan(cfg.cloud).creates_nodes:
        yield (
            "cpuPools",
            "CPU pools are created on AKS and ACK; an existing cluster's nodes are its own "
            "(remove cpuPools)",
        )
        return
    for i, pool in enumerate(pools):
        at = f"cpuPools[{i}]"
        # Name, machine type, size and reserved labels, as the components ask them.
        yield from under(at, cpu_pool_problems(cfg.cloud, pool))


def system_pool(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """ACK's system pool runs the add-ons: a machine type without GPUs (AKS's is judged with
    its cluster, ``plan.aks.cluster``)."""
    cluster = cfg.settings.cluster
    if isinstance(cluster, AckClusterSettings):
        problem = ecs_type_problem(cluster.system_pool.instance_type)
        if problem is not None:
            yield "cluster.systemPool.instanceType", problem


RULES: tuple[Rule, ...] = (cpu_pools, system_pool)
