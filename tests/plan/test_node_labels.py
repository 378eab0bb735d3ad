"""The labels and tags of GPU nodes, per cloud (plan.node_labels)."""

from __future__ import annotations

from gpu_facts.scheduling import ACK_GPU_SCHEDULE_VALUES
from gpu_platform.plan.node_labels import (
    AUTOSCALER_RESOURCE_TAG,
    ack_node_labels,
    aks_node_labels,
    autoscaler_tags,
    existing_node_labels,
    node_labels,
)
from tests.conftest import platform_of, stack_raw


def test_aks_labels_win_over_the_users_and_name_the_workload_types() -> None:
    platform = platform_of(stack_raw("dev"))
    t4 = platform.pools["t4"]
    labels = aks_node_labels(t4, ["training", "inference", "training"])
    assert labels["nvidia.com/gpu.present"] == "true"
    assert labels["nvidia.com/device-plugin.config"] == "t4"
    assert labels["gpu-platform.io/pool"] == "t4"
    assert {k for k in labels if k.startswith("workload.")} == {
        "workload.gpu-platform.io/inference",
        "workload.gpu-platform.io/training",
    }
    assert node_labels(platform, t4) == aks_node_labels(t4, platform.pool_workload_types()["t4"])


def test_autoscaled_pools_tell_the_autoscaler_their_resources() -> None:
    platform = platform_of(stack_raw("dev"))
    t4, mig = platform.pools["t4"], platform.pools["a100mig"]
    tags = autoscaler_tags(t4)
    assert tags and all(k.startswith(AUTOSCALER_RESOURCE_TAG) and "/" not in k for k in tags)
    assert autoscaler_tags(mig) == {}  # a fixed count: nothing to tell


def test_ack_labels_choose_one_device_plugin() -> None:
    platform = platform_of(stack_raw("ack-dev"))
    for pool in platform.pools.values():
        labels = ack_node_labels(pool)
        assert ("nvidia.com/gpu.present" in labels) is pool.uses_device_plugin
        expected = "disabled" if pool.uses_device_plugin else ACK_GPU_SCHEDULE_VALUES[pool.sharing]
        assert labels["ack.node.gpu.schedule"] == expected
    assert {p.uses_device_plugin for p in platform.pools.values()} == {True, False}


def test_existing_nodes_are_expected_to_carry_the_plugins_labels() -> None:
    platform = platform_of(stack_raw("existing"))
    for pool in platform.pools.values():
        labels = existing_node_labels(pool)
        assert labels["gpu-platform.io/pool"] == pool.name
        assert labels["nvidia.com/gpu.present"] == "true"
