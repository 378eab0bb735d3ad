"""GPU pods run no privileged container, which would see every GPU of the node.

A stack policy: a pod is a GPU pod when it asks for a GPU resource, or when a claim it
references (a ResourceClaim or ResourceClaimTemplate of the program) asks for a GPU DeviceClass,
and the claim is another resource of the stack (``gpu_policy_support.claims``). Each workload
is judged as a resource policy would judge it: a value unknown at preview where the check reads
leaves that workload to the analyzer's "can't run policy" (advisory), naming it, and never stops
the policy for the rest of the stack (``stack_index.judge_gpu_pods``).
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_policy_support.claims import GpuDemand
from gpu_policy_support.pod_specs import PodSite, containers
from gpu_policy_support.policy_factory import (
    Config,
    PolicyInfo,
    Report,
    stack_policy,
    unknown_namespace_note,
)
from gpu_policy_support.props import is_true, path
from gpu_policy_support.stack_index import index_by_type, judge_gpu_pods

INFO = PolicyInfo(
    name="no-privileged-gpu-containers",
    description=(
        "No container of a pod that asks for a GPU resource, or claims a GPU DeviceClass, runs "
        "privileged: a privileged container sees every GPU of the node and bypasses the "
        "scheduler's device ledger."
    ),
    practices=("BP-17",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.CRITICAL,
    remediation_steps=(
        "Remove securityContext.privileged (or set it to false); system components that need "
        "it belong in an exempt namespace (exemptNamespaces)."
    ),
)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    def judge(resource: PolicyResource, site: PodSite, demand: GpuDemand) -> None:
        for container in containers(site.spec):
            if is_true(path(container.spec, "securityContext", "privileged")):
                report(
                    f"GPU workload {site.named(resource.name)} runs {container.label} privileged.",
                    resource.urn,
                    note=unknown_namespace_note(resource.props, config),
                )

    judge_gpu_pods(index_by_type(args.resources), config, judge)


POLICY = stack_policy(INFO, validate)
