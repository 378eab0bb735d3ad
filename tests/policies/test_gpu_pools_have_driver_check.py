"""gpu-pools-have-driver-check: a driver check per GPU pool that always has a node."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import replace

import pytest
from pulumi_policy import PolicyResource

from gpu_facts.scheduling import GPU_PRESENT_LABEL
from gpu_policies import gpu_pools_have_driver_check

from .cloud_fixtures import (
    AZURE_NODE_POOL,
    EKS_MANAGED,
    classic_pool,
    eks,
    eks_cluster,
    eks_self_managed,
    gke,
    gke_props,
    karpenter,
    karpenter_pool,
)
from .harness import Case, Res, assert_case, policy_named, violations
from .platform_fixtures import (
    ACK_A10,
    ACK_SCALING,
    AUTOSCALED,
    MIG_POOL,
    T4_POOL,
    ack_pool,
    aks_pool,
    amd_driver_check,
    amd_pool,
    dev_like_stack,
    driver_check,
    inline_gpu_pool,
    many_workloads_stack,
    sized,
    workload,
)
from .stack_fixtures import walks_once

DRIVER = "gpu-pools-have-driver-check"

CASES: list[Case] = [
    Case(DRIVER, "aks-count-0", (sized(T4_POOL, count=0),)),
    Case(DRIVER, "aks-count-0-as-the-engine-sends-it", (sized(T4_POOL, count=0.0),)),
    Case(DRIVER, "aks-autoscaling-off", (sized(T4_POOL, count=0, enableAutoScaling=False),)),
    Case(DRIVER, "aks-inline-count-0", (inline_gpu_pool(count=0),)),
    Case(DRIVER, "ack-desired-size-0", (sized(ACK_A10, desiredSize="0"),)),
    Case(DRIVER, "ack-deprecated-node-count-0", (sized(ACK_A10, nodeCount=0),)),
    Case(
        DRIVER,
        "ack-scaling-config-off",
        (sized(ACK_A10, desiredSize="0", scalingConfig={"enable": False}),),
    ),
    # The zero pool cannot take the check: a selector on both pools checks the other one.
    Case(
        DRIVER,
        "zero-pool-beside-a-checked-pool",
        (
            sized(T4_POOL, count=0),
            MIG_POOL,
            driver_check("any", selector={GPU_PRESENT_LABEL: "true"}),
        ),
    ),
    Case(DRIVER, "aks-autoscaled-from-0", (sized(T4_POOL, count=0, **AUTOSCALED),)),
    Case(DRIVER, "aks-autoscaled-from-0-with-count-1", (sized(T4_POOL, **AUTOSCALED),)),
    Case(
        DRIVER,
        "aks-autoscaled-without-min",
        (sized(T4_POOL, **{**AUTOSCALED, "minCount": None}),),
    ),
    Case(DRIVER, "aks-inline-autoscaled-from-0", (inline_gpu_pool(count=0, **AUTOSCALED),)),
    Case(DRIVER, "ack-autoscaled-from-0", (sized(ACK_A10, desiredSize="0", **ACK_SCALING),)),
    Case(DRIVER, "ack-autoscaled-from-0-size-missing", (sized(ACK_A10, **ACK_SCALING),)),
    # Pools that always have a node need their check.
    Case(DRIVER, "aks-count-1", (sized(T4_POOL, count=1),), ("'t4'",)),
    Case(DRIVER, "aks-count-missing-defaults-to-1", (sized(T4_POOL, count=None),), ("'t4'",)),
    Case(
        DRIVER,
        "aks-autoscaled-from-1",
        (sized(T4_POOL, count=0, **{**AUTOSCALED, "minCount": 1}),),
        ("'t4'",),
    ),
    Case(
        DRIVER,
        "aks-autoscaled-from-1-as-the-engine-sends-it",
        (sized(T4_POOL, **{**AUTOSCALED, "minCount": 1.0}),),
        ("minimum node count is at least 1",),
    ),
    Case(DRIVER, "aks-count-not-a-number", (sized(T4_POOL, count="zero"),), ("'t4'",)),
    Case(
        DRIVER,
        "aks-inline-count-2",
        (inline_gpu_pool(count=2),),
        ("'aks/agentPoolProfiles[t4]'",),
    ),
    Case(
        DRIVER,
        "aks-inline-autoscaled-from-2",
        (inline_gpu_pool(count=0, **{**AUTOSCALED, "minCount": 2}),),
        ("'aks/agentPoolProfiles[t4]'",),
    ),
    Case(DRIVER, "ack-desired-size-2", (sized(ACK_A10, desiredSize="2"),), ("'a10'",)),
    Case(DRIVER, "ack-size-missing", (ACK_A10,), ("'a10'",)),
    Case(
        DRIVER,
        "ack-autoscaled-from-1",
        (
            sized(
                ACK_A10,
                desiredSize="0",
                scalingConfig={**ACK_SCALING["scalingConfig"], "minSize": 1},
            ),
        ),
        ("'a10'",),
    ),
    Case(
        DRIVER,
        "ack-sizes-disagree",
        (sized(ACK_A10, desiredSize="1", nodeCount=0),),
        ("'a10'",),
    ),
    Case(DRIVER, "dev-like", dev_like_stack()),
    Case(DRIVER, "cronjob-check", (T4_POOL, driver_check("t4", "CronJob"))),
    Case(DRIVER, "workloads-without-pools", (workload("nvidia.com/gpu"),)),
    Case(DRIVER, "exempt-pool", (T4_POOL,), config={"exemptNames": ["t4"]}),
    Case(
        DRIVER,
        "ack-pool",
        (ack_pool("a10", "mps"), driver_check("a10")),
    ),
    Case(DRIVER, "missing", (T4_POOL,), ("GPU node pool 't4' has no driver check",)),
    # AMD pools: amd-smi, tolerating amd.com/gpu. NVIDIA's check reads no AMD driver.
    Case(DRIVER, "amd-pool", (amd_pool(), amd_driver_check())),
    Case(
        DRIVER,
        "amd-and-nvidia-pools",
        (amd_pool(), T4_POOL, amd_driver_check(), driver_check("t4")),
    ),
    Case(
        DRIVER,
        "amd-pool-with-an-nvidia-check",
        (amd_pool(), driver_check("mi300x")),
        (
            "runs amd-smi on its nodes alone (nodeSelector, e.g. gpu-platform.io/pool: mi300x, "
            "and a amd.com/gpu:NoSchedule toleration)",
        ),
    ),
    Case(
        DRIVER,
        "amd-check-tolerates-nvidia-key",
        (amd_pool(), amd_driver_check(taint_key="nvidia.com/gpu")),
        ("'mi300x' has no driver check",),
    ),
    Case(
        DRIVER,
        "nvidia-pool-with-an-amd-check",
        (T4_POOL, amd_driver_check("t4")),
        ("'t4' has no driver check: no Job or CronJob of the stack runs nvidia-smi",),
    ),
    Case(DRIVER, "ack-missing", (ack_pool("a10", "mps"),), ("'a10'",)),
    Case(DRIVER, "not-tolerated", (T4_POOL, driver_check("t4", tolerate=False)), ("'t4'",)),
    Case(DRIVER, "no-nvidia-smi", (T4_POOL, driver_check("t4", command="true")), ("'t4'",)),
    Case(DRIVER, "other-pool", (T4_POOL, MIG_POOL, driver_check("t4")), ("'a100mig'",)),
    Case(
        DRIVER,
        "a-deployment-is-no-check",
        (T4_POOL, Res("kubernetes:apps/v1:Deployment", "d", driver_check("t4").props)),
        ("'t4'",),
    ),
    Case(
        DRIVER,
        "selector-on-every-pool",
        (T4_POOL, MIG_POOL, driver_check("any", selector={GPU_PRESENT_LABEL: "true"})),
        ("'t4'", "'a100mig'"),
    ),
    Case(DRIVER, "exempt-pool-by-pulumi-name", (T4_POOL,), config={"exemptNames": ["pool-t4"]}),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_violations_point_at_the_pool() -> None:
    assert [urn for _, urn in violations(policy_named(DRIVER), (T4_POOL,))] == [T4_POOL.urn]


def test_walks_the_resources_once() -> None:
    walks_once(DRIVER, many_workloads_stack())


GPU_POOLS = gpu_pools_have_driver_check._gpu_pools


class CountingLabels(Mapping[str, str]):
    """A pool's labels that count every read into a shared counter, by pool."""

    def __init__(self, pool: str, labels: Mapping[str, str], reads: Counter[str]) -> None:
        self._pool, self._labels, self._reads = pool, dict(labels), reads

    def __getitem__(self, key: str) -> str:
        self._reads[self._pool] += 1
        return self._labels[key]

    def __iter__(self) -> Iterator[str]:
        self._reads[self._pool] += 1
        return iter(self._labels)

    def __len__(self) -> int:
        self._reads[self._pool] += 1
        return len(self._labels)


