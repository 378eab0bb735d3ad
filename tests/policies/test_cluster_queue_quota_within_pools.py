"""cluster-queue-quota-within-pools: per flavour and GPU resource the ClusterQueues' nominal
quotas fit what the flavour's pools hold at their largest."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_facts.dra import device_class_quota_key

from .cloud_fixtures import (
    AGENT_POOL,
    AZURE_NODE_POOL,
    KARPENTER_NODE_POOL,
    classic_pool,
    karpenter_pool,
    versioned,
)
from .harness import Case, Res, assert_case
from .platform_fixtures import (
    A100_MIG_SIZE,
    AUTOSCALED,
    T4_POOL,
    aks_pool,
    dra_release,
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
BY_NODE_POOL = {"karpenter.sh/nodepool": "gpu"}
"""A flavour of a Karpenter NodePool: the label Karpenter puts on every node it starts."""


def karpenter(**spec: Any) -> Res:
    """An EKS Karpenter GPU NodePool of the g5 and g6 families (g5.12xlarge first: 4 A10Gs),
    ``spec`` merged into its ``spec`` (``None`` drops a field: ``limits=None``)."""
    props = karpenter_pool("eks")
    props["spec"] = {k: v for k, v in {**props["spec"], **spec}.items() if v is not None}
    return Res(KARPENTER_NODE_POOL, "gpu", props)


def karpenter_quota(gpus: int, *pools: Res) -> tuple[Res, ...]:
    pools = pools or (karpenter(),)
    quota = cluster_queue(quotas={"gpu": {"nvidia.com/gpu": gpus}})
    return (*pools, RELEASE, flavor("gpu", node_labels=BY_NODE_POOL), quota)


T4_CLASSIC = Res(
    AZURE_NODE_POOL,
    "t4c",
    classic_pool(
        name="t4c",
        vmSize="Standard_NC4as_T4_v3",
        gpuInstance=None,
        nodeCount=None,
        autoScalingEnabled=True,
        minCount=0,
        maxCount=3,
        nodeLabels={"gpu-platform.io/pool": "t4c"},
    ),
)
"""A pulumi-azure pool of T4s (one per node) that autoscales to 3 nodes."""
T4_VERSIONED = Res(versioned(AGENT_POOL, "2024-02-01"), "pool-t4", {**T4_POOL.props, "count": 2})

GPU_DEVICES = device_class_quota_key("gpu.nvidia.com")
MIG_DEVICES = device_class_quota_key("mig.nvidia.com")
DRA_A100 = sized(aks_pool("a100dra", A100_MIG_SIZE, config_label=False), count=2)
"""A DRA pool of two 8x A100 nodes: the driver publishes 16 ``gpu.nvidia.com`` devices."""
DRA_MIG = aks_pool("a100dra", A100_MIG_SIZE, "MIG1g", config_label=False)
"""One 8x A100 node in MIG 1g.5gb: 56 ``mig.nvidia.com`` devices, no ``gpu`` device."""
DRA = dra_release(pools=("a100dra",))


def dra_quota(pool: Res, resource: str, devices: int, *more: Res) -> tuple[Res, ...]:
    """A DRA pool, NVIDIA's DRA driver on it, a ClusterQueue's DeviceClass quota on its flavour."""
    quota = cluster_queue(quotas={"a100dra": {resource: devices}})
    return (pool, *more, flavor("a100dra"), quota)


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
    # Pools however the program declares them. A Karpenter NodePool holds at most its limit on
    # its vendor's GPUs (the fixture's nvidia.com/gpu: 8) ...
    Case(POLICY, "karpenter-within-its-gpu-limit", karpenter_quota(8)),
    Case(
        POLICY,
        "karpenter-over-its-gpu-limit",
        karpenter_quota(9),
        ("promise 9 nvidia.com/gpu on flavour 'gpu', whose pools ('gpu') hold 8",),
    ),
    # ... or a static one its replicas of its largest instance (g5.48xlarge, g6.48xlarge: 8).
    Case(POLICY, "static-karpenter-pool", karpenter_quota(16, karpenter(limits=None, replicas=2))),
    Case(
        POLICY,
        "static-karpenter-pool-over",
        karpenter_quota(17, karpenter(limits=None, replicas=2)),
        ("hold 16 at their largest",),
    ),
    # A Karpenter NodePool with neither grows as pods need: not judged.
    Case(POLICY, "karpenter-without-bounds", karpenter_quota(999, karpenter(limits=None))),
    # pulumi-azure's pool at its maxCount; azure-native at an explicit API version.
    Case(
        POLICY,
        "pulumi-azure-pool-at-its-max-count",
        (
            T4_CLASSIC,
            RELEASE,
            flavor("t4c"),
            cluster_queue(quotas={"t4c": {"nvidia.com/gpu": 4}}),
        ),
        ("whose pools ('t4c') hold 3 at their largest",),
    ),
    Case(
        POLICY,
        "versioned-agent-pool",
        (T4_VERSIONED, RELEASE, flavor(), cluster_queue(quotas={"t4": {"nvidia.com/gpu": 2}})),
    ),
    Case(
        POLICY,
        "versioned-agent-pool-over",
        (T4_VERSIONED, RELEASE, flavor(), cluster_queue(quotas={"t4": {"nvidia.com/gpu": 3}})),
        ("whose pools ('t4') hold 2 at their largest",),
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
    # A DeviceClass's devices (Kueue's deviceClassMappings) against what the DRA driver publishes.
    Case(POLICY, "dra-gpus-fit", dra_quota(DRA_A100, GPU_DEVICES, 16, DRA)),
    Case(
        POLICY,
        "dra-gpus-over",
        dra_quota(DRA_A100, GPU_DEVICES, 17, DRA),
        (
            f"ClusterQueues 'training' 17 promise 17 {GPU_DEVICES} on flavour 'a100dra', whose "
            "pools ('a100dra') hold 16 at their largest",
        ),
    ),
    Case(POLICY, "dra-mig-devices-fit", dra_quota(DRA_MIG, MIG_DEVICES, 56, DRA)),
    Case(
        POLICY,
        "dra-mig-devices-over",
        dra_quota(DRA_MIG, MIG_DEVICES, 57, DRA),
        (f"promise 57 {MIG_DEVICES} on flavour 'a100dra', whose pools ('a100dra') hold 56",),
    ),
    # A GPU in MIG mode publishes no gpu device; a pool no kubelet plugin serves, nothing.
    Case(
        POLICY,
        "dra-whole-gpus-of-a-mig-pool",
        dra_quota(DRA_MIG, GPU_DEVICES, 1, DRA),
        (f"promise 1 {GPU_DEVICES} on flavour 'a100dra', whose pools ('a100dra') hold 0",),
    ),
    Case(
        POLICY,
        "dra-pool-no-kubelet-plugin-serves",
        dra_quota(DRA_A100, GPU_DEVICES, 1, dra_release(pools=("h100dra",))),
        ("hold 0 at their largest",),
    ),
    # Not judged: the driver runs outside the program; a class the model does not count.
    Case(POLICY, "dra-driver-outside-the-program", dra_quota(DRA_A100, GPU_DEVICES, 99)),
    Case(
        POLICY,
        "dra-amd-class",
        dra_quota(DRA_A100, device_class_quota_key("gpu.amd.com"), 99, DRA),
    ),
    Case(
        POLICY,
        "dra-vfio-class",
        dra_quota(DRA_A100, device_class_quota_key("vfio.gpu.nvidia.com"), 99, DRA),
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
