"""resource-flavors-select-gpu-pools: a flavour with GPU quota selects some GPU pool."""

from __future__ import annotations

import pytest

from .harness import Case, assert_case
from .platform_fixtures import T4_POOL
from .queue_fixtures import cluster_queue, flavor

POLICY = "resource-flavors-select-gpu-pools"
GPU_QUOTA = {"t4": {"nvidia.com/gpu": 1}}

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