def _label_reads(checks: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], int]:
    """Label reads per pool, and violations, for 20 pools and ``checks`` driver checks."""
    reads: Counter[str] = Counter()

    def counted(resource: PolicyResource) -> Iterator[object]:
        for pool in GPU_POOLS(resource):
            yield replace(pool, labels=CountingLabels(pool.name, pool.labels, reads))

    monkeypatch.setattr(gpu_pools_have_driver_check, "_gpu_pools", counted)
    pools = [aks_pool(f"p{i}") for i in range(20)]
    jobs = [driver_check(f"p{i % 20}") for i in range(checks)]
    jobs = [replace(job, name=f"{job.name}-{i}") for i, job in enumerate(jobs)]
    found = violations(policy_named(DRIVER), (*pools, *jobs))
    return reads, len(found)


def test_driver_check_reads_each_pool_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pools are indexed by label once: more check Jobs do not read any pool's labels again."""
    one_check, one_found = _label_reads(1, monkeypatch)
    many_checks, many_found = _label_reads(200, monkeypatch)
    assert (one_found, many_found) == (19, 0)
    assert set(many_checks) == {f"p{i}" for i in range(20)}
    assert many_checks == one_check


# --- EKS and GKE pools -----------------------------------------------------------------------


def eks_check() -> Res:
    return driver_check("gpu", selector={"eks.amazonaws.com/nodegroup": "gpu"})


