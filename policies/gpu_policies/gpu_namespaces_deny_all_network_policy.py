"""Every GPU workload namespace has a deny-all NetworkPolicy."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.network_policy import is_deny_all
from gpu_policy_support.pod_specs import namespace as namespace_of
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, stack_policy
from gpu_policy_support.resource_types import NETWORK_POLICY
from gpu_policy_support.stack_index import (
    GPU_NAMESPACE_LABELS,
    checked_gpu_namespaces,
    index_by_type,
)

INFO = PolicyInfo(
    name="gpu-namespaces-deny-all-network-policy",
    description=(
        f"Every GPU workload namespace (a Namespace labelled {' or '.join(GPU_NAMESPACE_LABELS)}, "
        f"or one the stack runs GPU workloads in) has a NetworkPolicy that selects every pod "
        f"(podSelector {{}}), covers Ingress and Egress and allows nothing, so traffic is "
        f"allowed only explicitly."
    ),
    practices=("BP-08",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "Add a NetworkPolicy in the namespace with spec: {podSelector: {}, policyTypes: "
        "[Ingress, Egress]} and no rules; allow traffic with further NetworkPolicies."
    ),
)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    covered = {namespace_of(np.props) for np in index[NETWORK_POLICY] if is_deny_all(np.props)}
    for name, namespace, why in checked_gpu_namespaces(index, config):
        if name not in covered:
            report(
                f"GPU workload namespace '{name}' has no deny-all NetworkPolicy "
                f"(podSelector {{}}, policyTypes Ingress and Egress, no rules){why}.",
                namespace.urn,
            )


POLICY = stack_policy(INFO, validate)
