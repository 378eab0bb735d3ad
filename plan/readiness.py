"""Which GPU pools get a driver check after ``pulumi up``, and what the check asks for."""

from __future__ import annotations

from .pools import PoolFacts

CHECK_DEADLINE_SECONDS = 1800
"""Room for a check Job to pull the CUDA image and for a node the pool is still adding (every
checked pool has at least one node: ``checked_pools``)."""


def checked_pools(pools: list[PoolFacts]) -> list[PoolFacts]:
    """Pools that get a check Job (and CronJob): those that always have a node, i.e. whose
    minimum node count (fixed ``count``, or ``autoscale.min``) is at least 1.

    A pool that can be empty gets none. Fixed at zero, its Job could never schedule.
    Autoscaled from zero, the check would power up a GPU node just to run ``nvidia-smi`` (the
    Job at every ``pulumi up``, the CronJob at every schedule); and where the autoscaler cannot
    tell what an empty pool offers (an autoscaler that sizes it from the VM alone knows
    ``nvidia.com/gpu`` but no ``.shared`` or MIG resource), the Job would wait out
    ``CHECK_DEADLINE_SECONDS`` and fail ``pulumi up``. ``make verify`` (readiness/) checks the
    driver of every GPU node that exists, whatever its pool. ACK MPS pools included (in the
    MPS namespace).
    """
    return [pool for pool in pools if pool.capacity.min_nodes >= 1]


def gpu_resource(pool: PoolFacts) -> str:
    """The one GPU resource a node of the pool advertises (from the capacity model)."""
    names = list(pool.capacity.per_node)
    if len(names) != 1:
        raise ValueError(f"pool {pool.name!r}: expected one GPU resource, found {names}")
    return names[0]
