"""A GPU pool's facts from the catalog: model, GPUs, MIG, sharing per cloud, capacity
(plan.pools)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_platform.plan.ack.pools import ACK_MODES
from gpu_platform.plan.pools import PLUGIN_MODES, cloud_sharing, resolve_pool
from gpu_platform.settings import GpuPoolSettings
from tests.pools import gpu_pool


def pool(**fields: Any) -> GpuPoolSettings:
    return gpu_pool({"name": "p", "count": 2, **fields})


def test_a_mig_pool() -> None:
    facts = resolve_pool("aks", pool(vmSize="Standard_ND96asr_v4", mig={"profile": "MIG1g"}))
    assert (facts.gpu_model.name, facts.gpus_per_node, facts.mig_profile) == (
        "A100-40GB",
        8,
        "1g.5gb",
    )
    assert facts.capacity.per_node == {"nvidia.com/mig-1g.5gb": 56}
    assert facts.capacity.total == {"nvidia.com/mig-1g.5gb": 112}
    assert facts.uses_device_plugin and not facts.is_shared


def test_sharing_means_what_the_cloud_does_with_it() -> None:
    mps = pool(instanceType="ecs.gn7i-c8g1.2xlarge", sharing={"mode": "mps", "replicas": 2})
    assert cloud_sharing("ack", mps) == "ackMps"
    assert cloud_sharing("existing", mps) == "mps"
    ack = resolve_pool("ack", pool(instanceType="ecs.gn7i-c8g1.2xlarge", sharing={"mode": "mps"}))
    assert ack.is_ack_mps and not ack.uses_device_plugin
    assert set(ACK_MODES) == {"mps", "cgpu", "share"} and set(PLUGIN_MODES) == {
        "timeSlicing",
        "mps",
    }


def test_an_ack_mode_off_ack_is_a_bug_the_rules_keep_out() -> None:
    with pytest.raises(ValueError, match="only on cloud 'ack'"):
        cloud_sharing("aks", pool(vmSize="Standard_NC4as_T4_v3", sharing={"mode": "cgpu"}))


def test_autoscaled_pools_offer_their_largest_size() -> None:
    facts = resolve_pool(
        "aks",
        pool(vmSize="Standard_NC4as_T4_v3", count=None, autoscale={"min": 0, "max": 3}),
    )
    assert (facts.capacity.min_nodes, facts.capacity.max_nodes) == (0, 3)
    assert facts.capacity.total == {"nvidia.com/gpu": 3}
