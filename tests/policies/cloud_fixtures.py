"""AKS AgentPool, ManagedCluster (agentPoolProfiles) and ACK NodePool/cluster props in the wire
shape, compliant by default; keyword changes make one-field mutations (``None`` drops a key)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .harness import Res

AGENT_POOL = "azure-native:containerservice:AgentPool"
MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
ACK_NODE_POOL = "alicloud:cs/nodePool:NodePool"


def aks_gpu_pool(**changes: Any) -> dict[str, Any]:
    pool: dict[str, Any] = {
        "agentPoolName": "a100",
        "resourceGroupName": "rg",
        "resourceName": "aks",
        "vmSize": "Standard_ND96asr_v4",
        "count": 2,
        "enableAutoScaling": False,
        "osSKU": "Ubuntu",
        "gpuInstanceProfile": "MIG1g",
        "nodeTaints": ["nvidia.com/gpu=present:NoSchedule"],
        "nodeLabels": {"gpu-platform.io/pool": "a100"},
    }
    pool.update(changes)
    return {k: v for k, v in pool.items() if v is not None}


def profile(**changes: Any) -> dict[str, Any]:
    entry = aks_gpu_pool(**changes)
    entry["name"] = entry.pop("agentPoolName")
    del entry["resourceGroupName"], entry["resourceName"]
    return entry


SYSTEM_PROFILE = {
    "name": "system",
    "vmSize": "Standard_D4s_v5",
    "mode": "System",
    "nodeTaints": ["CriticalAddonsOnly=true:NoSchedule"],
}


def cluster(**changes: Any) -> dict[str, Any]:
    props: dict[str, Any] = {
        "resourceGroupName": "rg",
        "dnsPrefix": "aks",
        "agentPoolProfiles": [SYSTEM_PROFILE, profile()],
        "autoUpgradeProfile": {"upgradeChannel": "patch", "nodeOSUpgradeChannel": "NodeImage"},
        "networkProfile": {"networkPlugin": "azure", "networkPolicy": "cilium"},
    }
    props.update(changes)
    return {k: v for k, v in props.items() if v is not None}


def ack_pool(**changes: Any) -> dict[str, Any]:
    props: dict[str, Any] = {
        "clusterId": "c-123",
        "nodePoolName": "a10",
        "instanceTypes": ["ecs.gn7i-c8g1.2xlarge"],
        "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}],
        "labels": [{"key": "gpu-platform.io/pool", "value": "a10"}],
        "desiredSize": "2",
    }
    props.update(changes)
    return props


TERWAY = {"name": "terway-eniip", "config": '{"IPVlan": "false", "NetworkPolicy": "true"}'}


def ack_cluster(addons: Sequence[dict[str, Any]] | None = (TERWAY,)) -> tuple[Res, ...]:
    props: dict[str, Any] = {"name": "ack", "clusterSpec": "ack.pro.small"}
    if addons is not None:
        props["addons"] = list(addons)
    return (Res("alicloud:cs/managedKubernetes:ManagedKubernetes", "ack", props),)


def agent_pool(**changes: Any) -> tuple[Res, ...]:
    return (Res(AGENT_POOL, "a100", aks_gpu_pool(**changes)),)


def managed_cluster(**changes: Any) -> tuple[Res, ...]:
    return (Res(MANAGED_CLUSTER, "aks", cluster(**changes)),)


def in_cluster(**changes: Any) -> tuple[Res, ...]:
    """The GPU pool inline in a ManagedCluster's agentPoolProfiles, with ``changes``."""
    return managed_cluster(agentPoolProfiles=[SYSTEM_PROFILE, profile(**changes)])


def ack(**changes: Any) -> tuple[Res, ...]:
    return (Res(ACK_NODE_POOL, "a10", ack_pool(**changes)),)


T4 = {"vmSize": "Standard_NC4as_T4_v3", "gpuInstanceProfile": None}
NO_TAINT = "lacks the taint nvidia.com/gpu:NoSchedule"
MI300X = {
    "vmSize": "Standard_ND96isr_MI300X_v5",
    "gpuInstanceProfile": None,
    "nodeTaints": ["amd.com/gpu=present:NoSchedule"],
    "gpuProfile": {"driver": "None"},
}
"""An AKS pool of AMD MI300X, tainted with AMD's key as BP-01 asks."""
NO_AMD_TAINT = "(AMD GPUs) lacks the taint amd.com/gpu:NoSchedule"
REPLACE = "mig-pools-replaceable-on-profile-change"
NOT_REPLACEABLE = "neither sets deleteBeforeReplace nor carries its profile in its name"


