"""GPU pods run no privileged container, which would see every GPU of the node."""

from __future__ import annotations

from gpu_policy_support.pod_specs import containers, pod_gpu_resources, pod_spec
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import is_true, path
from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

INFO = PolicyInfo(
    name="no-privileged-gpu-containers",
    description=(
        "No container of a pod that asks for a GPU resource runs privileged: a privileged "
        "container sees every GPU of the node and bypasses the scheduler's device ledger."
    ),
    practices=("BP-17",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.CRITICAL,
    remediation_steps=(
        "Remove securityContext.privileged (or set it to false); system components that need "
        "it belong in an exempt namespace (exemptNamespaces)."
    ),
)


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    spec = pod_spec(args.resource_type, args.props)
    if spec is None or not pod_gpu_resources(spec):
        return
    for container in containers(spec):
        if is_true(path(container.spec, "securityContext", "privileged")):
            report(f"GPU workload '{args.name}' runs {container.label} privileged.")


POLICY = resource_policy(INFO, check)
