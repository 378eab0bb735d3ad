"""In a namespace whose GPUs are queued, every GPU workload names its LocalQueue.

A namespace is queued when the program declares a Kueue LocalQueue in it, or labels it with the
LocalQueue its workloads use (``gpu-platform.io/local-queue``, as ``GpuWorkloadNamespace`` does).
There a GPU workload that names no queue (Kueue's label ``kueue.x-k8s.io/queue-name``) is not
managed by Kueue: it takes GPUs past the queue's quota, and the in-cluster queue admission policy
refuses it. A kind Kueue cannot queue at all (a DaemonSet, and operators' kinds without a Kueue
integration: KServe, Argo, Volcano, Knative) may not ask for GPUs there. The pods an operator
builds from a custom resource (KAITO, NVIDIA's NIM operator) are judged one by one: each names
its queue in the labels the program gives it, which Kueue reads on the pod; a KAITO preset's
pods carry KAITO's labels only, so they cannot be queued. Where the namespace's LocalQueue is
named ``default``, Kueue names it for a workload that names none (LocalQueue defaulting,
``gpu_facts.kueue.DEFAULT_LOCAL_QUEUE``), the objects a KAITO preset makes included.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.kueue import QUEUE_NAME_LABEL, QUEUE_NAMESPACE_LABEL
from gpu_policy_support.pod_specs import is_cluster_scoped, pod_bearing
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, known_text, stack_policy
from gpu_policy_support.queues import Queues, operator_built, queue_name, queueable
from gpu_policy_support.stack_index import index_by_type, stack_gpu_pods

INFO = PolicyInfo(
    name="gpu-workloads-name-a-queue",
    description=(
        "In a namespace whose GPUs are queued (a Kueue LocalQueue there, or the label "
        f"{QUEUE_NAMESPACE_LABEL}), every workload that asks for a GPU names its LocalQueue in "
        f"the label {QUEUE_NAME_LABEL}, and is of a kind Kueue queues; otherwise it takes GPUs "
        "past the queue's quota."
    ),
    practices=("BP-09",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"Add the label {QUEUE_NAME_LABEL}: <the namespace's LocalQueue> to the workload's "
        "metadata.labels (a CronJob: spec.jobTemplate.metadata.labels); run GPU workloads of "
        "kinds Kueue cannot queue (DaemonSets) in a namespace whose GPUs are not queued."
    ),
)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    queues = Queues.of(index)
    if not queues.queued_namespaces:
        return
    judged: set[tuple[str, str]] = set()
    for resource, site, demand in stack_gpu_pods(index, config):
        # One verdict per workload; per pod where an operator builds them (each its own labels).
        key = (resource.urn, site.where if operator_built(resource.resource_type) else "")
        if key in judged or is_cluster_scoped(resource.resource_type):
            continue
        namespace, known = known_text(resource.props, "metadata", "namespace")
        local = queues.queued_namespaces.get(namespace or "default") if known else None
        if not local:
            continue
        asked = demand.describe()
        judged.add(key)
        kind = pod_bearing(resource.resource_type)
        label = kind.label if kind is not None else resource.resource_type
        listed = ", ".join(f"'{q}'" for q in local)
        where = f"namespace '{namespace or 'default'}', whose GPUs are queued (LocalQueue {listed})"
        operator = kind.made_by if kind is not None else None
        named = queue_name(resource.resource_type, resource.props, site)
        if named is None and queues.defaulted_queue(resource.resource_type, resource.props, site):
            continue  # Kueue names the namespace's LocalQueue 'default' for it
        if operator is not None and not queueable(resource.resource_type, site):
            report(
                f"{site.named(resource.name)} {asked} in {where}, but {operator.name} gives "
                "these pods its own labels only: no LocalQueue can be named, and they would take "
                "GPUs past the queue's quota.",
                resource.urn,
                fix=(
                    f"Write the pod as a template and put {QUEUE_NAME_LABEL}: {local[0]} in "
                    f"{operator.pod_labels}, or run the {label} in a namespace whose GPUs are "
                    "not queued."
                ),
            )
        elif not queueable(resource.resource_type, site):
            report(
                f"{site.named(resource.name)} {asked} in {where}, "
                f"but Kueue cannot queue a {label}: it would take GPUs past the queue's quota.",
                resource.urn,
                fix=(
                    f"Run this {label} in a namespace whose GPUs are not queued, or make it a "
                    "kind Kueue queues (a Job, JobSet, Deployment, LeaderWorkerSet, ...)."
                ),
            )
        elif named is None:
            if operator is not None:  # the operator's objects pass admission as its own
                at, refused = operator.pod_labels, ""
            else:
                cron = " (spec.jobTemplate.metadata.labels)" if label == "CronJob" else ""
                at = f"its metadata.labels{cron}"
                refused = ", and the cluster's queue admission policy refuses it"
            report(
                f"{site.named(resource.name)} {asked} in {where}, "
                f"but names no LocalQueue ({QUEUE_NAME_LABEL}): it would take GPUs past the "
                f"queue's quota{refused}.",
                resource.urn,
                fix=f"Add the label {QUEUE_NAME_LABEL}: {local[0]} to {at}.",
            )


POLICY = stack_policy(INFO, validate)
