"""Pulumi type tokens the policies look at."""

from __future__ import annotations

AKS_AGENT_POOL = "azure-native:containerservice:AgentPool"
AKS_MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
ACK_NODE_POOL = "alicloud:cs/nodePool:NodePool"
ACK_MANAGED_CLUSTER = "alicloud:cs/managedKubernetes:ManagedKubernetes"
ACK_ADDON = "alicloud:cs/kubernetesAddon:KubernetesAddon"
"""An ACK cluster add-on installed on its own (``name``, ``clusterId``, ``version``)."""
EKS_NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
"""An EKS managed node group (pulumi-aws)."""
PULUMI_EKS_NODE_GROUPS: frozenset[str] = frozenset(
    {"eks:index:NodeGroup", "eks:index:NodeGroupV2", "eks:index:ManagedNodeGroup"}
)
"""pulumi-eks node group components: self-managed ``NodeGroup`` / ``NodeGroupV2``
(``instanceType``, ``gpu``, ``taints`` as a map of key to ``{value, effect}``, ``minSize``,
``desiredCapacity``) and ``ManagedNodeGroup`` (``aws.eks.NodeGroup``'s ``instanceTypes``,
``amiType``, ``taints`` as a list of ``{key, value, effect}``, ``scalingConfig``; newer releases
also ``gpu``). Checked against pulumi-eks's ``schema.json`` and its Python SDK."""
PULUMI_EKS_MANAGED_NODE_GROUP = "eks:index:ManagedNodeGroup"
PULUMI_EKS_CLUSTER = "eks:index:Cluster"
"""pulumi-eks cluster: unless ``skipDefaultNodeGroup`` (or ``fargate``), it creates a default
self-managed node group from ``nodeGroupOptions`` or its own ``instanceType``, ``gpu``,
``minSize`` and ``desiredCapacity`` (a ``ClusterNodeGroupOptions`` shape; taints only in
``nodeGroupOptions``)."""
GKE_NODE_POOL = "gcp:container/nodePool:NodePool"
GKE_CLUSTER = "gcp:container/cluster:Cluster"
POOL_TYPES: tuple[str, ...] = (
    AKS_AGENT_POOL,
    AKS_MANAGED_CLUSTER,
    ACK_NODE_POOL,
    EKS_NODE_GROUP,
    *sorted(PULUMI_EKS_NODE_GROUPS),
    PULUMI_EKS_CLUSTER,
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
AMD_DEVICE_CONFIG = "kubernetes:amd.com/v1alpha1:DeviceConfig"
"""AMD GPU Operator's custom resource (a ``kubernetes.apiextensions.CustomResource``)."""
