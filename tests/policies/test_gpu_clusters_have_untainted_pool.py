"""gpu-clusters-have-untainted-pool: an AKS, ACK or EKS cluster with GPU pools (Karpenter
NodePools and pulumi-azure pools included) has a pool that takes pods without tolerations."""

from __future__ import annotations

from typing import Any

import pytest

from .cloud_fixtures import (
    ACK_NODE_POOL,
    AGENT_POOL,
    AZURE_CLUSTER,
    AZURE_NODE_POOL,
    MANAGED_CLUSTER,
    SYSTEM_PROFILE,
    ack_cluster,
    ack_pool,
    aks_gpu_pool,
    classic_cluster,
    classic_pool,
    cluster,
    karpenter,
    karpenter_pool,
    profile,
    versioned,
)
from .harness import Case, Res, assert_case, policy_named, violations
from .stack_fixtures import many_namespaces_stack, walks_once

UNTAINTED = "gpu-clusters-have-untainted-pool"
NEVER = "never schedules"


def aks_cpu_pool(name: str = "general", **changes: Any) -> dict[str, Any]:
    """A user AgentPool of D4ds_v5 nodes without taints, as AksCpuNodePool sends it."""
    props: dict[str, Any] = {
        "agentPoolName": name,
        "resourceGroupName": "rg",
        "resourceName": "aks",
        "vmSize": "Standard_D4ds_v5",
        "mode": "User",
        "nodeTaints": [],
        "enableAutoScaling": True,
        "minCount": 1,
        "maxCount": 3,
    }
    props.update(changes)
    return props


def aks(*pools: Res, **cluster_changes: Any) -> tuple[Res, ...]:
    """A ManagedCluster with its tainted system pool only, and ``pools`` joined to it."""
    managed = Res(
        MANAGED_CLUSTER, "aks", cluster(agentPoolProfiles=[SYSTEM_PROFILE], **cluster_changes)
    )
    return (managed, *pools)


GPU_POOL = Res(AGENT_POOL, "a100", aks_gpu_pool(), depends_on=("aks",))
CPU_POOL = Res(AGENT_POOL, "general", aks_cpu_pool(), depends_on=("aks",))
ACK_SYSTEM = Res(
    ACK_NODE_POOL,
    "system",
    {"clusterId": "c-123", "nodePoolName": "system", "instanceTypes": ["ecs.g7.xlarge"]},
    depends_on=("ack",),
)
ACK_GPU = Res(ACK_NODE_POOL, "a10", ack_pool(), depends_on=("ack",))

