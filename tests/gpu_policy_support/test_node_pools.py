"""node_pools: each way a program declares nodes, read as one NodePool (GPU-ness, vendor, taints,
labels, minimum and most nodes, limits, API version)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_facts.scheduling import Taint
from gpu_policy_support.node_pools import NodePool, node_pools
from tests.policies.cloud_fixtures import (
    AGENT_POOL,
    AZURE_CLUSTER,
    AZURE_NODE_POOL,
    KARPENTER_GPU_TAINT,
    KARPENTER_NODE_POOL,
    aks_gpu_pool,
    classic_cluster,
    classic_pool,
    karpenter_pool,
    versioned,
)

GPU_TAINT = Taint("nvidia.com/gpu", "present", "NoSchedule")


def one(resource_type: str, props: dict[str, Any], name: str = "res") -> NodePool:
    (pool,) = node_pools(resource_type, name, props)
    return pool


def test_an_agent_pool_at_an_explicit_api_version_is_read_with_it() -> None:
    pool = one(versioned(AGENT_POOL, "2021-07-01"), aks_gpu_pool())
    assert (pool.name, pool.is_gpu, pool.mig_profile, pool.api_version) == (
        "a100",
        True,
        "MIG1g",
        "2021-07-01",
    )
    assert one(AGENT_POOL, aks_gpu_pool()).api_version == "2025-09-01"


def test_a_pulumi_azure_pool_reads_its_own_field_names() -> None:
    pool = one(AZURE_NODE_POOL, classic_pool(osSku="AzureLinux"))
    assert (pool.name, pool.machine_types, pool.taints, pool.mig_profile, pool.os_sku) == (
        "a100mig1g",
        ("Standard_ND96asr_v4",),
        (GPU_TAINT,),
        "MIG1g",
        "AzureLinux",
    )
    assert (pool.autoscaling, pool.min_nodes, pool.api_version) == (False, 1.0, None)
    scaled = one(AZURE_NODE_POOL, classic_pool(autoScalingEnabled=True, minCount=0))
    assert (scaled.autoscaling, scaled.min_nodes) == (True, 0.0)


def test_a_pulumi_azure_default_pool_takes_only_the_critical_addons_taint() -> None:
    plain = one(AZURE_CLUSTER, classic_cluster(), "aks")
    assert (plain.name, plain.taints, plain.origin, plain.is_gpu) == (
        "aks/defaultNodePool[system]",
        (),
        "aks-default-pool",
        False,
    )
    critical = one(
        AZURE_CLUSTER,
        classic_cluster(
            defaultNodePool={"vmSize": "Standard_D4s_v5", "onlyCriticalAddonsEnabled": True}
        ),
    )
    assert critical.taints == (Taint("CriticalAddonsOnly", "true", "NoSchedule"),)
    assert list(node_pools(AZURE_CLUSTER, "aks", classic_cluster(defaultNodePool=None))) == []


@pytest.mark.parametrize(
    ("flavour", "cloud", "machine_types"),
    [
        ("eks", "eks", ("g5.12xlarge", "g5.16xlarge")),
        ("eks-auto", "eks", ()),
        ("aks-nap", "aks", ("Standard_NC24ads_A100_v4",)),
    ],
)
def test_a_karpenter_gpu_node_pool(
    flavour: str, cloud: str, machine_types: tuple[str, ...]
) -> None:
    pool = one(KARPENTER_NODE_POOL, karpenter_pool(flavour))
    assert (pool.name, pool.cloud, pool.is_gpu, pool.origin) == ("gpu", cloud, True, "karpenter")
    assert pool.machine_types[: len(machine_types)] == machine_types
    assert pool.taints == (GPU_TAINT,)
    assert pool.labels["karpenter.sh/nodepool"] == "gpu"
    assert (pool.autoscaling, pool.min_nodes) == (True, 0.0)


def test_a_karpenter_pool_leaves_out_startup_taints_and_labels_one_value_requirements() -> None:
    """Karpenter removes startup taints soon after start and provisions for pods that do not
    tolerate them: they are not the pool's taints (gpu_facts.karpenter.NODE_POOL_TAINTS)."""
    props = karpenter_pool(
        "eks",
        taints=[{"key": "team", "value": "ml", "effect": "NoSchedule"}],
        startupTaints=[KARPENTER_GPU_TAINT],
        requirements=[
            {"key": "karpenter.k8s.aws/instance-gpu-name", "operator": "In", "values": ["l4"]},
            {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a", "b"]},
        ],
    )
    pool = one(KARPENTER_NODE_POOL, props)
    assert pool.taints == (Taint("team", "ml", "NoSchedule"),)
    assert pool.labels["karpenter.k8s.aws/instance-gpu-name"] == "l4"
    assert "topology.kubernetes.io/zone" not in pool.labels
    assert pool.is_gpu


@pytest.mark.parametrize(
    ("requirement", "gpu"),
    [
        ({"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Gt", "values": ["0"]}, True),
        (
            {"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Gt", "values": ["-1"]},
            False,
        ),
        ({"key": "eks.amazonaws.com/instance-gpu-count", "operator": "Gte", "values": ["1"]}, True),
        ({"key": "karpenter.azure.com/sku-gpu-count", "operator": "Gte", "values": ["0"]}, False),
        (
            {"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Lte", "values": ["8"]},
            False,
        ),
        (
            {"key": "karpenter.azure.com/sku-gpu-count", "operator": "In", "values": ["1", "2"]},
            True,
        ),
        ({"key": "karpenter.azure.com/sku-gpu-count", "operator": "In", "values": ["0"]}, False),
        ({"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "DoesNotExist"}, False),
        ({"key": "eks.amazonaws.com/instance-gpu-name", "operator": "Exists"}, True),
        ({"key": "karpenter.k8s.aws/instance-family", "operator": "In", "values": ["m6i"]}, False),
        ({"key": "karpenter.k8s.aws/instance-family", "operator": "In", "values": ["p5"]}, True),
        (
            {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["g6.xlarge"]},
            True,
        ),
    ],
)
def test_gpu_ness_from_requirements(requirement: dict[str, Any], gpu: bool) -> None:
    props = karpenter_pool("eks", requirements=[requirement])
    assert one(KARPENTER_NODE_POOL, props).is_gpu is gpu


def test_a_static_karpenter_pool_has_its_replicas() -> None:
    props = karpenter_pool("aks-nap")
    props["spec"]["replicas"] = 3
    pool = one(KARPENTER_NODE_POOL, props)
    assert (pool.autoscaling, pool.min_nodes) == (False, 3.0)


def test_a_karpenter_pool_of_amd_gpus_is_amds() -> None:
    props = karpenter_pool(
        "aks-nap",
        requirements=[
            {"key": "karpenter.azure.com/sku-gpu-manufacturer", "operator": "In", "values": ["amd"]}
        ],
    )
    assert one(KARPENTER_NODE_POOL, props).vendor.taint_key == "amd.com/gpu"


def test_the_most_nodes_of_each_way_to_declare_a_pool() -> None:
    """What a queue's quota can ever use: AKS's maxCount or count (azure-native at any API
    version, pulumi-azure's nodeCount, a default pool's), a static Karpenter pool's replicas."""
    assert one(versioned(AGENT_POOL, "2021-07-01"), aks_gpu_pool()).max_nodes == 2.0
    scaled = aks_gpu_pool(enableAutoScaling=True, minCount=1, maxCount=5, count=None)
    assert one(AGENT_POOL, scaled).max_nodes == 5.0
    assert one(AZURE_NODE_POOL, classic_pool(nodeCount=3)).max_nodes == 3.0
    classic = classic_pool(autoScalingEnabled=True, minCount=0, maxCount=4, nodeCount=None)
    assert one(AZURE_NODE_POOL, classic).max_nodes == 4.0
    assert one(AZURE_CLUSTER, classic_cluster(), "aks").max_nodes == 2.0
    static = karpenter_pool("aks-nap")
    static["spec"]["replicas"] = 3
    assert one(KARPENTER_NODE_POOL, static).max_nodes == 3.0


def test_a_karpenter_pool_grows_up_to_its_limits() -> None:
    """No node count: spec.limits bound it (numbers only; a memory quantity is no GPU count)."""
    props = karpenter_pool("eks")
    props["spec"]["limits"] = {"nvidia.com/gpu": "16", "cpu": 1000, "memory": "1000Gi"}
    pool = one(KARPENTER_NODE_POOL, props)
    assert pool.max_nodes is None
    assert pool.resource_limits == {"nvidia.com/gpu": 16.0, "cpu": 1000.0}


@pytest.mark.parametrize(
    ("selector", "carried"),
    [
        ({"karpenter.sh/nodepool": "gpu"}, True),
        ({"karpenter.k8s.aws/instance-gpu-name": "l4"}, True),
        ({"karpenter.k8s.aws/instance-gpu-name": "a100"}, False),
        ({"karpenter.sh/capacity-type": "spot"}, False),  # In [on-demand]: a label, another value
        ({"topology.kubernetes.io/zone": "b"}, False),  # NotIn alone puts no label on a node
        ({"karpenter.k8s.aws/instance-gpu-count": "4"}, True),  # Gt 0
        ({"team": "ml"}, False),
        ({}, True),
    ],
)
def test_the_labels_some_node_of_a_karpenter_pool_may_carry(
    selector: dict[str, str], carried: bool
) -> None:
    props = karpenter_pool(
        "eks",
        requirements=[
            {"key": "karpenter.k8s.aws/instance-family", "operator": "In", "values": ["g5", "g6"]},
            {"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["on-demand"]},
            {
                "key": "karpenter.k8s.aws/instance-gpu-name",
                "operator": "In",
                "values": ["a10g", "l4"],
            },
            {"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Gt", "values": ["0"]},
            {"key": "topology.kubernetes.io/zone", "operator": "NotIn", "values": ["a"]},
        ],
    )
    assert one(KARPENTER_NODE_POOL, props).may_carry(selector) is carried


@pytest.mark.parametrize(
    ("value", "carried"),
    [("1", False), ("2", True), ("4", True), ("8", True), ("16", False), ("many", False)],
)
def test_karpenters_inclusive_bounds_let_a_node_carry_the_values_between(
    value: str, carried: bool
) -> None:
    """Karpenter's own Gte and Lte (a flavour's nodeLabels selecting 4-GPU nodes of a pool
    that allows 2 to 8 GPUs): inclusive bounds, as Karpenter reads them."""
    props = karpenter_pool(
        "eks",
        requirements=[
            {"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Gte", "values": ["2"]},
            {"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Lte", "values": ["8"]},
        ],
    )
    pool = one(KARPENTER_NODE_POOL, props)
    assert pool.may_carry({"karpenter.k8s.aws/instance-gpu-count": value}) is carried


def test_a_cloud_pool_carries_its_labels_only() -> None:
    pool = one(AZURE_NODE_POOL, classic_pool())
    assert pool.may_carry({"gpu-platform.io/pool": "a100mig1g"})
    assert not pool.may_carry({"gpu-platform.io/pool": "t4"})
