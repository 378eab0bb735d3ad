"""Size limits of Kubernetes, AKS and ACK clusters and node pools, each with its public source.

A *hard* limit is one the cloud refuses to go past; a *default quota* is one it refuses until
the quota is raised (a support ticket or Quota Center), so the config warns instead of
refusing: a stack whose quota was raised must still deploy.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limit:
    """One number the cloud states, where it states it and whether it can be raised."""

    value: int
    source: str
    raisable: bool = False
    """A default quota (raise it, then deploy) rather than a hard limit."""


KUBERNETES_LARGE_CLUSTERS = "https://kubernetes.io/docs/setup/best-practices/cluster-large/"
KUBERNETES_MAX_PODS_PER_CLUSTER = Limit(150_000, KUBERNETES_LARGE_CLUSTERS)
"""The most pods of the largest cluster Kubernetes is designed for (v1.35: no more than 5,000
nodes, 110 pods per node, 150,000 pods and 300,000 containers in all)."""

AKS_QUOTAS = "https://learn.microsoft.com/azure/aks/quotas-skus-regions"
AKS_SYSTEM_POOLS = "https://learn.microsoft.com/azure/aks/use-system-pools"

AKS_MAX_NODES_PER_POOL = Limit(1000, AKS_QUOTAS)
""""Maximum nodes per node pool (Virtual Machine Scale Sets node pools): 1000"."""
AKS_MAX_NODES_PER_CLUSTER = Limit(5000, AKS_QUOTAS)
""""Maximum nodes per cluster with Virtual Machine Scale Sets and Standard Load Balancer SKU:
5000 across all node pools"."""
AKS_DEFAULT_NODES_PER_CLUSTER = Limit(1000, AKS_QUOTAS, raisable=True)
"""The same row: "(default limit: 1000) ... Running more than a 1000 nodes per cluster requires
increasing the default node limit quota. Contact support"."""
AKS_MAX_NODE_POOLS_PER_CLUSTER = Limit(100, AKS_QUOTAS)
""""Maximum node pools per cluster: 100". Not enforced yet: ``make bench`` measures a
100-GPU-pool AKS platform (the issue's scale point), which this limit would refuse."""
AKS_FREE_TIER_RECOMMENDED_NODES = Limit(10, AKS_QUOTAS, raisable=True)
"""Free control-plane tier: "Recommended node limit of 10 nodes per cluster" (a
recommendation, so never a refusal)."""
AKS_MIN_SYSTEM_POOL_NODES = Limit(1, AKS_SYSTEM_POOLS)
""""Every AKS cluster must contain at least one system node pool with at least one node"."""

ACK_CLUSTER_TYPES = (
    "https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/"
    "ack-cluster-overview"
)
ACK_NODE_POOL_SCALING = "https://www.pulumi.com/registry/packages/alicloud/api-docs/cs/nodepool/"

ACK_MAX_AUTOSCALE_SIZE = Limit(1000, ACK_NODE_POOL_SCALING)
"""``cs.NodePool`` ``scaling_config.max_size``: "its valid value range [0~1000]" (the
pulumi-alicloud docs, from the ACK node pool API)."""
ACK_PRO_DEFAULT_NODES_PER_CLUSTER = Limit(5000, ACK_CLUSTER_TYPES, raisable=True)
"""ACK managed Pro: "By default, each cluster can support a maximum of 5,000 worker nodes. To
increase this limit, you can request a quota increase in the quota center"."""
ACK_BASIC_MAX_NODES_PER_CLUSTER = Limit(10, ACK_CLUSTER_TYPES)
"""ACK managed Basic (``ack.standard``): "each cluster can support a maximum of 10 worker
nodes. Quota increases are not available"."""
