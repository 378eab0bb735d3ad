"""AKS and ACK clusters with GPU pools also have a pool that takes pods without tolerations."""

from __future__ import annotations

from collections.abc import Sequence

from gpu_policy_support.node_pools import NodePool, node_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, exempt_names, stack_policy
from gpu_policy_support.props import path, text
from gpu_policy_support.resource_types import (
    ACK_MANAGED_CLUSTER,
    ACK_NODE_POOL,
    AKS_AGENT_POOL,
    AKS_MANAGED_CLUSTER,
)
from gpu_policy_support.stack_index import index_by_type
from gpu_policy_support.tolerations import HARD_EFFECTS, may_schedule
from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

NODE_AUTO_PROVISIONING = "Auto"
"""AKS ``nodeProvisioningProfile.mode`` under which AKS creates nodes for pending pods itself
(node auto-provisioning): no pool needs to be declared for them."""
CLUSTER_POOLS: tuple[tuple[str, str], ...] = (
    (AKS_MANAGED_CLUSTER, AKS_AGENT_POOL),
    (ACK_MANAGED_CLUSTER, ACK_NODE_POOL),
)
"""(cluster type, pool type) of the clouds whose nodes come only from declared pools."""

INFO = PolicyInfo(
    name="gpu-clusters-have-untainted-pool",
    description=(
        "Every AKS or ACK cluster that has GPU pools (tainted to keep other pods off) also has "
        "a pool without NoSchedule or NoExecute taints, so pods that need no GPU (an ingress "
        "gateway, data loaders, Prometheus) have nodes to run on."
    ),
    practices=("BP-01",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Add a node pool without taints: gpu-platform's cpuPools; AKS: an AgentPool with mode "
        "User and no nodeTaints; ACK: a NodePool without taints."
    ),
    exemptions="names",
)


def _cluster_of(pool: PolicyResource, clusters: Sequence[PolicyResource]) -> PolicyResource | None:
    """The pool's cluster: the one of ``clusters`` it depends on, else the stack's only one."""
    for dependency in pool.dependencies:
        if dependency in clusters:
            return dependency
    return clusters[0] if len(clusters) == 1 else None


def _auto_provisioned(cluster: PolicyResource) -> bool:
    mode = text(path(cluster.props, "nodeProvisioningProfile", "mode"))
    return mode == NODE_AUTO_PROVISIONING


def _taints(pool: NodePool) -> str:
    hard = [str(t) for t in pool.taints if t.effect in HARD_EFFECTS]
    return f"{pool.name}: {', '.join(hard)}"


def check(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    skip = exempt_names(config)
    for cluster_type, pool_type in CLUSTER_POOLS:
        clusters = index[cluster_type]
        if not clusters:
            continue  # the cluster is not in this stack: its other pools may be elsewhere
        pools: dict[str, list[NodePool]] = {
            c.urn: list(node_pools(c.resource_type, c.name, c.props)) for c in clusters
        }
        for resource in index[pool_type]:
            cluster = _cluster_of(resource, clusters)
            if cluster is not None:
                pools[cluster.urn] += node_pools(
                    resource.resource_type, resource.name, resource.props
                )
        for cluster in clusters:
            if cluster.name in skip or _auto_provisioned(cluster):
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


POLICY = stack_policy(INFO, check)
