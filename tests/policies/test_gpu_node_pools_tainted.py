"""gpu-node-pools-tainted: AKS AgentPool (any API version), agentPoolProfiles, pulumi-azure node
pools and default pools, ACK NodePool, EKS and GKE pools, and Karpenter NodePools."""

from __future__ import annotations

import pytest

from .cloud_fixtures import (
    AGENT_POOL,
    AZURE_CLUSTER,
    AZURE_NODE_POOL,
    EKS_AMD_TAINT,
    EKS_MANAGED,
    EKS_TAINT,
    EKS_TAINT_TRUE,
    G4AD,
    GKE_CLUSTER,
    MI300X,
    NO_AMD_TAINT,
    NO_TAINT,
    T4,
    ack,
    agent_pool,
    aks_gpu_pool,
    classic_cluster,
    classic_pool,
    eks,
    eks_cluster,
    eks_self_managed,
    gke,
    gke_props,
    in_cluster,
    karpenter,
    managed_cluster,
    versioned,
)
from .harness import Case, Res, assert_case, messages

POLICY = "gpu-node-pools-tainted"

CASES: list[Case] = [
    # BP-01: taints.
    Case("gpu-node-pools-tainted", "agent-pool", agent_pool()),
    Case("gpu-node-pools-tainted", "cluster-profiles", managed_cluster()),
    Case("gpu-node-pools-tainted", "ack", ack()),
    Case(
        "gpu-node-pools-tainted",
        "cpu-pool-untainted",
        agent_pool(vmSize="Standard_D4s_v5", nodeTaints=[], gpuInstanceProfile=None),
    ),
    Case("gpu-node-pools-tainted", "ack-cpu-pool", ack(instanceTypes=["ecs.g7.xlarge"], taints=[])),
    Case("gpu-node-pools-tainted", "agent-pool-no-taint", agent_pool(nodeTaints=None), (NO_TAINT,)),
    Case(
        "gpu-node-pools-tainted",
        "agent-pool-wrong-effect",
        agent_pool(nodeTaints=["nvidia.com/gpu=present:PreferNoSchedule"]),
        (NO_TAINT,),
    ),
    Case(
        "gpu-node-pools-tainted",
        "agent-pool-other-key",
        agent_pool(**T4, nodeTaints=["sku=gpu:NoSchedule"]),
        ("sku=gpu:NoSchedule",),
    ),
    Case(
        "gpu-node-pools-tainted",
        "agent-pool-wrong-value",
        agent_pool(nodeTaints=["nvidia.com/gpu=true:NoSchedule"]),
        ("not 'present'",),
    ),
    Case(
        "gpu-node-pools-tainted",
        "case-insensitive-vm-size",
        agent_pool(vmSize="standard_nd96asr_v4", nodeTaints=[]),
        (NO_TAINT,),
    ),
    Case(
        "gpu-node-pools-tainted",
        "cluster-profile-no-taint",
        in_cluster(nodeTaints=[]),
        ("aks/agentPoolProfiles[a100]",),
    ),
    Case("gpu-node-pools-tainted", "ack-no-taint", ack(taints=[]), (NO_TAINT,)),
    Case(
        "gpu-node-pools-tainted",
        "ack-mixed-types",
        ack(instanceTypes=["ecs.g7.xlarge", "ecs.gn7i-c8g1.2xlarge"], taints=[]),
        (NO_TAINT,),
    ),
    # AMD pools carry AMD's key; NVIDIA's key does not do.
    Case("gpu-node-pools-tainted", "amd-agent-pool", agent_pool(**MI300X)),
    Case(
        "gpu-node-pools-tainted",
        "amd-agent-pool-nvidia-key",
        agent_pool(**{**MI300X, "nodeTaints": ["nvidia.com/gpu=present:NoSchedule"]}),
        (
            "(AMD GPUs) lacks the taint amd.com/gpu:NoSchedule (taints: "
            "nvidia.com/gpu=present:NoSchedule). Fix: Add 'amd.com/gpu=present:NoSchedule'",
        ),
    ),
    Case(
        "gpu-node-pools-tainted",
        "amd-cluster-profile-no-taint",
        in_cluster(**{**MI300X, "nodeTaints": []}),
        (NO_AMD_TAINT,),
    ),
    Case(
        "gpu-node-pools-tainted",
        "ack-wrong-effect",
        ack(taints=[{"key": "nvidia.com/gpu", "value": "present", "effect": "NoExecute"}]),
        (NO_TAINT,),
    ),
]
"""Every case of the policy, declared for the meta-test (with ``POOL_SHAPE_CASES`` below)."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_required_taint_value_can_be_relaxed() -> None:
    case = Case(
        "gpu-node-pools-tainted",
        "any-value",
        agent_pool(nodeTaints=["nvidia.com/gpu=true:NoSchedule"]),
        config={"requiredTaintValue": ""},
    )
    assert messages(case) == []
    assert (
        messages(
            Case(
                "gpu-node-pools-tainted",
                "key-only",
                agent_pool(nodeTaints=["nvidia.com/gpu:NoSchedule"]),
                config={"requiredTaintValue": ""},
            )
        )
        == []
    )


def test_cloud_pool_exempt_by_name_only() -> None:
    pool = Res("azure-native:containerservice:AgentPool", "a100", {"vmSize": "Standard_ND96asr_v4"})
    assert len(messages(Case("gpu-node-pools-tainted", "x", (pool,)))) == 1
    assert (
        messages(Case("gpu-node-pools-tainted", "x", (pool,), config={"exemptNames": ["a100"]}))
        == []
    )


# --- EKS and GKE GPU pools ------------------------------------------------------------------

EKS_GKE_CASES = [
    # G4ad: AMD Radeon Pro V520, a GPU pool by its instance type (no AMI type carries AMD's
    # driver), tainted with AMD's key.
    Case(POLICY, "eks-g4ad-amd-tainted", eks(**G4AD, taints=[EKS_AMD_TAINT])),
    Case(
        POLICY,
        "eks-g4ad-nvidia-key",
        eks(**G4AD, taints=[EKS_TAINT]),
        (
            "lacks the taint amd.com/gpu:NoSchedule (taints: nvidia.com/gpu=present:NoSchedule). "
            "Fix: Add a taint {key: amd.com/gpu, value: present, effect: NO_SCHEDULE}",
        ),
    ),
    Case(POLICY, "eks-managed-tainted", eks()),
    Case(POLICY, "pulumi-eks-managed-tainted", eks(EKS_MANAGED)),
    Case(POLICY, "pulumi-eks-self-managed-map-taint", eks_self_managed()),
    Case(POLICY, "pulumi-eks-v1-node-group", eks_self_managed("eks:index:NodeGroup")),
    Case(
        POLICY,
        "pulumi-eks-v1-node-group-untainted",
        eks_self_managed("eks:index:NodeGroup", taints=None),
        ("GPU node pool 'a100' (p4d.24xlarge) lacks",),
    ),
    Case(
        POLICY,
        "eks-cpu-group",
        eks(instanceTypes=["m5.xlarge"], amiType="AL2023_x86_64_STANDARD", taints=None),
    ),
    Case(POLICY, "gke-untainted-gpu-pool", gke()),
    Case(
        POLICY, "gke-a2-machine-untainted", gke(machineType="a2-highgpu-1g", guestAccelerators=None)
    ),
    Case(
        POLICY,
        "gke-cluster-inline-pools",
        (Res(GKE_CLUSTER, "gke", {"nodePools": [gke_props()]}),),
    ),
    Case(POLICY, "eks-untainted", eks(taints=None), ("GPU node pool 'gpu' (g5.xlarge) lacks",)),
    Case(
        POLICY,
        "eks-prefer-no-schedule",
        eks(taints=[{**EKS_TAINT, "effect": "PREFER_NO_SCHEDULE"}]),
        (NO_TAINT,),
    ),
    Case(
        POLICY,
        "eks-accelerated-ami-unknown-type",
        eks(instanceTypes=["x9.huge"], taints=None),
        ("(x9.huge) lacks",),
    ),
    Case(
        POLICY,
        "pulumi-eks-gpu-flag",
        eks_self_managed(instanceType="x9.huge", taints=None),
        (NO_TAINT,),
    ),
    # Shapes the schemas allow: pulumi-eks ManagedNodeGroup's own ``gpu`` flag (newer
    # releases), the Bottlerocket NVIDIA FIPS AMI types, GKE's upper-case effects, and the
    # default node group of a pulumi-eks Cluster (nodeGroupOptions, or its own options).
    Case(
        POLICY,
        "pulumi-eks-managed-gpu-flag",
        eks(EKS_MANAGED, instanceTypes=["x9.huge"], amiType=None, gpu=True, taints=None),
        ("GPU node pool 'gpu' (x9.huge) lacks",),
    ),
    Case(
        POLICY,
        "eks-bottlerocket-nvidia-fips",
        eks(instanceTypes=["x9.huge"], amiType="BOTTLEROCKET_x86_64_NVIDIA_FIPS", taints=None),
        ("(x9.huge) lacks",),
    ),
    Case(
        POLICY,
        "gke-upper-case-taint-skipped",
        gke(taints=[{"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}]),
    ),
    Case(POLICY, "pulumi-eks-cluster-default-group-tainted", eks_cluster()),
    Case(
        POLICY,
        "pulumi-eks-cluster-default-group-untainted",
        eks_cluster(nodeGroupOptions={"instanceType": "g5.xlarge", "gpu": True}),
        ("GPU node pool 'eks/defaultNodeGroup' (g5.xlarge) lacks",),
    ),
    Case(
        POLICY,
        "pulumi-eks-cluster-own-options",
        eks_cluster(nodeGroupOptions=None, instanceType="p4d.24xlarge"),
        ("GPU node pool 'eks/defaultNodeGroup' (p4d.24xlarge) lacks",),
    ),
    Case(
        POLICY,
        "pulumi-eks-cluster-skips-default-group",
        eks_cluster(nodeGroupOptions=None, instanceType="p4d.24xlarge", skipDefaultNodeGroup=True),
    ),
    Case(
        POLICY,
        "pulumi-eks-cluster-fargate",
        eks_cluster(nodeGroupOptions=None, instanceType="p4d.24xlarge", fargate=True),
    ),
    Case(POLICY, "pulumi-eks-cluster-cpu-default-group", eks_cluster(nodeGroupOptions=None)),
    Case(POLICY, "eks-true-value", eks(taints=[EKS_TAINT_TRUE]), ("not 'present'",)),
    Case(
        POLICY,
        "eks-true-value-configured",
        eks(taints=[EKS_TAINT_TRUE]),
        config={"requiredTaintValue": "true"},
    ),
]


@pytest.mark.parametrize("case", EKS_GKE_CASES, ids=lambda c: c.id)
def test_eks_and_gke_gpu_pools(case: Case) -> None:
    assert_case(case)


# --- Issue 30: pulumi-azure, azure-native at any API version, Karpenter NodePools ----------

AKS_NAP_NO_TAINT = (
    "GPU node pool 'gpu' (Standard_NC24ads_A100_v4) lacks the taint nvidia.com/gpu:NoSchedule "
    "(taints: none). Fix: Add {key: nvidia.com/gpu, value: present, effect: NoSchedule} to the "
    "NodePool's spec.template.spec.taints."
)
POOL_SHAPE_CASES = [
    Case(
        POLICY,
        "azure-native-versioned-tainted",
        (Res(versioned(AGENT_POOL, "2025-08-01"), "a100", aks_gpu_pool()),),
    ),
    Case(
        POLICY,
        "azure-native-versioned-untainted",
        (Res(versioned(AGENT_POOL, "2024-02-02-preview"), "a100", aks_gpu_pool(nodeTaints=None)),),
        ("GPU node pool 'a100' (Standard_ND96asr_v4) lacks the taint",),
    ),
    Case(
        POLICY,
        "azure-native-versioned-cluster-profile-untainted",
        tuple(
            Res(versioned(r.type, "2023-04-01"), r.name, r.props) for r in in_cluster(nodeTaints=[])
        ),
        ("aks/agentPoolProfiles[a100]",),
    ),
    Case(POLICY, "pulumi-azure-pool-tainted", (Res(AZURE_NODE_POOL, "a100", classic_pool()),)),
    Case(
        POLICY,
        "pulumi-azure-pool-untainted",
        (Res(AZURE_NODE_POOL, "a100", classic_pool(nodeTaints=None)),),
        (
            "GPU node pool 'a100mig1g' (Standard_ND96asr_v4) lacks the taint "
            "nvidia.com/gpu:NoSchedule (taints: none). Fix: Add "
            "'nvidia.com/gpu=present:NoSchedule' to the pool's nodeTaints.",
        ),
    ),
    Case(POLICY, "pulumi-azure-cpu-default-pool", (Res(AZURE_CLUSTER, "aks", classic_cluster()),)),
    Case(
        POLICY,
        "pulumi-azure-gpu-default-pool",
        (
            Res(
                AZURE_CLUSTER,
                "aks",
                classic_cluster(
                    defaultNodePool={
                        "name": "gpu",
                        "vmSize": "Standard_NC4as_T4_v3",
                        "onlyCriticalAddonsEnabled": True,
                    }
                ),
            ),
        ),
        (
            "GPU node pool 'aks/defaultNodePool[gpu]' (Standard_NC4as_T4_v3) lacks the taint "
            "nvidia.com/gpu:NoSchedule (taints: CriticalAddonsOnly=true:NoSchedule). Fix: "
            "pulumi-azure's default_node_pool takes no taints",
        ),
    ),
    Case(POLICY, "karpenter-eks-tainted", karpenter("eks")),
    Case(POLICY, "karpenter-eks-auto-mode-tainted", karpenter("eks-auto")),
    Case(POLICY, "karpenter-aks-nap-tainted", karpenter("aks-nap")),
    Case(
        POLICY,
        "karpenter-startup-taint-only",
        karpenter(
            "eks",
            taints=None,
            startupTaints=[{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}],
        ),
        (
            "GPU node pool 'gpu' (g5.12xlarge, g5.16xlarge, g5.24xlarge, ...) lacks the taint "
            "nvidia.com/gpu:NoSchedule (taints: none). Fix: Add {key: nvidia.com/gpu, value: "
            "present, effect: NoSchedule} to the NodePool's spec.template.spec.taints.",
        ),
    ),
    Case(
        POLICY,
        "karpenter-gpu-count-gte-untainted",
        karpenter(
            "eks",
            taints=None,
            requirements=[
                {
                    "key": "karpenter.k8s.aws/instance-gpu-count",
                    "operator": "Gte",
                    "values": ["1"],
                }
            ],
        ),
        ("GPU node pool 'gpu' (GPU instances) lacks the taint nvidia.com/gpu:NoSchedule",),
    ),
    Case(
        POLICY,
        "karpenter-gpu-count-gte-tainted",
        karpenter(
            "eks",
            requirements=[
                {
                    "key": "karpenter.k8s.aws/instance-gpu-count",
                    "operator": "Gte",
                    "values": ["1"],
                }
            ],
        ),
    ),
    Case(
        POLICY,
        "karpenter-cpu-pool-untainted",
        karpenter(
            "eks",
            taints=None,
            requirements=[
                {"key": "karpenter.k8s.aws/instance-category", "operator": "In", "values": ["m"]}
            ],
        ),
    ),
    Case(
        POLICY,
        "karpenter-eks-untainted",
        karpenter("eks", taints=None),
        ("GPU node pool 'gpu' (g5.12xlarge, g5.16xlarge, g5.24xlarge, ...) lacks the taint",),
    ),
    Case(
        POLICY,
        "karpenter-eks-auto-mode-untainted",
        karpenter("eks-auto", taints=[{"key": "dedicated", "value": "ml", "effect": "NoSchedule"}]),
        (
            "GPU node pool 'gpu' (GPU instances) lacks the taint nvidia.com/gpu:NoSchedule "
            "(taints: dedicated=ml:NoSchedule)",
        ),
    ),
    Case(
        POLICY,
        "karpenter-aks-nap-untainted",
        karpenter("aks-nap", taints=None),
        (AKS_NAP_NO_TAINT,),
    ),
    Case(
        POLICY,
        "karpenter-amd-by-manufacturer",
        karpenter(
            "eks-auto",
            requirements=[
                {
                    "key": "eks.amazonaws.com/instance-gpu-manufacturer",
                    "operator": "In",
                    "values": ["amd"],
                }
            ],
        ),
        ("(AMD GPUs) lacks the taint amd.com/gpu:NoSchedule",),
    ),
]


@pytest.mark.parametrize("case", POOL_SHAPE_CASES, ids=lambda c: c.id)
def test_every_way_to_write_a_gpu_pool(case: Case) -> None:
    assert_case(case)
