"""Pulumi type tokens the policies look at.

A resource is indexed under its canonical token (``canonical_type``): an azure-native AKS type at
an explicit API version (a local SDK's ``azure-native:containerservice/v20250801:AgentPool``) is
an ``AgentPool`` like the default module's, and a Karpenter NodePool of any served version is
one NodePool; the version stays readable from the resource's own token (``aks_api_version``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from gpu_facts.aks.api_versions import AZURE_NATIVE_DEFAULT_API_VERSION
from gpu_facts.karpenter import NODE_POOL_GROUP, NODE_POOL_KIND

AKS_AGENT_POOL = "azure-native:containerservice:AgentPool"
AKS_MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
_AZURE_NATIVE_AKS = re.compile(
    r"^azure-native:containerservice(?:/v(?P<date>\d{8})(?P<preview>preview)?)?"
    r":(?P<kind>AgentPool|ManagedCluster)$"
)
"""azure-native's AKS tokens at any API version: the default module's, and a local SDK's
(``pulumi package add azure-native containerservice 2025-08-01``), whose token carries the
version as the module's aliases list them (pulumi-azure-native 3.29.0 ``agent_pool.py``)."""
AZURE_NODE_POOL = "azure:containerservice/kubernetesClusterNodePool:KubernetesClusterNodePool"
"""pulumi-azure (classic, azurerm-based): an AKS node pool (``vmSize``, ``nodeTaints`` as
``key=value:Effect`` strings, ``nodeLabels``, ``gpuInstance``, ``autoScalingEnabled`` (before
v6: ``enableAutoScaling``), ``minCount``, ``nodeCount``, ``osSku``; pulumi-azure v6.39.0).
These wire names are the SDK's own (``@pulumi.getter(name=...)`` of ``KubernetesClusterNodePool``
and ``KubernetesClusterDefaultNodePoolArgs``, read in pulumi-azure 6.40.1's wheel)."""
AZURE_CLUSTER = "azure:containerservice/kubernetesCluster:KubernetesCluster"
"""pulumi-azure (classic): an AKS cluster with its ``defaultNodePool`` (no taints of its own;
``onlyCriticalAddonsEnabled``), ``nodeOsUpgradeChannel``, ``networkProfile.networkPolicy`` and
``nodeProvisioningProfile.{mode, defaultNodePools}`` (wire names as read there too)."""
KARPENTER_NODE_POOL = f"kubernetes:{NODE_POOL_GROUP}/v1:{NODE_POOL_KIND}"
"""A Karpenter NodePool (EKS with Karpenter or Auto Mode, AKS node auto-provisioning), as a
``CustomResource`` or an object a chart or manifest renders; any version (v1; Karpenter up to
1.0 also served v1beta1)."""
ACK_NODE_POOL = "alicloud:cs/nodePool:NodePool"
ACK_MANAGED_CLUSTER = "alicloud:cs/managedKubernetes:ManagedKubernetes"
ACK_ADDON = "alicloud:cs/kubernetesAddon:KubernetesAddon"
"""An ACK cluster add-on installed on its own (``name``, ``clusterId``, ``version``)."""
EKS_NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
"""An EKS managed node group (pulumi-aws)."""
EKS_CLUSTER = "aws:eks/cluster:Cluster"
"""An EKS cluster (pulumi-aws); ``computeConfig`` turns on Auto Mode and its built-in
NodePools."""
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
    AZURE_NODE_POOL,
    AZURE_CLUSTER,
    KARPENTER_NODE_POOL,
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


@lru_cache(maxsize=512)
def canonical_type(resource_type: str) -> str:
    """The token a resource is indexed and judged under: azure-native's AKS types at any API
    version as the default module's, a Karpenter NodePool of any version as v1's; any other
    token as it is."""
    match = _AZURE_NATIVE_AKS.match(resource_type)
    if match is not None:
        return f"azure-native:containerservice:{match['kind']}"
    parts = resource_type.split(":")
    karpenter = len(parts) == 3 and parts[0] == "kubernetes" and parts[2] == NODE_POOL_KIND
    if karpenter and parts[1].rpartition("/")[0] == NODE_POOL_GROUP:
        return KARPENTER_NODE_POOL
    return resource_type


def aks_api_version(resource_type: str) -> str | None:
    """The AKS API version an azure-native token is written against (``2025-08-01``,
    ``2025-08-02-preview``): the one it names, else the default module's; None for any other
    token."""
    match = _AZURE_NATIVE_AKS.match(resource_type)
    if match is None:
        return None
    date = match["date"]
    if date is None:
        return AZURE_NATIVE_DEFAULT_API_VERSION
    version = f"{date[:4]}-{date[4:6]}-{date[6:]}"
    return f"{version}-preview" if match["preview"] else version
