"""A workload queued by Kueue claims its devices in a shape Kueue admits.

Kueue 0.19 charges a queued workload's claims to its ClusterQueue only through
ResourceClaimTemplates whose requests are ``exactly`` one DeviceClass with ``ExactCount``. A pod
that names a ResourceClaim, or a template with a ``firstAvailable`` request, ``adminAccess`` or
``allocationMode: All``, leaves the workload inadmissible: it stays pending, with Kueue's reason
on its Workload, and never runs (``gpu_facts.kueue.DRA_CLAIM_BY_NAME_REFUSED``,
``DRA_TEMPLATE_REQUESTS_REFUSED``). Advisory: the pack cannot see the cluster's Kueue version,
and a later one may admit more. Judged: pods that name a queue, or get the namespace's LocalQueue
``default`` (``Queues.queue_of``); a template the program does not declare is not judged.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.kueue import QUEUE_NAME_LABEL
from gpu_policy_support.pod_specs import known_namespace
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, stack_policy
from gpu_policy_support.queues import Queues, claim_refusals, template_refusals
from gpu_policy_support.stack_index import index_by_type, stack_pods

INFO = PolicyInfo(
    name="queued-claims-kueue-admits",
    description=(
        "A workload queued by Kueue (the label "
        f"{QUEUE_NAME_LABEL}) gets its devices from ResourceClaimTemplates whose requests are "
        "exactly one DeviceClass with allocationMode ExactCount: Kueue 0.19 leaves a workload "
        "that names a ResourceClaim, or whose template asks firstAvailable, adminAccess or "
        "allocationMode All, inadmissible, pending for good."
    ),
    practices=("BP-09",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Claim the devices through a ResourceClaimTemplate whose requests are exactly "
        "{deviceClassName, count} (allocationMode ExactCount, no firstAvailable, no adminAccess), "
        "or run the workload unqueued, in a namespace whose GPUs are not queued."
    ),
)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    queues = Queues.of(index)
    templates = template_refusals(index)
    for resource, site in stack_pods(index, config):
        if not site.spec.get("resourceClaims"):
            continue
        queue = queues.queue_of(resource.resource_type, resource.props, site)
        if queue is None:
            continue
        reasons = claim_refusals(site.spec, known_namespace(resource.props), templates)
        if reasons:
            report(
                f"{site.named(resource.name)} is queued to LocalQueue '{queue}', but Kueue "
                f"cannot charge its claims ({'; '.join(reasons)}): the workload stays pending, "
                "inadmissible.",
                resource.urn,
            )


POLICY = stack_policy(INFO, validate)
