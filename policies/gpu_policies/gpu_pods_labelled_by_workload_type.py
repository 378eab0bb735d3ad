"""GPU pods in a workload namespace carry its workload type, as the AKS guide labels them.

The guide's namespace example (seed 000, "separate workloads in a shared cluster") puts training
pods in ``gpu-training`` labelled ``workload: training``. A namespace the stack declares with a
``workload`` label is such a workload namespace; each GPU pod written into it (of any
pod-bearing kind, where the program writes the pod's labels: a template's ``metadata.labels``,
a Pod's own, a KServe component's ``labels``, a NIMService's ``spec.labels``), whether it asks
for a GPU resource or claims a GPU DeviceClass (DRA), carries the same label and value, so
policies, dashboards and quotas that select by type find it. Pods whose labels their operator
sets alone (a KAITO preset, a NIMCache's Job, a TrainJob's runtime pod)
are left out: the program has no field for them.
"""

from __future__ import annotations

from collections.abc import Mapping

from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_facts.scheduling import WORKLOAD_TYPE_LABEL
from gpu_policy_support.pod_specs import DEFAULT_NAMESPACE
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, known_text, stack_policy
from gpu_policy_support.props import mapping, path, text
from gpu_policy_support.stack_index import (
    declared_namespaces,
    index_by_type,
    judged_apart,
    raise_if_unknown,
    stack_gpu_pods,
)

INFO = PolicyInfo(
    name="gpu-pods-labelled-by-workload-type",
    description=(
        f"Every GPU pod in a namespace the stack labels with a workload type ({WORKLOAD_TYPE_LABEL}"
        f": training) carries that label and value itself ({WORKLOAD_TYPE_LABEL}: training), as "
        "the AKS guide labels the pods of each workload type."
    ),
    practices=("BP-07",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.LOW,
    remediation_steps=(
        f"Add the namespace's {WORKLOAD_TYPE_LABEL} label to the pod's labels (the pod "
        "template's metadata.labels; a NIMService's spec.labels; a KServe component's labels)."
    ),
)


def _labels(labels: object) -> str:
    shown = ", ".join(f"{k}={v}" for k, v in sorted(mapping(labels).items()))
    return shown or "none"


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    named, unknown = declared_namespaces(index)
    types = {
        name: value
        for name, ns in named.items()
        if (value := text(path(ns.props, "metadata", "labels", WORKLOAD_TYPE_LABEL)))
    }
    # A workload type on a Namespace the API server names (known only after apply) matches no
    # pod here: said after the others are judged.
    judging = [lambda: _judge(index, config, types, report)] if types else []
    judged_apart(*judging, lambda: raise_if_unknown(unknown))


def _judge(
    index: Mapping[str, list[PolicyResource]],
    config: Config,
    types: dict[str, str],
    report: Report,
) -> None:
    for resource, site, _ in stack_gpu_pods(index, config):
        if site.labels is None:
            continue
        namespace, known = known_text(resource.props, "metadata", "namespace")
        workload_type = types.get(namespace or DEFAULT_NAMESPACE) if known else None
        if workload_type is None or site.labels.get(WORKLOAD_TYPE_LABEL) == workload_type:
            continue
        report(
            f"{site.named(resource.name)} runs GPU pods in the '{namespace}' namespace "
            f"({WORKLOAD_TYPE_LABEL}: {workload_type}) without the label "
            f"{WORKLOAD_TYPE_LABEL}: {workload_type} (its labels: {_labels(site.labels)}).",
            resource.urn,
            fix=(
                f"Label the pod {WORKLOAD_TYPE_LABEL}: {workload_type} (its template's "
                "metadata.labels; a NIMService's spec.labels; a KServe component's labels)."
            ),
        )


POLICY = stack_policy(INFO, validate)
