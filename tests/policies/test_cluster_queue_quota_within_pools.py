"""cluster-queue-quota-within-pools: per flavour and GPU resource the ClusterQueues' nominal
quotas fit what the flavour's pools hold at their largest."""

from __future__ import annotations

import pytest

from .harness import Case, assert_case
from .platform_fixtures import (
    A100_MIG_SIZE,
    AUTOSCALED,
    T4_POOL,
    aks_pool,
    plain,
    plugin_release,
    shared,
    sized,
)
from .queue_fixtures import cluster_queue, flavor

POLICY = "cluster-queue-quota-within-pools"
RELEASE = plugin_release(
    {"plain-default": plain(), "t4": plain(), "a100mig": plain("mixed"), "t4s": shared()}
)
FOUR_T4 = sized(T4_POOL, count=4)
MIG = aks_pool("a100mig", A100_MIG_SIZE, "MIG1g")
SHARED_T4 = sized(aks_pool("t4s"), count=2)

CASES: list[Case] = [
    Case(
        POLICY,
        "fits",
        (FOUR_T4, RELEASE, flavor(), cluster_queue(quotas={"t4": {"nvidia.com/gpu": 4}})),
    ),
    Case(
        POLICY,
        "one-queue-over",
        (FOUR_T4, RELEASE, flavor(), cluster_queue(quotas={"t4": {"nvidia.com/gpu": 5}})),
        (
            "ClusterQueues 'training' 5 promise 5 nvidia.com/gpu on flavour 't4', whose pools "
            "('t4') hold 4 at their largest",
        ),
    ),
    Case(
        POLICY,
        "two-queues-over-together",
        (
            FOUR_T4,
            RELEASE,
            flavor(),
            cluster_queue(quotas={"t4": {"nvidia.com/gpu": 3}}),
            cluster_queue("inference", quotas={"t4": {"nvidia.com/gpu": 2}}),
        ),
        ("'training' 3, 'inference' 2 promise 5 nvidia.com/gpu",),
    ),
    # Autoscaled: what the pool holds at its most nodes.
    Case(
        POLICY,
        "autoscaled-to-three",
        (
            sized(T4_POOL, count=None, **AUTOSCALED),
            RELEASE,
            flavor(),
            cluster_queue(quotas={"t4": {"nvidia.com/gpu": 3}}),
        ),
    ),
    Case(
        POLICY,
        "autoscaled-over",
        (
            sized(T4_POOL, count=None, **AUTOSCALED),
            RELEASE,
            flavor(),
            cluster_queue(quotas={"t4": {"nvidia.com/gpu": 4}}),
        ),
        ("hold 3 at their largest",),
    ),
    # MIG and time-sliced resources as the pools expose them.
    Case(
        POLICY,
        "mig-instances",
        (
            MIG,
            RELEASE,
            flavor("a100mig"),
            cluster_queue(quotas={"a100mig": {"nvidia.com/mig-1g.5gb": 56}}),
        ),
    ),
    Case(
        POLICY,
        "mig-over",
        (
            MIG,
            RELEASE,
            flavor("a100mig"),
            cluster_queue(quotas={"a100mig": {"nvidia.com/mig-1g.5gb": 57}}),
        ),
        ("57 nvidia.com/mig-1g.5gb on flavour 'a100mig'",),
    ),
    Case(
        POLICY,
        "time-sliced-replicas",
        (
            SHARED_T4,
            RELEASE,
            flavor("t4s"),
            cluster_queue(quotas={"t4s": {"nvidia.com/gpu.shared": 8}}),
        ),
    ),
    Case(
        POLICY,
        "time-sliced-over",
        (
            SHARED_T4,
            RELEASE,
            flavor("t4s"),
            cluster_queue(quotas={"t4s": {"nvidia.com/gpu.shared": 9}}),
        ),
        ("hold 8",),
    ),
    # Not judged: no pools, no device plugin to say what they expose, a flavour of no pool.
    Case(POLICY, "no-pools", (flavor(), cluster_queue(quotas={"t4": {"nvidia.com/gpu": 99}}))),
    Case(
        POLICY,
        "no-plugin-release",
        (FOUR_T4, flavor(), cluster_queue(quotas={"t4": {"nvidia.com/gpu": 99}})),
    ),
    Case(
        POLICY,
        "flavour-of-no-pool",
        (FOUR_T4, RELEASE, flavor("v100"), cluster_queue(quotas={"v100": {"nvidia.com/gpu": 99}})),
    ),
    # CPU quotas are no GPU's.
    Case(
        POLICY,
        "cpu-quota",
        (FOUR_T4, RELEASE, flavor(), cluster_queue(quotas={"t4": {"cpu": 1000}})),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)
