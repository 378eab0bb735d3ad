"""The one dispatch on cloud (plan.clouds): each cloud's plan, by name or by pool model."""

from __future__ import annotations

import pytest

from gpu_platform.plan.clouds import cloud_plan, cloud_plans, pool_key_elsewhere, pool_plan
from gpu_platform.settings import CLUSTER_SETTINGS, GPU_POOL_SETTINGS
from tests.pools import gpu_pool


def test_every_cloud_of_the_settings_has_a_plan() -> None:
    assert set(cloud_plans()) == set(GPU_POOL_SETTINGS) == set(CLUSTER_SETTINGS)
    for cloud, plan in cloud_plans().items():
        assert plan.cloud == cloud and plan.pool_model is GPU_POOL_SETTINGS[cloud]


@pytest.mark.parametrize(
    ("raw", "cloud"),
    [
        ({"name": "a", "count": 1, "vmSize": "Standard_NC4as_T4_v3"}, "aks"),
        ({"name": "a", "count": 1, "instanceType": "ecs.gn7i-c8g1.2xlarge"}, "ack"),
        ({"name": "a", "count": 1, "machineType": "p5.48xlarge"}, "existing"),
    ],
)
def test_a_pool_model_says_its_cloud(raw: dict[str, object], cloud: str) -> None:
    pool = gpu_pool(raw)
    assert pool_plan(pool) is cloud_plan(cloud)
    machine = cloud_plan(cloud).machine(pool)
    assert machine.gpus_per_node >= 1


def test_only_the_clouds_that_create_nodes_have_a_system_pool() -> None:
    assert {c for c, plan in cloud_plans().items() if plan.creates_nodes} == {"aks", "ack"}


def test_another_clouds_key_is_named_with_its_cloud() -> None:
    assert pool_key_elsewhere("ack", "vmSize") == (
        "AKS only (cloud 'aks'); on cloud 'ack' remove it"
    )
    assert pool_key_elsewhere("existing", "zones") == (
        "AKS and ACK only (cloud 'aks', 'ack'); on cloud 'existing' remove it"
    )
    assert pool_key_elsewhere("aks", "colour") is None


def test_container_logs_and_node_image_checks_are_the_managed_clouds() -> None:
    collectors = {c: plan.container_logs for c, plan in cloud_plans().items()}
    assert collectors["existing"] is None  # the platform sets up no log pipeline there
    managed = [logs for logs in collectors.values() if logs is not None]
    assert len({logs.collector for logs in managed}) == len(managed) == 2
    assert {c for c, plan in cloud_plans().items() if plan.node_image_checks} == {"aks"}
