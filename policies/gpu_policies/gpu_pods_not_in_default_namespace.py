"""GPU workloads run in their workload type's namespace, never in ``default``.

A stack policy: a pod that gets its GPU through a claim is a GPU pod only when the claim (a
ResourceClaim or ResourceClaimTemplate of the program) is another resource of the stack. Each
workload is judged as a resource policy would judge it: one whose namespace is unknown at
preview is not passed but left to the analyzer's "can't run policy during preview" (advisory),
naming it, while the rest of the stack is judged (``stack_index.judge_gpu_pods``).
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_policy_support.claims import GpuDemand
from gpu_policy_support.pod_specs import DEFAULT_NAMESPACE, PodSite, is_cluster_scoped, namespace
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, stack_policy
from gpu_policy_support.stack_index import index_by_type, judge_gpu_pods

INFO = PolicyInfo(
    name="gpu-pods-not-in-default-namespace",
    description=(
        "Every pod-bearing resource that asks for a GPU resource, or claims a GPU DeviceClass, "
        "sets metadata.namespace to a workload namespace (gpu-training, gpu-inference...), not "
        "default or unset, so the namespace's quota and deny-all NetworkPolicy apply."
    ),
    practices=("BP-07",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Set metadata.namespace to the GPU workload namespace of the workload's type, e.g. "
        "gpu-training or gpu-inference."
    ),
)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    reported: set[str] = set()

    def judge(resource: PolicyResource, site: PodSite, demand: GpuDemand) -> None:
        # A cluster-wide runtime's pods run in the namespace of what uses it.
        if resource.urn in reported or is_cluster_scoped(resource.resource_type):
            return
        # A namespace unknown at preview raises: the resource is not judged, and said so.
        if namespace(resource.props) == DEFAULT_NAMESPACE:
            reported.add(resource.urn)
            report(
                f"GPU workload '{resource.name}' runs in the '{DEFAULT_NAMESPACE}' namespace; "
                f"use a GPU workload namespace.",
                resource.urn,
            )

    judge_gpu_pods(index_by_type(args.resources), config, judge)


POLICY = stack_policy(INFO, validate)