CASES: list[Case] = [
    Case(UNTAINTED, "aks-cpu-pool", aks(GPU_POOL, CPU_POOL)),
    Case(
        UNTAINTED,
        "aks-untainted-system-pool",
        (
            Res(
                MANAGED_CLUSTER,
                "aks",
                cluster(agentPoolProfiles=[{**SYSTEM_PROFILE, "nodeTaints": []}, profile()]),
            ),
        ),
    ),
    Case(
        UNTAINTED,
        "prefer-no-schedule-only-steers",
        aks(
            GPU_POOL,
            Res(
                AGENT_POOL,
                "soft",
                aks_cpu_pool("soft", nodeTaints=["batch=true:PreferNoSchedule"]),
                depends_on=("aks",),
            ),
        ),
    ),
    Case(UNTAINTED, "no-gpu-pool", aks(CPU_POOL)),
    Case(UNTAINTED, "cluster-in-another-stack", (GPU_POOL,)),
    Case(
        UNTAINTED,
        "aks-node-auto-provisioning",
        aks(GPU_POOL, nodeProvisioningProfile={"mode": "Auto"}),
    ),
    Case(UNTAINTED, "ack-untainted-system-pool", (*ack_cluster(), ACK_SYSTEM, ACK_GPU)),
    Case(
        UNTAINTED,
        "aks-gpu-agent-pool-beside-tainted-system",
        aks(GPU_POOL),
        (
            "GPU pools (a100) and no pool without NoSchedule or NoExecute taints "
            "(aks/agentPoolProfiles[system]: CriticalAddonsOnly=true:NoSchedule; "
            "a100: nvidia.com/gpu=present:NoSchedule)",
        ),
    ),
    Case(
        UNTAINTED,
        "aks-gpu-pool-inline",
        (Res(MANAGED_CLUSTER, "aks", cluster()),),
        ("GPU pools (aks/agentPoolProfiles[a100])",),
    ),
    Case(
        UNTAINTED,
        "cpu-pool-tainted-no-execute",
        aks(
            GPU_POOL,
            Res(
                AGENT_POOL,
                "general",
                aks_cpu_pool(nodeTaints=["dedicated=ingress:NoExecute"]),
                depends_on=("aks",),
            ),
        ),
        ("general: dedicated=ingress:NoExecute",),
    ),
    Case(UNTAINTED, "ack-gpu-pool-only", (*ack_cluster(), ACK_GPU), (NEVER,)),
    Case(
        UNTAINTED,
        "ack-system-pool-tainted",
        (
            *ack_cluster(),
            Res(
                ACK_NODE_POOL,
                "system",
                {
                    **ACK_SYSTEM.props,
                    "taints": [
                        {"key": "CriticalAddonsOnly", "value": "true", "effect": "NoSchedule"}
                    ],
                },
                depends_on=("ack",),
            ),
            ACK_GPU,
        ),
        ("system: CriticalAddonsOnly=true:NoSchedule",),
    ),
    # Issue 30: the other ways to write clusters and pools.
    Case(
        UNTAINTED,
        "versioned-cluster-gpu-pool-beside-tainted-system",
        tuple(
            Res(versioned(r.type, "2025-08-01"), r.name, r.props, r.depends_on)
            for r in aks(GPU_POOL)
        ),
        ("GPU pools (a100) and no pool without NoSchedule or NoExecute taints",),
    ),
    Case(
        UNTAINTED,
        "pulumi-azure-cpu-default-pool",
        (
            Res(AZURE_CLUSTER, "aks", classic_cluster()),
            Res(AZURE_NODE_POOL, "a100", classic_pool()),
        ),
    ),
    Case(
        UNTAINTED,
        "pulumi-azure-critical-addons-default-pool",
        (
            Res(
                AZURE_CLUSTER,
                "aks",
                classic_cluster(
                    defaultNodePool={
                        "name": "system",
                        "vmSize": "Standard_D4s_v5",
                        "onlyCriticalAddonsEnabled": True,
                    }
                ),
            ),
            Res(AZURE_NODE_POOL, "a100", classic_pool()),
        ),
        ("aks/defaultNodePool[system]: CriticalAddonsOnly=true:NoSchedule; a100mig1g:",),
    ),
    Case(
        UNTAINTED,
        "aks-nap-without-default-pools",
        (
            *aks(nodeProvisioningProfile={"mode": "Auto", "defaultNodePools": "None"}),
            *karpenter("aks-nap"),
        ),
        ("GPU pools (gpu) and no pool without NoSchedule",),
    ),
    Case(
        UNTAINTED,
        "aks-nap-without-default-pools-cpu-node-pool",
        (
            *aks(nodeProvisioningProfile={"mode": "Auto", "defaultNodePools": "None"}),
            *karpenter("aks-nap"),
            Res(
                "kubernetes:karpenter.sh/v1:NodePool",
                "general",
                karpenter_pool(
                    "aks-nap",
                    name="general",
                    taints=None,
                    requirements=[
                        {"key": "karpenter.azure.com/sku-family", "operator": "In", "values": ["D"]}
                    ],
                ),
            ),
        ),
    ),
    Case(
        UNTAINTED,
        "eks-auto-mode-general-purpose",
        (
            Res(
                "aws:eks/cluster:Cluster",
                "eks",
                {"computeConfig": {"enabled": True, "nodePools": ["system", "general-purpose"]}},
            ),
            *karpenter("eks-auto"),
        ),
    ),
    Case(
        UNTAINTED,
        "eks-auto-mode-system-pool-only",
        (
            Res(
                "aws:eks/cluster:Cluster",
                "eks",
                {"computeConfig": {"enabled": True, "nodePools": ["system"]}},
            ),
            *karpenter("eks-auto"),
        ),
        ("Cluster 'eks' has GPU pools (gpu)",),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_each_cluster_is_judged_by_its_own_pools() -> None:
    """Two clusters: the CPU pool of one does not serve the other."""
    other = Res(MANAGED_CLUSTER, "other", cluster(agentPoolProfiles=[SYSTEM_PROFILE]))
    other_gpu = Res(AGENT_POOL, "other-a100", aks_gpu_pool(), depends_on=("other",))
    found = violations(policy_named(UNTAINTED), (*aks(GPU_POOL, CPU_POOL), other, other_gpu))
    assert [urn for _, urn in found] == [other.urn]


def test_an_exempt_cluster_is_skipped() -> None:
    assert violations(policy_named(UNTAINTED), aks(GPU_POOL), {"exemptNames": ["aks"]}) == []


def test_walks_the_resources_once() -> None:
    walks_once(UNTAINTED, many_namespaces_stack())
