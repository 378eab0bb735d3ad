"""Which GPU pools get a driver check after ``pulumi up``, and what the check asks for."""

from __future__ import annotations

from gpu_facts.nvidia.dra_driver_chart import MIN_NVIDIA_DRIVER_MAJOR as DRA_MIN_DRIVER_MAJOR

from .pools import PoolFacts

CHECK_DEADLINE_SECONDS = 1800
"""Room for a check Job to pull the CUDA image and for a node the pool is still adding (every
checked pool has at least one node: ``checked_pools``)."""


def checked_pools(pools: list[PoolFacts]) -> list[PoolFacts]:
    """Pools that get a check Job (and CronJob): those that always have a node, i.e. whose
    minimum node count (fixed ``count``, or ``autoscale.min``) is at least 1. Why a pool that
    can be empty gets none, and what checks it instead: docs/device-plugin.md, "Which pools
    get a check"."""
    return [pool for pool in pools if pool.capacity.min_nodes >= 1]


def gpu_resource(pool: PoolFacts) -> str:
    """The one GPU resource a node of the pool advertises (from the capacity model)."""
    names = list(pool.capacity.per_node)
    if len(names) != 1:
        raise ValueError(f"pool {pool.name!r}: expected one GPU resource, found {names}")
    return names[0]


def min_driver_major(pool: PoolFacts, configured: int) -> int:
    """The oldest NVIDIA driver major a pool's nodes may run: ``driverCheck.minDriverMajor``,
    and on a DRA pool at least the one NVIDIA's DRA driver allocates GPUs with (565: its
    ``docs/prerequisites.md``, ``gpu_facts.nvidia.dra_driver_chart``)."""
    return max(configured, DRA_MIN_DRIVER_MAJOR) if pool.uses_dra else configured