def gke_check(pool: str) -> Res:
    return driver_check(pool, selector={"cloud.google.com/gke-nodepool": pool})


GKE_POOL = "gcp:container/nodePool:NodePool"
EKS_GKE_CASES = [
    Case(DRIVER, "eks-min-0", eks()),
    Case(DRIVER, "eks-min-1-checked", (*eks(scalingConfig={"minSize": 1}), eks_check())),
    Case(DRIVER, "gke-checked-by-its-node-pool-label", (*gke(), gke_check("t4"))),
    Case(
        DRIVER,
        "gke-autoscaled-from-0",
        (
            Res(
                "gcp:container/nodePool:NodePool",
                "t4",
                {**gke_props(), "autoscaling": {"minNodeCount": 0}},
            ),
        ),
    ),
    Case(
        DRIVER,
        "eks-min-1-unchecked",
        eks(scalingConfig={"minSize": 1}),
        ("nodeSelector, e.g. eks.amazonaws.com/nodegroup: gpu",),
    ),
    Case(
        DRIVER,
        "pulumi-eks-self-managed-min-1",
        eks_self_managed(),
        ("GPU node pool 'a100' has no driver check",),
    ),
    Case(DRIVER, "gke-unchecked", gke(), ("cloud.google.com/gke-nodepool: t4",)),
    # Minimums as the schemas spell them: pulumi-eks self-managed ``minSize``, a
    # ManagedNodeGroup without ``scalingConfig`` (pulumi-eks defaults minSize to 1), GKE's
    # ``autoscaling.totalMinNodeCount`` and ``initialNodeCount``, a pulumi-eks Cluster's default
    # node group.
    Case(DRIVER, "pulumi-eks-self-managed-min-0", eks_self_managed(minSize=0, desiredCapacity=0)),
    Case(
        DRIVER,
        "pulumi-eks-managed-default-scaling",
        eks(EKS_MANAGED, scalingConfig=None),
        ("nodeSelector, e.g. eks.amazonaws.com/nodegroup: gpu",),
    ),
    Case(
        DRIVER,
        "gke-total-min-0",
        (Res(GKE_POOL, "t4", {**gke_props(), "autoscaling": {"totalMinNodeCount": 0}}),),
    ),
    Case(
        DRIVER,
        "gke-total-min-1-unchecked",
        (Res(GKE_POOL, "t4", {**gke_props(), "autoscaling": {"totalMinNodeCount": 1}}),),
        ("cloud.google.com/gke-nodepool: t4",),
    ),
    Case(
        DRIVER,
        "gke-initial-node-count-0",
        (
            Res(
                GKE_POOL,
                "t4",
                {
                    **{k: v for k, v in gke_props().items() if k != "nodeCount"},
                    "initialNodeCount": 0,
                },
            ),
        ),
    ),
    Case(
        DRIVER,
        "pulumi-eks-cluster-default-group-unchecked",
        eks_cluster(),
        ("GPU node pool 'eks/defaultNodeGroup' has no driver check",),
    ),
    Case(
        DRIVER,
        "pulumi-eks-cluster-default-group-min-0",
        eks_cluster(
            nodeGroupOptions={"instanceType": "g5.xlarge", "minSize": 0, "desiredCapacity": 0}
        ),
    ),
    Case(
        DRIVER,
        "gke-cluster-inline-unchecked",
        (Res("gcp:container/cluster:Cluster", "gke", {"nodePools": [gke_props()]}),),
        ("'gke/nodePools[t4]'",),
    ),
]


