"""A GPU pool's facts from the catalog: model, GPUs, MIG, sharing per cloud, capacity
(plan.pools)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_facts.scheduling import AMD_NODE_TAINT, GPU_NODE_TAINT, POOL_LABEL
from gpu_platform.plan.ack.pools import ACK_MODES
from gpu_platform.plan.pools import (
    PLUGIN_MODES,
    cloud_sharing,
    pool_placement,
    resolve_pool,
    workload_pools,
)
from gpu_platform.settings import GpuPoolSettings, WorkloadSettings
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


def test_a_pools_placement_is_its_pool_label_and_its_vendors_taint() -> None:
    nvidia = pool_placement(resolve_pool("aks", pool(vmSize="Standard_ND96asr_v4")))
    assert nvidia.labels == {POOL_LABEL: "p"} and nvidia.taints == (GPU_NODE_TAINT,)
    assert nvidia.tolerations() == [
        {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"}
    ]
    amd = pool_placement(resolve_pool("aks", pool(vmSize="Standard_ND96isr_MI300X_v5")))
    assert amd.taints == (AMD_NODE_TAINT,)


def test_a_namespace_may_use_its_listed_pools_else_every_pool_open_to_all() -> None:
    whole = resolve_pool("aks", pool(name="a100", vmSize="Standard_ND96asr_v4"))
    shared = resolve_pool(
        "aks",
        pool(
            name="t4", vmSize="Standard_NC4as_T4_v3", sharing={"mode": "timeSlicing", "replicas": 4}
        ),
    )
    pools = {"a100": whole, "t4": shared}
    unlisted = WorkloadSettings(name="a", type="training", gpu_quota=1)
    listed = WorkloadSettings(name="b", type="training", gpu_quota=1, pools=["t4"])
    assert workload_pools(unlisted, pools) == [whole]
    assert workload_pools(listed, pools) == [shared]
