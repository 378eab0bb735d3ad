"""Kueue's objects in the wire shape a program sends them (``CustomResource``s of
``kueue.x-k8s.io/v1beta2``), in the shapes of Kueue's own GPU examples: a ResourceFlavor that
carries the GPU toleration, a ClusterQueue with GPU quota on it, a LocalQueue in the workload's
namespace; and workloads naming their queue."""

from __future__ import annotations

import copy
from typing import Any

from gpu_facts.kueue import QUEUE_NAME_LABEL, QUEUE_NAMESPACE_LABEL
from gpu_policy_support.queues import operator_built

from .harness import Res
from .pod_fixtures import GPU_TOLERATION, KINDS, gpu_pod_spec, wrap

FLAVOR = "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor"
CLUSTER_QUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue"
LOCAL_QUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue"
NAMESPACE = "kubernetes:core/v1:Namespace"
QUEUE = "training"
"""The LocalQueue of ``gpu-training`` and its ClusterQueue."""


def flavor(
    name: str = "t4",
    node_labels: dict[str, str] | None = None,
    tolerations: list[dict[str, Any]] | None = None,
) -> Res:
    """A flavour of the GPU pool ``name``: its pool label, the GPU taint's toleration."""
    spec: dict[str, Any] = {
        "nodeLabels": {"gpu-platform.io/pool": name} if node_labels is None else node_labels,
        "tolerations": [dict(GPU_TOLERATION)] if tolerations is None else tolerations,
    }
    return Res(FLAVOR, f"flavor-{name}", {"metadata": {"name": name}, "spec": spec})


def cluster_queue(
    name: str = QUEUE,
    quotas: dict[str, dict[str, Any]] | None = None,
    cohort: str | None = "gpu-platform",
    borrowing_limit: int | None = None,
) -> Res:
    """A ClusterQueue with ``quotas`` (flavour -> resource -> nominal quota)."""
    quotas = {"t4": {"nvidia.com/gpu": 4}} if quotas is None else quotas
    covered = sorted({r for resources in quotas.values() for r in resources})
    flavors = []
    for flavor_name, resources in quotas.items():
        entries = []
        for resource in covered:
            entry: dict[str, Any] = {"name": resource, "nominalQuota": resources.get(resource, 0)}
            if borrowing_limit is not None:
                entry["borrowingLimit"] = borrowing_limit
            entries.append(entry)
        flavors.append({"name": flavor_name, "resources": entries})
    spec: dict[str, Any] = {
        "namespaceSelector": {},
        "resourceGroups": [{"coveredResources": covered, "flavors": flavors}] if covered else [],
    }
    if cohort is not None:
        spec["cohortName"] = cohort
    return Res(CLUSTER_QUEUE, f"cq-{name}", {"metadata": {"name": name}, "spec": spec})


def local_queue(namespace: str = "gpu-training", name: str = QUEUE, target: str = QUEUE) -> Res:
    props = {
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"clusterQueue": target},
    }
    return Res(LOCAL_QUEUE, f"lq-{namespace}-{name}", props)


def queued_namespace(name: str = "gpu-training", queue: str = QUEUE) -> Res:
    """A namespace labelled with its LocalQueue, as ``GpuWorkloadNamespace`` labels one."""
    labels = {"workload": "training", QUEUE_NAMESPACE_LABEL: queue}
    return Res(NAMESPACE, f"ns-{name}", {"metadata": {"name": name, "labels": labels}})


def queues(**quotas: Any) -> tuple[Res, ...]:
    """Kueue's example shape: a flavour, a ClusterQueue on it, a LocalQueue in gpu-training."""
    return (flavor(), cluster_queue(**quotas), local_queue())


def untolerated_spec() -> dict[str, Any]:
    spec = gpu_pod_spec()
    spec.pop("tolerations")
    return spec


def queued(kind: str, spec: dict[str, Any] | None = None, queue: str | None = QUEUE) -> Res:
    """The workload of ``kind`` with the pod ``spec`` (default: a GPU pod that tolerates
    nothing), naming ``queue`` where Kueue reads it (a pod an operator builds: in the labels
    the program gives it)."""
    spec = copy.deepcopy(spec if spec is not None else untolerated_spec())
    if operator_built(KINDS[kind]):
        return wrap(kind, spec, pod_labels={QUEUE_NAME_LABEL: queue} if queue else None)
    res = wrap(kind, spec)
    props = copy.deepcopy(res.props)
    if queue is not None:
        if kind == "CronJob":
            props["spec"]["jobTemplate"]["metadata"] = {"labels": {QUEUE_NAME_LABEL: queue}}
        elif kind == "ReplicaSet":
            props["spec"]["template"]["metadata"]["labels"][QUEUE_NAME_LABEL] = queue
        else:
            props["metadata"]["labels"] = {QUEUE_NAME_LABEL: queue}
    return Res(res.type, res.name, props)


def queued_by_pods(kind: str, spec: dict[str, Any] | None = None, queue: str = QUEUE) -> Res:
    """The workload of ``kind`` whose pod template alone names ``queue`` (a chart that exposes
    only ``podLabels``): Kueue queues a Deployment's or StatefulSet's pods one by one."""
    res = wrap(kind, copy.deepcopy(spec if spec is not None else untolerated_spec()))
    props = copy.deepcopy(res.props)
    props["spec"]["template"]["metadata"].setdefault("labels", {})[QUEUE_NAME_LABEL] = queue
    return Res(res.type, res.name, props)


KUEUE_KINDS = (
    "Job",
    "JobSet.jobset.x-k8s.io",
    "RayJob.ray.io",
    "PyTorchJob.kubeflow.org",
    "LeaderWorkerSet.leaderworkerset.x-k8s.io",
    "Pod",
    "Deployment",
)
"""The kinds the issue names, every one tested both ways."""
OPERATOR_KINDS = (
    "Workspace.kaito.sh",
    "InferenceSet.kaito.sh",
    "NIMService.apps.nvidia.com",
    "NIMPipeline.apps.nvidia.com",
)
"""Kinds whose operator builds GPU pods (``gpu_facts.operators``; a NIMCache's pod asks for no
GPU): queued by the labels the program gives those pods."""