@pytest.mark.parametrize("case", EKS_GKE_CASES, ids=lambda c: c.id)
def test_eks_and_gke_pools_need_their_check(case: Case) -> None:
    assert_case(case)


# --- Issue 30: pulumi-azure pools and Karpenter NodePools -------------------------------------

POOL_SHAPE_CASES = [
    Case(
        DRIVER,
        "pulumi-azure-node-count-1-unchecked",
        (Res(AZURE_NODE_POOL, "a100", classic_pool()),),
        ("GPU node pool 'a100mig1g' has no driver check",),
    ),
    Case(
        DRIVER,
        "pulumi-azure-node-count-1-checked",
        (Res(AZURE_NODE_POOL, "a100", classic_pool()), driver_check("a100mig1g")),
    ),
    Case(
        DRIVER,
        "pulumi-azure-autoscaled-from-0",
        (
            Res(
                AZURE_NODE_POOL,
                "a100",
                classic_pool(gpuInstance=None, autoScalingEnabled=True, minCount=0, maxCount=2),
            ),
        ),
    ),
    Case(DRIVER, "karpenter-grows-from-zero", karpenter("eks")),
    Case(
        DRIVER,
        "karpenter-static-pool-unchecked",
        (
            Res(
                "kubernetes:karpenter.sh/v1:NodePool",
                "gpu",
                {
                    **karpenter_pool("aks-nap"),
                    "spec": {**karpenter_pool("aks-nap")["spec"], "replicas": 2},
                },
            ),
        ),
        ("nodeSelector, e.g. karpenter.sh/nodepool: gpu",),
    ),
]


@pytest.mark.parametrize("case", POOL_SHAPE_CASES, ids=lambda c: c.id)
def test_pulumi_azure_and_karpenter_pools(case: Case) -> None:
    assert_case(case)
