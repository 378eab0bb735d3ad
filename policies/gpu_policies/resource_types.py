"""Pulumi type tokens the policies look at."""

from __future__ import annotations

AKS_AGENT_POOL = "azure-native:containerservice:AgentPool"
AKS_MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
ACK_NODE_POOL = "alicloud:cs/nodePool:NodePool"
ACK_MANAGED_CLUSTER = "alicloud:cs/managedKubernetes:ManagedKubernetes"
EKS_NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
"""An EKS managed node group (pulumi-aws)."""
PULUMI_EKS_NODE_GROUPS: frozenset[str] = frozenset(
    {"eks:index:NodeGroup", "eks:index:NodeGroupV2", "eks:index:ManagedNodeGroup"}
)
"""pulumi-eks node group components: self-managed (``instanceType``, ``gpu``, ``taints`` as a
map) and managed (``instanceTypes``, ``amiType``, ``taints`` as a list, like EKS's own)."""
GKE_NODE_POOL = "gcp:container/nodePool:NodePool"
GKE_CLUSTER = "gcp:container/cluster:Cluster"
POOL_TYPES: tuple[str, ...] = (
    AKS_AGENT_POOL,
    AKS_MANAGED_CLUSTER,
    ACK_NODE_POOL,
    EKS_NODE_GROUP,
    *sorted(PULUMI_EKS_NODE_GROUPS),
    GKE_NODE_POOL,
    GKE_CLUSTER,
)
"""Every resource type that declares node pools."""

NAMESPACE = "kubernetes:core/v1:Namespace"
NETWORK_POLICY = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
RESOURCE_QUOTA = "kubernetes:core/v1:ResourceQuota"
STORAGE_CLASS = "kubernetes:storage.k8s.io/v1:StorageClass"
PERSISTENT_VOLUME_CLAIM = "kubernetes:core/v1:PersistentVolumeClaim"
HELM_RELEASES: frozenset[str] = frozenset(
    {"kubernetes:helm.sh/v3:Release", "kubernetes:helm.sh/v4:Chart"}
)
"""Helm releases: the v3 Release resource and the v4 Chart component."""
DAEMON_SET = "kubernetes:apps/v1:DaemonSet"
