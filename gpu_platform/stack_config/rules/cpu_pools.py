"""Rules of CPU pools: created on AKS and ACK only, a machine type without GPUs, a size, labels
that pull no GPU component onto the pool, zones the cloud can place it in; and the system pool's
machine type."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.cpu_pools import (
    aks_zone_problems,
    azure_size_problem,
    ecs_type_problem,
    label_problems,
)
from gpu_platform.settings import (
    SYSTEM_POOL_NAME,
    AckClusterSettings,
    AksClusterSettings,
    CpuPoolSettings,
)

from .base import ConfigUnderCheck, Problem, Rule


def _machine(cfg: ConfigUnderCheck, at: str, pool: CpuPoolSettings) -> Iterator[Problem]:
    if cfg.cloud == "azure":
        if pool.instance_type is not None:
            yield (
                f"{at}.instanceType",
                "Alibaba instance types are for cloud 'alicloud'; use vmSize",
            )
        if pool.vm_size is None:
            yield f"{at}.vmSize", "required: an Azure VM size without GPUs, e.g. Standard_D4ds_v5"
        elif (problem := azure_size_problem(pool.vm_size)) is not None:
            yield f"{at}.vmSize", problem
    else:
        if pool.vm_size is not None:
            yield f"{at}.vmSize", "Azure VM sizes are for cloud 'azure'; use instanceType"
        if pool.instance_type is None:
            yield f"{at}.instanceType", "required: an ECS type without GPUs, e.g. ecs.g7.xlarge"
        elif (problem := ecs_type_problem(pool.instance_type)) is not None:
            yield f"{at}.instanceType", problem


def _size(at: str, pool: CpuPoolSettings) -> Iterator[Problem]:
    if (pool.count is None) == (pool.autoscale is None):
        yield at, "give exactly one of count or autoscale"
    if pool.autoscale is not None and pool.autoscale.min > pool.autoscale.max:
        yield f"{at}.autoscale.min", "must not exceed autoscale.max"


def _zones(cfg: ConfigUnderCheck, at: str, pool: CpuPoolSettings) -> Iterator[Problem]:
    cluster = cfg.settings.cluster
    if cfg.cloud == "azure":
        for j, problem in aks_zone_problems(pool.zones):
            yield f"{at}.zones[{j}]", problem
    elif isinstance(cluster, AckClusterSettings) and pool.zones:
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
        if pool.name == SYSTEM_POOL_NAME:
            yield f"{at}.name", f"{SYSTEM_POOL_NAME!r} is the name of the cluster's system pool"
        yield from _machine(cfg, at, pool)
        yield from _size(at, pool)
        for key, problem in label_problems(pool.labels):
            yield f"{at}.labels.{key}", problem
        yield from _zones(cfg, at, pool)


def system_pool(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """The system pool runs the add-ons: a machine type without GPUs."""
    cluster = cfg.settings.cluster
    if isinstance(cluster, AksClusterSettings):
        key, problem = "vmSize", azure_size_problem(cluster.system_pool.vm_size)
    elif isinstance(cluster, AckClusterSettings):
        key, problem = "instanceType", ecs_type_problem(cluster.system_pool.instance_type)
    else:
        return
    if problem is not None:
        yield f"cluster.systemPool.{key}", problem


RULES: tuple[Rule, ...] = (cpu_pools, system_pool)
