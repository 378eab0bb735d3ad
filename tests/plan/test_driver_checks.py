"""Which pools get a driver check and what it asks for (plan.driver_checks)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gpu_platform.plan.driver_checks import (
    CHECK_DEADLINE_SECONDS,
    checked_pools,
    gpu_resource,
    min_driver_major,
)
from gpu_platform.plan.pools import PoolFacts, resolve_pool
from tests.pools import gpu_pool


def facts(**fields: Any) -> PoolFacts:
    return resolve_pool("aks", gpu_pool({"name": "p", **fields}))


def test_pools_that_always_have_a_node_are_checked() -> None:
    fixed = facts(name="fixed", vmSize="Standard_NC4as_T4_v3", count=1)
    empty = facts(name="empty", vmSize="Standard_NC4as_T4_v3", count=0)
    from_zero = facts(name="zero", vmSize="Standard_NC4as_T4_v3", autoscale={"min": 0, "max": 2})
    from_one = facts(name="one", vmSize="Standard_NC4as_T4_v3", autoscale={"min": 1, "max": 2})
    assert [p.name for p in checked_pools([fixed, empty, from_zero, from_one])] == ["fixed", "one"]
    assert CHECK_DEADLINE_SECONDS >= 600  # time to pull the image on a new node


def test_the_one_resource_a_check_asks_for() -> None:
    assert gpu_resource(facts(vmSize="Standard_NC4as_T4_v3", count=1)) == "nvidia.com/gpu"
    mig = facts(vmSize="Standard_ND96asr_v4", count=1, mig={"profile": "MIG1g"})
    assert gpu_resource(mig) == "nvidia.com/mig-1g.5gb"


def test_a_pool_of_two_resources_has_no_one_resource() -> None:
    pool = facts(vmSize="Standard_NC4as_T4_v3", count=1)
    two = replace(pool, capacity=replace(pool.capacity, per_node={"a": 1, "b": 1}))
    with pytest.raises(ValueError, match="expected one GPU resource"):
        gpu_resource(two)


def test_a_dra_pool_needs_the_driver_nvidias_dra_driver_needs() -> None:
    """NVIDIA's DRA driver allocates GPUs from driver 565 on (its docs/prerequisites.md): a DRA
    pool's minimum is that or driverCheck's, the newer; other pools keep driverCheck's."""
    dra = facts(vmSize="Standard_NC40ads_H100_v5", count=1, allocation="dra")
    plugin = facts(vmSize="Standard_NC40ads_H100_v5", count=1)
    assert (min_driver_major(dra, 535), min_driver_major(dra, 570)) == (565, 570)
    assert min_driver_major(plugin, 535) == 535
