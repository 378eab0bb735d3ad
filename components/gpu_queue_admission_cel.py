"""The CEL of the in-cluster queue admission policy: in a namespace whose GPUs are queued, a
workload that asks for a GPU (a GPU resource, or a ResourceClaim: DRA) names its LocalQueue, or
it would bypass the queue's quota.

Plain data, like ``gpu_admission_cel`` (whose core-only CEL it shares), so tests evaluate every
expression with a CEL implementation and ``GpuQueues`` hands the same strings to the
``ValidatingAdmissionPolicy``. The pods of each kind are found where ``gpu_facts.pod_templates``
says they are; the kinds are the ones Kueue queues (``gpu_facts.kueue.QUEUED_KINDS``) and the
two it cannot (DaemonSet, ReplicaSet).

What is judged is the object a user or tool creates: an object with a controller (a ReplicaSet
of a Deployment, the Jobs of a JobSet, the pods of any of them) was judged as its controller, or
its controller is no kind Kueue queues (then the namespace's ResourceQuota still caps it).
"""

from __future__ import annotations

from dataclasses import dataclass

from gpu_facts.kueue import QUEUE_NAME_LABEL, QUEUE_NAMESPACE_LABEL, QUEUED_KINDS
from gpu_facts.pod_templates import ANY, PodPath, pod_bearing_kind

from .gpu_admission_cel import (
    CelValidation,
    CelVariable,
    asks_cel,
    is_gpu_resource_cel,
    label_cel,
    queue_name_cel,
)

UNQUEUED_KINDS: tuple[tuple[str, str, str], ...] = (
    ("apps", "DaemonSet", "daemonsets"),
    ("apps", "ReplicaSet", "replicasets"),
)
"""(group, kind, resource) of the workloads Kueue does not queue as such: a GPU DaemonSet in a
queued namespace is refused; a ReplicaSet only if its pods do not name a queue."""
MAP_COLLECTIONS: frozenset[str] = frozenset(
    {
        "pytorchReplicaSpecs",
        "tfReplicaSpecs",
        "mpiReplicaSpecs",
        "xgbReplicaSpecs",
        "paddleReplicaSpecs",
        "jaxReplicaSpecs",
    }
)
"""Where a ``*`` of a queued kind's pod path is a map (Kubeflow's replica specs, keyed by replica
type: Master, Worker); every other ``*`` of those paths is a list."""
_GPU = is_gpu_resource_cel("r")


def _guarded(base: str, keys: tuple[str, ...]) -> tuple[str, str]:
    """(CEL: every field of ``keys`` below ``base`` is set, CEL: the value there), each field
    guarded by ``has`` (a missing field is no error: the API server reads untyped objects)."""
    guards, current = [], base
    for key in keys:
        current = f"{current}.{key}"
        guards.append(f"has({current})")
    return " && ".join(guards) or "true", current


def pod_specs_cel(path: PodPath) -> str:
    """CEL: the list of pod specs at ``path`` of ``object`` (one ``*`` at most: every list item
    or map value). A TrainJob has no pod template: its trainer's ``resourcesPerNode`` stands in
    as the one container of a pod."""
    if path.shape == "trainJob":
        trainer = "object.spec.trainer"
        return (
            f"(has({trainer}) && has({trainer}.resourcesPerNode)"
            f" ? [{{'containers': [{{'resources': {trainer}.resourcesPerNode}}]}}] : [])"
        )
    keys = path.keys + (("spec",) if path.shape == "template" else ())
    if keys.count(ANY) > 1:  # a guard on the tables: no queued kind nests its pods deeper
        raise ValueError(f"more than one * in {path}")
    if ANY not in keys:
        guard, value = _guarded("object", keys)
        return f"({guard} ? [{value}] : [])"
    at = keys.index(ANY)
    guard, collection = _guarded("object", keys[:at])
    item = "x"
    base = f"{collection}[{item}]" if keys[at - 1] in MAP_COLLECTIONS else item
    inner, value = _guarded(base, keys[at + 1 :])
    return f"({guard} ? {collection}.filter({item}, {inner}).map({item}, {value}) : [])"


@dataclass(frozen=True, slots=True)
class JudgedKind:
    group: str
    kind: str
    resource: str


JUDGED_KINDS: tuple[JudgedKind, ...] = (
    *(JudgedKind(k.group, k.kind, k.resource) for k in QUEUED_KINDS),
    *(JudgedKind(*entry) for entry in UNQUEUED_KINDS),
)
"""Every kind the policy matches."""


def pod_specs_by_kind_cel() -> str:
    """CEL: the pod specs of the admitted object, whichever judged kind it is."""
    expression = "[]"
    for judged in reversed(JUDGED_KINDS):
        row = pod_bearing_kind(judged.group, judged.kind)
        if row is None:  # a guard on the tables: every judged kind makes pods
            raise ValueError(f"no pod paths for {judged.group}/{judged.kind}")
        specs = " + ".join(pod_specs_cel(p) for p in row.paths)
        expression = f"(object.kind == '{judged.kind}' ? {specs} : {expression})"
    return expression


VARIABLES: tuple[CelVariable, ...] = (
    CelVariable("localQueue", label_cel("namespaceObject.metadata", QUEUE_NAMESPACE_LABEL)),
    CelVariable("queueName", queue_name_cel()),
    CelVariable(
        "controlled",
        "has(object.metadata.ownerReferences)"
        " && object.metadata.ownerReferences.exists(o, has(o.controller) && o.controller)",
    ),
    CelVariable("podSpecs", pod_specs_by_kind_cel()),
    # A pod with claims (DRA) asks for GPUs: in a GPU namespace every claim is on a GPU
    # DeviceClass its quota caps (GpuAdmissionPolicy's claims policy refuses any other).
    CelVariable(
        "asksGpu",
        "variables.podSpecs.exists(s, "
        + " || ".join(
            [
                *(
                    f"(has(s.{field}) && s.{field}.exists(c, {asks_cel('c', _GPU)}))"
                    for field in ("containers", "initContainers")
                ),
                "(has(s.resourceClaims) && size(s.resourceClaims) > 0)",
            ]
        )
        + ")",
    ),
)

VALIDATIONS: tuple[CelValidation, ...] = (
    CelValidation(
        "gpu-queue-name",
        "BP-09",
        "!variables.asksGpu || object.kind == 'DaemonSet' || variables.controlled"
        " || variables.queueName != ''",
        f"in a namespace whose GPUs are queued (label {QUEUE_NAMESPACE_LABEL}), a workload that"
        " asks for a GPU (a GPU resource, or a ResourceClaim) names its LocalQueue in the label"
        f" {QUEUE_NAME_LABEL} (a CronJob in"
        " spec.jobTemplate.metadata.labels): without it, it would bypass the queue's quota"
        " (BP-09)",
    ),
    CelValidation(
        "gpu-daemonset-unqueued",
        "BP-09",
        "object.kind != 'DaemonSet' || !variables.asksGpu",
        "Kueue cannot queue a DaemonSet: a DaemonSet that asks for a GPU would bypass the queue's"
        " quota; run it in a namespace whose GPUs are not queued (BP-09)",
    ),
)
