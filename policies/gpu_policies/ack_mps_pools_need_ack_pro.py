"""ACK node pools with MPS GPU sharing belong to an ACK Pro cluster."""

from __future__ import annotations

from pulumi_policy import (
    EnforcementLevel,
    PolicyResource,
    Severity,
    StackValidationArgs,
)

from gpu_facts.ack.addons import ACK_PRO_PREFIX, needs_ack_pro
from gpu_facts.scheduling import ACK_GPU_SCHEDULE_LABEL, ACK_GPU_SCHEDULE_VALUES
from gpu_policy_support.node_pools import node_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, exempt_names, stack_policy
from gpu_policy_support.props import text
from gpu_policy_support.resource_types import ACK_MANAGED_CLUSTER, ACK_NODE_POOL
from gpu_policy_support.stack_index import index_by_type

MPS = ACK_GPU_SCHEDULE_VALUES["ackMps"]

INFO = PolicyInfo(
    name="ack-mps-pools-need-ack-pro",
    description=(
        f"Every ACK NodePool labelled {ACK_GPU_SCHEDULE_LABEL}={MPS} belongs to a "
        f"ManagedKubernetes cluster whose clusterSpec is ACK Pro ({ACK_PRO_PREFIX}*): MPS GPU "
        f"sharing needs ACK Pro."
    ),
    practices=("BP-16",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "Set the cluster's clusterSpec to ack.pro.small (or another ack.pro.* edition), or "
        f"remove the {ACK_GPU_SCHEDULE_LABEL}={MPS} label from the pool."
    ),
    exemptions="names",
)


def _cluster_of(pool: PolicyResource, clusters: list[PolicyResource]) -> PolicyResource | None:
    """The pool's cluster: the one it depends on, else the stack's only cluster."""
    for dependency in pool.dependencies:
        if dependency.resource_type == ACK_MANAGED_CLUSTER:
            return dependency
    return clusters[0] if len(clusters) == 1 else None


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    clusters = index[ACK_MANAGED_CLUSTER]
    skip = exempt_names(config)
    for resource in index[ACK_NODE_POOL]:
        if resource.name in skip:
            continue
        for pool in node_pools(resource.resource_type, resource.name, resource.props):
            if pool.labels.get(ACK_GPU_SCHEDULE_LABEL) != MPS:
                continue
            cluster = _cluster_of(resource, clusters)
            if cluster is None:
                continue  # the cluster is not in this stack: nothing to check it against
            spec = text(cluster.props.get("clusterSpec")) or "unset (ack.standard)"
            if not spec.startswith(ACK_PRO_PREFIX):
                report(
                    f"Node pool '{pool.name}' ({ACK_GPU_SCHEDULE_LABEL}={MPS}) on cluster "
                    f"'{cluster.name}' (clusterSpec {spec}): {needs_ack_pro(MPS)}.",
                    resource.urn,
                )


POLICY = stack_policy(INFO, validate)
