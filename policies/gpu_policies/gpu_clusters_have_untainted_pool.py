"""Clusters with GPU pools also have a pool that takes pods without tolerations.

A cluster's pools are its inline pools (AKS ``agentPoolProfiles``, pulumi-azure's
``defaultNodePool``, pulumi-eks's default node group), the pool resources that depend on it
(else all of them, when the stack has one such cluster), and the Karpenter NodePools of its
cloud, when it is the stack's only cluster of that cloud (a NodePool reaches its cluster through
a Kubernetes provider, not a dependency). A cluster whose platform brings untainted nodes of
its own needs none declared: AKS node auto-provisioning with its default NodePools, EKS Auto
Mode with its ``general-purpose`` pool (``gpu_facts.karpenter``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_facts.karpenter import EKS_AUTO_MODE_GENERAL_POOL, NAP_AUTO_MODE, NAP_NO_DEFAULT_POOLS
from gpu_policy_support.node_pools import NodePool, node_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, exempt_names, stack_policy
from gpu_policy_support.props import is_true, items, path, text
from gpu_policy_support.resource_types import (
    ACK_MANAGED_CLUSTER,
    ACK_NODE_POOL,
    AKS_AGENT_POOL,
    AKS_MANAGED_CLUSTER,
    AZURE_CLUSTER,
    AZURE_NODE_POOL,
    EKS_CLUSTER,
    EKS_NODE_GROUP,
    KARPENTER_NODE_POOL,
    PULUMI_EKS_CLUSTER,
    PULUMI_EKS_NODE_GROUPS,
)
from gpu_policy_support.stack_index import index_by_type
from gpu_policy_support.tolerations import HARD_EFFECTS, may_schedule


def _auto_provisioned(props: Mapping[str, Any]) -> bool:
    """AKS node auto-provisioning with AKS's default NodePools, which take any pod."""
    profile = path(props, "nodeProvisioningProfile")
    return (
        text(path(profile, "mode")) == NAP_AUTO_MODE
        and text(path(profile, "defaultNodePools")) != NAP_NO_DEFAULT_POOLS
    )


def _auto_mode_general_pool(props: Mapping[str, Any]) -> bool:
    """EKS Auto Mode with its built-in ``general-purpose`` NodePool."""
    config = path(props, "computeConfig")
    return is_true(path(config, "enabled")) and EKS_AUTO_MODE_GENERAL_POOL in items(
        path(config, "nodePools")
    )


@dataclass(frozen=True, slots=True)
class ClusterKind:
    """A cluster type, the pool types that join it, and whether its platform has untainted
    nodes without any declared pool."""

    cluster_type: str
    pool_types: tuple[str, ...]
    cloud: str
    brings_untainted_nodes: Callable[[Mapping[str, Any]], bool] = lambda _: False


CLUSTER_KINDS: tuple[ClusterKind, ...] = (
    ClusterKind(AKS_MANAGED_CLUSTER, (AKS_AGENT_POOL,), "aks", _auto_provisioned),
    ClusterKind(AZURE_CLUSTER, (AZURE_NODE_POOL,), "aks", _auto_provisioned),
    ClusterKind(ACK_MANAGED_CLUSTER, (ACK_NODE_POOL,), "ack"),
    ClusterKind(EKS_CLUSTER, (EKS_NODE_GROUP,), "eks", _auto_mode_general_pool),
    ClusterKind(PULUMI_EKS_CLUSTER, (EKS_NODE_GROUP, *sorted(PULUMI_EKS_NODE_GROUPS)), "eks"),
)
"""The clusters whose nodes come only from the pools programs declare (and their platform's)."""

INFO = PolicyInfo(
    name="gpu-clusters-have-untainted-pool",
    description=(
        "Every AKS, ACK or EKS cluster that has GPU pools (tainted to keep other pods off; "
        "Karpenter NodePools included) also has a pool without NoSchedule or NoExecute taints, "
        "so pods that need no GPU (an ingress gateway, data loaders, Prometheus) have nodes to "
        "run on."
    ),
    practices=("BP-01",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Add a node pool without taints: gpu-platform's cpuPools; AKS: an AgentPool with mode "
        "User and no nodeTaints; ACK: a NodePool without taints; EKS: a node group without "
        "taints, or Auto Mode's general-purpose pool; Karpenter: a NodePool without taints."
    ),
    exemptions="names",
)


def _cluster_of(pool: PolicyResource, clusters: Sequence[PolicyResource]) -> PolicyResource | None:
    """The pool's cluster: the one of ``clusters`` it depends on, else the stack's only one."""
    for dependency in pool.dependencies:
        if dependency in clusters:
            return dependency
    return clusters[0] if len(clusters) == 1 else None


def _taints(pool: NodePool) -> str:
    hard = [str(t) for t in pool.taints if t.effect in HARD_EFFECTS]
    return f"{pool.name}: {', '.join(hard)}"


def _pools(resource: PolicyResource) -> list[NodePool]:
    return list(node_pools(resource.resource_type, resource.name, resource.props))


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    skip = exempt_names(config)
    karpenter = [
        (pool, resource) for resource in index[KARPENTER_NODE_POOL] for pool in _pools(resource)
    ]
    for kind in CLUSTER_KINDS:
        clusters = index[kind.cluster_type]
        if not clusters:
            continue  # the cluster is not in this stack: its other pools may be elsewhere
        pools: dict[str, list[NodePool]] = {c.urn: _pools(c) for c in clusters}
        for pool_type in kind.pool_types:
            for resource in index[pool_type]:
                cluster = _cluster_of(resource, clusters)
                if cluster is not None:
                    pools[cluster.urn] += _pools(resource)
        same_cloud = [
            c for k in CLUSTER_KINDS if k.cloud == kind.cloud for c in index[k.cluster_type]
        ]
        if len(same_cloud) == 1:
            pools[clusters[0].urn] += [p for p, _ in karpenter if p.cloud in ("", kind.cloud)]
        for cluster in clusters:
            if cluster.name in skip or kind.brings_untainted_nodes(cluster.props):
                continue
            own = pools[cluster.urn]
            gpu = [p.name for p in own if p.is_gpu]
            if gpu and not any(may_schedule([], p.taints) for p in own):
                report(
                    f"Cluster '{cluster.name}' has GPU pools ({', '.join(gpu)}) and no pool "
                    f"without NoSchedule or NoExecute taints ({'; '.join(map(_taints, own))}): "
                    "a pod that tolerates none (an ingress gateway, a data loader, Prometheus) "
                    "never schedules.",
                    cluster.urn,
                )


POLICY = stack_policy(INFO, validate)
