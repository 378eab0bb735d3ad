"""Rules of CPU pools: created on AKS and ACK only, a machine type without GPUs, a size, labels
that pull no GPU component onto the pool, zones the cloud can place it in; and the system pool's
machine type."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.cpu_pools import cpu_pool_problems, ecs_type_problem
from gpu_platform.plan.problems import under
from gpu_platform.settings import AckClusterSettings, CpuPoolSettings

from .base import ConfigUnderCheck, Problem, Rule


def _ack_zones(cfg: ConfigUnderCheck, at: str, pool: CpuPoolSettings) -> Iterator[Problem]:
    cluster = cfg.settings.cluster
    if isinstance(cluster, AckClusterSettings) and pool.zones:
        # On ACK vSwitches place a pool: the zones pick among the node vSwitches created here.
        created = {switch.zone for switch in cluster.vpc.vswitches}
        if not created:
            yield (
                f"{at}.zones",
                "zones pick among the node vSwitches the stack creates (cluster.vpc.vswitches); "
                "with existing vswitchIds, leave zones out (the pool uses every vSwitch)",
            )
            return
        for j, zone in enumerate(pool.zones):
            if zone in pool.zones[:j]:
                yield f"{at}.zones[{j}]", f"zone {zone!r} is listed twice"
            elif zone not in created:
                yield (
                    f"{at}.zones[{j}]",
                    f"no node vSwitch in zone {zone!r}; zones of cluster.vpc.vswitches: "
                    f"{', '.join(sorted(created))}",
                )


def cpu_pools(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """Every CPU pool on its own."""
    pools = cfg.settings.cpu_pools
    if pools and cfg.cloud == "existing":
        yield (
            "cpuPools",
            "CPU pools are created on AKS and ACK; an existing cluster's nodes are its own "
            "(remove cpuPools)",
        )
        return
    for i, pool in enumerate(pools):
        at = f"cpuPools[{i}]"
        # Name, machine type, size, labels and AKS zones, as the components ask them.
        yield from under(at, cpu_pool_problems(cfg.cloud, pool))
        if cfg.cloud == "alicloud":
            yield from _ack_zones(cfg, at, pool)


def system_pool(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """ACK's system pool runs the add-ons: a machine type without GPUs (AKS's is judged with
    its cluster, ``plan.aks_cluster``)."""
    cluster = cfg.settings.cluster
    if isinstance(cluster, AckClusterSettings):
        problem = ecs_type_problem(cluster.system_pool.instance_type)
        if problem is not None:
            yield "cluster.systemPool.instanceType", problem


RULES: tuple[Rule, ...] = (cpu_pools, system_pool)
