"""Pulumi type tokens the policies look at."""

from __future__ import annotations

AKS_AGENT_POOL = "azure-native:containerservice:AgentPool"
AKS_MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
ACK_NODE_POOL = "alicloud:cs/nodePool:NodePool"
ACK_MANAGED_CLUSTER = "alicloud:cs/managedKubernetes:ManagedKubernetes"

NAMESPACE = "kubernetes:core/v1:Namespace"
NETWORK_POLICY = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
RESOURCE_QUOTA = "kubernetes:core/v1:ResourceQuota"
STORAGE_CLASS = "kubernetes:storage.k8s.io/v1:StorageClass"
PERSISTENT_VOLUME_CLAIM = "kubernetes:core/v1:PersistentVolumeClaim"
HELM_RELEASES: frozenset[str] = frozenset(
    {"kubernetes:helm.sh/v3:Release", "kubernetes:helm.sh/v4:Chart"}
)
"""Helm releases: the v3 Release resource and the v4 Chart component."""
