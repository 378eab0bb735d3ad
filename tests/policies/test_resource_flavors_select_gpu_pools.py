"""resource-flavors-select-gpu-pools: a flavour with GPU quota selects some GPU pool."""

from __future__ import annotations

import pytest

from .cloud_fixtures import (
    AGENT_POOL,
    AZURE_NODE_POOL,
    KARPENTER_NODE_POOL,
    classic_pool,
    karpenter_pool,
    versioned,
)
from .harness import Case, Res, assert_case
from .platform_fixtures import T4_POOL
from .queue_fixtures import cluster_queue, flavor

POLICY = "resource-flavors-select-gpu-pools"
GPU_QUOTA = {"t4": {"nvidia.com/gpu": 1}}
GPU_NAME = "karpenter.k8s.aws/instance-gpu-name"
KARPENTER = Res(
    KARPENTER_NODE_POOL,
    "gpu",
    karpenter_pool(
        "eks",
        requirements=[
            {"key": "karpenter.k8s.aws/instance-family", "operator": "In", "values": ["g5", "g6"]},
            {"key": GPU_NAME, "operator": "In", "values": ["a10g", "l4"]},
        ],
    ),
)
"""An EKS Karpenter GPU NodePool whose nodes carry an A10G or an L4."""
GPU_COUNT = "karpenter.k8s.aws/instance-gpu-count"
KARPENTER_BOUNDS = Res(
    KARPENTER_NODE_POOL,
    "gpu-bounds",
    karpenter_pool(
        "eks",
        requirements=[
            {"key": GPU_COUNT, "operator": "Gte", "values": ["2"]},
            {"key": GPU_COUNT, "operator": "Lte", "values": ["8"]},
        ],
    ),
)
"""A Karpenter GPU NodePool bounded by Karpenter's own inclusive operators: 2 to 8 GPUs."""
CLASSIC = Res(AZURE_NODE_POOL, "a100mig1g", classic_pool())
VERSIONED = Res(versioned(AGENT_POOL, "2021-08-01"), "pool-t4", T4_POOL.props)


def selects(pool: Res, labels: dict[str, str]) -> tuple[Res, ...]:
    return (pool, flavor(node_labels=labels), cluster_queue(quotas=GPU_QUOTA))


CASES: list[Case] = [
    Case(POLICY, "selects-its-pool", (T4_POOL, flavor(), cluster_queue(quotas=GPU_QUOTA))),
    Case(
        POLICY,
        "selects-no-pool",
        (
            T4_POOL,
            flavor(node_labels={"gpu-platform.io/pool": "v100"}),
            cluster_queue(quotas=GPU_QUOTA),
        ),
        (
            "ResourceFlavor 't4' (GPU quota in ClusterQueue 'training') selects nodes labelled "
            "gpu-platform.io/pool=v100",
        ),
    ),
    Case(
        POLICY,
        "a-runtime-label-no-pool-declares",
        (
            T4_POOL,
            flavor(node_labels={"nvidia.com/gpu.product": "Tesla-T4"}),
            cluster_queue(quotas=GPU_QUOTA),
        ),
        ("nvidia.com/gpu.product=Tesla-T4",),
    ),
    Case(
        POLICY,
        "no-labels-select-every-node",
        (T4_POOL, flavor(node_labels={}), cluster_queue(quotas=GPU_QUOTA)),
    ),
    # Pools however the program declares them: a Karpenter NodePool by the label Karpenter puts
    # on its nodes, or any value a requirement allows; a pulumi-azure pool, an azure-native one
    # at an explicit API version, by their nodeLabels.
    Case(POLICY, "karpenter-node-pool-label", selects(KARPENTER, {"karpenter.sh/nodepool": "gpu"})),
    Case(POLICY, "karpenter-requirement-value", selects(KARPENTER, {GPU_NAME: "l4"})),
    Case(
        POLICY,
        "karpenter-value-no-requirement-allows",
        selects(KARPENTER, {GPU_NAME: "h100"}),
        (f"selects nodes labelled {GPU_NAME}=h100, which no GPU pool of the stack carries",),
    ),
    Case(POLICY, "karpenter-inclusive-bounds", selects(KARPENTER_BOUNDS, {GPU_COUNT: "8"})),
    Case(
        POLICY,
        "karpenter-value-outside-inclusive-bounds",
        selects(KARPENTER_BOUNDS, {GPU_COUNT: "1"}),
        (f"selects nodes labelled {GPU_COUNT}=1, which no GPU pool of the stack carries",),
    ),
    Case(POLICY, "pulumi-azure-pool", selects(CLASSIC, {"gpu-platform.io/pool": "a100mig1g"})),
    Case(
        POLICY,
        "pulumi-azure-pool-other-label",
        selects(CLASSIC, {"gpu-platform.io/pool": "t4"}),
        ("(pools' labels: a100mig1g: gpu-platform.io/pool=a100mig1g)",),
    ),
    Case(POLICY, "versioned-agent-pool", selects(VERSIONED, {"gpu-platform.io/pool": "t4"})),
    # A flavour of CPU quota only, one no ClusterQueue uses, a stack without GPU pools.
    Case(
        POLICY,
        "cpu-flavour",
        (
            T4_POOL,
            flavor(node_labels={"pool": "general"}),
            cluster_queue(quotas={"t4": {"cpu": 8}}),
        ),
    ),
    Case(POLICY, "unused-flavour", (T4_POOL, flavor(node_labels={"pool": "nowhere"}))),
    Case(
        POLICY,
        "no-gpu-pools",
        (flavor(node_labels={"gpu-platform.io/pool": "v100"}), cluster_queue(quotas=GPU_QUOTA)),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_a_flavour_is_exempted_by_name() -> None:
    from .harness import messages

    bad = (
        T4_POOL,
        flavor(node_labels={"gpu-platform.io/pool": "v100"}),
        cluster_queue(quotas=GPU_QUOTA),
    )
    case = Case(POLICY, "exempt", bad, config={"exemptNames": ["t4"]})
    assert messages(case) == []
