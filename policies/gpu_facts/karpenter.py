"""Karpenter NodePools: how GPU nodes appear on EKS (Karpenter, EKS Auto Mode) and on AKS node
auto-provisioning (NAP).

A NodePool is no node group: it says which instances Karpenter may start for pending pods
(``spec.template.spec.requirements``, node-selector requirements on well-known labels), with
which ``taints`` and ``startupTaints``, and which node class (``nodeClassRef``) configures them.
Sources:

- kubernetes-sigs/karpenter v1.14.1 ``pkg/apis/v1/nodepool.go``, ``nodeclaim.go``, ``labels.go``
  (``KARPENTER``);
- aws/karpenter-provider-aws v1.14.1 ``pkg/apis/v1/labels.go`` (``KARPENTER_AWS``);
- EKS Auto Mode: docs.aws.amazon.com/eks/latest/userguide/create-node-pool.html and
  ``auto-accelerated.html`` (``EKS_AUTO_MODE``);
- Azure/karpenter-provider-azure v1.14.2 ``pkg/apis/v1beta1/labels.go``,
  ``aksnodeclass.go`` (``KARPENTER_AZURE``).
"""

from __future__ import annotations

KARPENTER = "kubernetes-sigs/karpenter v1.14.1 pkg/apis/v1/{nodepool,nodeclaim,labels}.go"
KARPENTER_AWS = "aws/karpenter-provider-aws v1.14.1 pkg/apis/v1/labels.go"
EKS_AUTO_MODE = "https://docs.aws.amazon.com/eks/latest/userguide/create-node-pool.html"
KARPENTER_AZURE = "Azure/karpenter-provider-azure v1.14.2 pkg/apis/v1beta1/labels.go"
KARPENTER_CRD = "aws/karpenter-provider-aws v1.14.1 pkg/apis/crds/karpenter.sh_nodepools.yaml"
"""The NodePool CRD as Karpenter v1.14.1 ships it (one served version, ``v1``)."""

NODE_POOL_GROUP = "karpenter.sh"
NODE_POOL_KIND = "NodePool"
NODE_POOL_TAINTS = "taints"
"""Where a NodePool's template keeps the taints its nodes carry (``spec.template.spec``).
``startupTaints`` beside them are not such taints: they "are expected to be removed
automatically within a short period of time, typically by a DaemonSet that tolerates the taint
... StartupTaints are ignored for provisioning purposes in that pods are not required to
tolerate a StartupTaint in order to have nodes provisioned for them" (``KARPENTER_CRD``). A GPU
taint there keeps no pod from bringing up a GPU node."""
GPU_COUNT_FLOORS: dict[str, int] = {"Gt": 0, "Gte": 1}
"""Requirement operators that bound a count from below, and the bound from which a GPU-count
requirement admits only GPU instances (``Gt 0``, ``Gte 1``). A NodePool requirement's operator is
one of In, NotIn, Exists, DoesNotExist, Gt, Lt and Karpenter's own Gte and Lte, each bound a
single integer (``KARPENTER_CRD``)."""
INCLUSIVE_BOUNDS: dict[str, str] = {"Gte": ">=", "Lte": "<="}
"""Karpenter's own requirement operators, inclusive bounds on an integer label (``Gte 1``:
at least one); Kubernetes' node selectors have only the strict ``Gt`` and ``Lt``
(``KARPENTER_CRD``)."""
NODE_POOL_LABEL = "karpenter.sh/nodepool"
"""The label Karpenter puts on every node it starts: the NodePool's name (``KARPENTER``)."""
INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
"""The well-known label of the machine type (an EC2 instance type, an Azure VM size)."""

NODE_CLASS_CLOUDS: dict[str, str] = {
    "karpenter.k8s.aws": "eks",
    "eks.amazonaws.com": "eks",
    "karpenter.azure.com": "aks",
}
"""``nodeClassRef.group`` -> cloud: ``EC2NodeClass`` (Karpenter on EKS, ``KARPENTER_AWS``),
``NodeClass`` (EKS Auto Mode, ``EKS_AUTO_MODE``), ``AKSNodeClass`` (AKS NAP,
``KARPENTER_AZURE``)."""

GPU_COUNT_LABELS: tuple[str, ...] = (
    "karpenter.k8s.aws/instance-gpu-count",
    "eks.amazonaws.com/instance-gpu-count",
    "karpenter.azure.com/sku-gpu-count",
)
"""GPUs per instance (``KARPENTER_AWS``, ``EKS_AUTO_MODE``, ``KARPENTER_AZURE``)."""
GPU_NAME_LABELS: tuple[str, ...] = (
    "karpenter.k8s.aws/instance-gpu-name",
    "eks.amazonaws.com/instance-gpu-name",
    "karpenter.azure.com/sku-gpu-name",
)
"""The GPU's model, lower case (``a100``, ``l4``, ``t4``)."""
GPU_MANUFACTURER_LABELS: tuple[str, ...] = (
    "karpenter.k8s.aws/instance-gpu-manufacturer",
    "eks.amazonaws.com/instance-gpu-manufacturer",
    "karpenter.azure.com/sku-gpu-manufacturer",
)
"""The GPU's maker: ``nvidia`` or ``amd`` (``KARPENTER_AZURE`` registers exactly these two)."""
INSTANCE_FAMILY_LABELS: tuple[str, ...] = (
    "karpenter.k8s.aws/instance-family",
    "eks.amazonaws.com/instance-family",
)
"""The EC2 family (``g5``, ``p4d``): a family of the catalog's GPU instance types is a GPU
requirement."""
SKU_NAME_LABEL = "karpenter.azure.com/sku-name"
"""The Azure VM size (``Standard_NC24ads_A100_v4``), beside ``INSTANCE_TYPE_LABEL``."""
MACHINE_TYPE_LABELS: tuple[str, ...] = (INSTANCE_TYPE_LABEL, SKU_NAME_LABEL)

# --- What a cluster brings without any declared pool ---------------------------------------

EKS_AUTO_MODE_POOLS_SOURCE = (
    "https://docs.aws.amazon.com/eks/latest/userguide/set-builtin-node-pools.html"
)
EKS_AUTO_MODE_GENERAL_POOL = "general-purpose"
"""EKS Auto Mode's built-in NodePools, chosen by ``computeConfig.nodePools``: ``system`` "has a
CriticalAddonsOnly taint"; ``general-purpose`` launches nodes "for general purpose workloads"
(no taint), on C, M and R instances (``EKS_AUTO_MODE_POOLS_SOURCE``). With it, a pod that
tolerates nothing has nodes."""
NAP_AUTO_MODE = "Auto"
"""AKS ``nodeProvisioningProfile.mode`` of node auto-provisioning (azure-native and pulumi-azure;
``Manual`` by default)."""
NAP_NO_DEFAULT_POOLS = "None"
"""AKS ``nodeProvisioningProfile.defaultNodePools``: "The set of default Karpenter NodePools
(CRDs) configured for node provisioning. This field has no effect unless mode is 'Auto' ... If
not specified, the default is Auto" (pulumi-azure-native 3.29.0
``ManagedClusterNodeProvisioningProfileArgs``; aka.ms/aks/nap#node-pools). With ``None`` the
cluster has only the NodePools and agent pools its programs declare."""
