"""GPU workloads run in their workload type's namespace, never in ``default``."""

from __future__ import annotations

from gpu_policy_support.pod_specs import DEFAULT_NAMESPACE, namespace, pod_gpu_resources, pod_spec
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

INFO = PolicyInfo(
    name="gpu-pods-not-in-default-namespace",
    description=(
        "Every pod-bearing resource that asks for a GPU resource sets metadata.namespace to a "
        "workload namespace (gpu-training, gpu-inference...), not default or unset, so the "
        "namespace's quota and deny-all NetworkPolicy apply."
    ),
    practices=("BP-07",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Set metadata.namespace to the GPU workload namespace of the workload's type, e.g. "
        "gpu-training or gpu-inference."
    ),
)


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    spec = pod_spec(args.resource_type, args.props)
    if spec is None or not pod_gpu_resources(spec):
        return
    if namespace(args.props) == DEFAULT_NAMESPACE:
        report(
            f"GPU workload '{args.name}' runs in the '{DEFAULT_NAMESPACE}' namespace; "
            f"use a GPU workload namespace."
        )


POLICY = resource_policy(INFO, check)