# --- EKS and GKE, as pulumi-aws, pulumi-eks and pulumi-gcp send them -------------------------

EKS_NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
EKS_SELF_MANAGED = "eks:index:NodeGroupV2"
EKS_MANAGED = "eks:index:ManagedNodeGroup"
GKE_NODE_POOL = "gcp:container/nodePool:NodePool"
GKE_CLUSTER = "gcp:container/cluster:Cluster"
EKS_TAINT_TRUE = {"key": "nvidia.com/gpu", "value": "true", "effect": "NO_SCHEDULE"}
EKS_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}
EKS_AMD_TAINT = {"key": "amd.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}
G4AD = {"instanceTypes": ["g4ad.xlarge"], "amiType": "AL2023_x86_64_STANDARD"}
"""An EKS node group of g4ad.xlarge (1x AMD Radeon Pro V520): a GPU pool by its type alone."""


def eks_props(**changes: Any) -> dict[str, Any]:
    """An EKS managed node group of g5.xlarge (1x A10G), tainted as BP-01 asks."""
    props: dict[str, Any] = {
        "clusterName": "eks",
        "nodeGroupName": "gpu",
        "instanceTypes": ["g5.xlarge"],
        "amiType": "AL2023_x86_64_NVIDIA",
        "taints": [EKS_TAINT],
        "labels": {"workload": "gpu"},
        "scalingConfig": {"desiredSize": 1, "minSize": 0, "maxSize": 2},
    }
    props.update(changes)
    return {k: v for k, v in props.items() if v is not None}


def eks(type_: str = EKS_NODE_GROUP, **changes: Any) -> tuple[Res, ...]:
    return (Res(type_, "gpu", eks_props(**changes)),)


def eks_self_managed(type_: str = EKS_SELF_MANAGED, **changes: Any) -> tuple[Res, ...]:
    """A pulumi-eks self-managed node group (``NodeGroupV2``, or the older ``NodeGroup``): one
    instanceType, ``gpu``, taints as a map."""
    props: dict[str, Any] = {
        "instanceType": "p4d.24xlarge",
        "gpu": True,
        "taints": {"nvidia.com/gpu": {"value": "present", "effect": "NoSchedule"}},
        "minSize": 1,
        "desiredCapacity": 1,
    }
    props.update(changes)
    return (Res(type_, "a100", {k: v for k, v in props.items() if v is not None}),)


EKS_CLUSTER = "eks:index:Cluster"


def eks_cluster(**changes: Any) -> tuple[Res, ...]:
    """A pulumi-eks ``Cluster`` whose default node group is GPU: ``nodeGroupOptions`` as the
    ``ClusterNodeGroupOptions`` shape (``instanceType``, ``gpu``, taints as a map, ``minSize``)."""
    options: dict[str, Any] = {
        "instanceType": "g5.xlarge",
        "gpu": True,
        "taints": {"nvidia.com/gpu": {"value": "present", "effect": "NoSchedule"}},
        "minSize": 1,
        "desiredCapacity": 1,
    }
    props: dict[str, Any] = {"nodeGroupOptions": options}
    props.update(changes)
    return (Res(EKS_CLUSTER, "eks", {k: v for k, v in props.items() if v is not None}),)


def gke_props(**node_config: Any) -> dict[str, Any]:
    """A GKE node pool of n1-standard-8 with one T4 per node, untainted (GKE taints it)."""
    config: dict[str, Any] = {
        "machineType": "n1-standard-8",
        "guestAccelerators": [{"type": "nvidia-tesla-t4", "count": 1}],
    }
    config.update(node_config)
    return {
        "name": "t4",
        "cluster": "gke",
        "nodeCount": 1,
        "nodeConfig": {k: v for k, v in config.items() if v is not None},
    }


def gke(**node_config: Any) -> tuple[Res, ...]:
    return (Res(GKE_NODE_POOL, "t4", gke_props(**node_config)),)


# --- Issue 30: the other ways teams write GPU pools ------------------------------------------


def versioned(type_: str, api_version: str) -> str:
    """azure-native's token at an explicit API version, as a local SDK writes it
    (``pulumi package add azure-native containerservice 2025-08-01``)."""
    module, kind = type_.rsplit(":", 1)
    return f"{module}/v{api_version.replace('-', '')}:{kind}"


AZURE_NODE_POOL = "azure:containerservice/kubernetesClusterNodePool:KubernetesClusterNodePool"
AZURE_CLUSTER = "azure:containerservice/kubernetesCluster:KubernetesCluster"


def classic_pool(**changes: Any) -> dict[str, Any]:
    """A pulumi-azure ``KubernetesClusterNodePool`` of ND96asr_v4 (8x A100) with MIG1g, tainted
    as BP-01 asks, in the wire shape (camelCase) pulumi-azure v6 sends."""
    props: dict[str, Any] = {
        "name": "a100mig1g",
        "kubernetesClusterId": "/subscriptions/0/resourceGroups/rg/providers/aks",
        "vmSize": "Standard_ND96asr_v4",
        "nodeCount": 1,
        "autoScalingEnabled": False,
        "osSku": "Ubuntu",
        "gpuInstance": "MIG1g",
        "nodeTaints": ["nvidia.com/gpu=present:NoSchedule"],
        "nodeLabels": {"gpu-platform.io/pool": "a100mig1g"},
        "mode": "User",
    }
    props.update(changes)
    return {k: v for k, v in props.items() if v is not None}


def classic_cluster(**changes: Any) -> dict[str, Any]:
    """A pulumi-azure ``KubernetesCluster`` with a CPU default pool and a network policy."""
    props: dict[str, Any] = {
        "resourceGroupName": "rg",
        "dnsPrefix": "aks",
        "defaultNodePool": {"name": "system", "vmSize": "Standard_D4s_v5", "nodeCount": 2},
        "networkProfile": {"networkPlugin": "azure", "networkPolicy": "cilium"},
        "identity": {"type": "SystemAssigned"},
    }
    props.update(changes)
    return {k: v for k, v in props.items() if v is not None}


KARPENTER_NODE_POOL = "kubernetes:karpenter.sh/v1:NodePool"
KARPENTER_GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
NODE_CLASSES: dict[str, dict[str, str]] = {
    "eks": {"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "gpu"},
    "eks-auto": {"group": "eks.amazonaws.com", "kind": "NodeClass", "name": "default"},
    "aks-nap": {"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "gpu"},
}
"""Each Karpenter flavour's ``nodeClassRef``: Karpenter on EKS, EKS Auto Mode, AKS NAP."""
KARPENTER_GPU_REQUIREMENTS: dict[str, list[dict[str, Any]]] = {
    "eks": [
        {"key": "karpenter.k8s.aws/instance-family", "operator": "In", "values": ["g5", "g6"]},
        {"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["on-demand"]},
    ],
    "eks-auto": [
        {"key": "eks.amazonaws.com/instance-gpu-count", "operator": "Gt", "values": ["0"]},
        {
            "key": "eks.amazonaws.com/instance-gpu-manufacturer",
            "operator": "In",
            "values": ["nvidia"],
        },
    ],
    "aks-nap": [
        {
            "key": "karpenter.azure.com/sku-name",
            "operator": "In",
            "values": ["Standard_NC24ads_A100_v4"],
        },
    ],
}
"""How each flavour's GPU NodePool asks for GPU instances: an EC2 family of the catalog, Auto
Mode's GPU-count and manufacturer labels, an Azure VM size of the catalog."""


def karpenter_pool(flavour: str = "eks", name: str = "gpu", **spec_changes: Any) -> dict[str, Any]:
    """A Karpenter GPU NodePool (``karpenter.sh/v1``), tainted as BP-01 asks; ``taints`` and
    ``startupTaints`` among ``spec_changes`` replace the template's."""
    template_spec: dict[str, Any] = {
        "nodeClassRef": NODE_CLASSES[flavour],
        "requirements": KARPENTER_GPU_REQUIREMENTS[flavour],
        "taints": [KARPENTER_GPU_TAINT],
    }
    template_spec.update(spec_changes)
    template = {
        "metadata": {"labels": {"gpu-platform.io/pool": name}},
        "spec": {k: v for k, v in template_spec.items() if v is not None},
    }
    return {
        "apiVersion": "karpenter.sh/v1",
        "kind": "NodePool",
        "metadata": {"name": name},
        "spec": {"template": template, "limits": {"nvidia.com/gpu": 8}},
    }


def karpenter(flavour: str = "eks", **spec_changes: Any) -> tuple[Res, ...]:
    return (Res(KARPENTER_NODE_POOL, f"{flavour}-gpu", karpenter_pool(flavour, **spec_changes)),)
