"""The CEL of the in-cluster queue admission policy (components/gpu_queue_admission_cel.py),
evaluated for real (cel-python, as ``test_gpu_admission_policy`` does) on every kind it judges,
both ways: in a queued namespace a GPU workload names its LocalQueue."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from gpu_facts.kueue import QUEUE_NAME_LABEL, QUEUE_NAMESPACE_LABEL
from gpu_facts.pod_templates import pod_bearing_kind
from gpu_platform.components.gpu_queue_admission_cel import (
    JUDGED_KINDS,
    MAP_COLLECTIONS,
    VALIDATIONS,
    VARIABLES,
)
from tests.components.cel_policy import CompiledPolicy, compile_policy, failed_messages
from tests.policies.pod_fixtures import KINDS, gpu_pod_spec, wrap


def test_the_map_collections_are_the_kubeflow_replica_specs() -> None:
    """Every ``*`` of a judged kind's pod paths follows a list, but Kubeflow's replica specs."""
    for judged in JUDGED_KINDS:
        row = pod_bearing_kind(judged.group, judged.kind)
        assert row is not None
        for path in row.paths:
            for before, key in zip(path.keys, path.keys[1:], strict=False):
                if key == "*":
                    assert (before in MAP_COLLECTIONS) == before.endswith("ReplicaSpecs"), path


@cache
def _compiled() -> CompiledPolicy:
    return compile_policy(
        {
            "variables": [{"name": v.name, "expression": v.expression} for v in VARIABLES],
            "validations": [
                {"message": v.message, "expression": v.expression} for v in VALIDATIONS
            ],
        }
    )


def failed(obj: dict[str, Any], namespace_labels: dict[str, str] | None = None) -> list[str]:
    """Keys of the validations ``obj`` fails in a queued namespace; a CEL error fails the test."""
    labels = {QUEUE_NAMESPACE_LABEL: "training"} if namespace_labels is None else namespace_labels
    namespace = {"metadata": {"name": "gpu-training", "labels": labels}}
    keys = {v.message: v.key for v in VALIDATIONS}
    return [keys[m] for m in failed_messages(_compiled(), obj, namespace)]


def workload(
    label: str, spec: dict[str, Any] | None = None, queue: str | None = None
) -> dict[str, Any]:
    """A workload of ``label`` (``Deployment``, ``JobSet.jobset.x-k8s.io``) as the API server
    admits it, naming ``queue`` where Kueue reads it."""
    res = wrap(label, copy.deepcopy(spec or gpu_pod_spec()))
    obj: dict[str, Any] = {"kind": label.split(".", 1)[0], **copy.deepcopy(res.props)}
    if queue is not None:
        if obj["kind"] == "CronJob":
            obj["spec"]["jobTemplate"].setdefault("metadata", {})["labels"] = {
                QUEUE_NAME_LABEL: queue
            }
        elif obj["kind"] == "ReplicaSet":
            obj["spec"]["template"]["metadata"]["labels"][QUEUE_NAME_LABEL] = queue
        else:
            obj["metadata"]["labels"] = {QUEUE_NAME_LABEL: queue}
    return obj


JUDGED_LABELS = [
    label
    for label in KINDS
    if label
    in {
        k.kind if k.group in ("core", "apps", "batch") else f"{k.kind}.{k.group}"
        for k in JUDGED_KINDS
    }
]
QUEUEABLE = [label for label in JUDGED_LABELS if label != "DaemonSet"]


def test_every_kind_kueue_queues_is_judged() -> None:
    assert {"Job", "Pod", "Deployment", "JobSet.jobset.x-k8s.io", "RayJob.ray.io"} <= set(QUEUEABLE)
    assert {"PyTorchJob.kubeflow.org", "LeaderWorkerSet.leaderworkerset.x-k8s.io"} <= set(QUEUEABLE)
    assert len(JUDGED_LABELS) == len(JUDGED_KINDS)


@pytest.mark.parametrize("label", QUEUEABLE)
def test_a_gpu_workload_naming_its_queue_passes(label: str) -> None:
    assert failed(workload(label, queue="training")) == []


@pytest.mark.parametrize("label", QUEUEABLE)
def test_a_gpu_workload_without_a_queue_is_refused(label: str) -> None:
    assert failed(workload(label)) == ["gpu-queue-name"]


@pytest.mark.parametrize("label", QUEUEABLE)
def test_a_workload_without_a_gpu_needs_no_queue(label: str) -> None:
    cpu = gpu_pod_spec()
    cpu["containers"][0]["resources"] = {"limits": {"cpu": "1"}}
    assert failed(workload(label, cpu)) == []


def test_a_gpu_daemonset_is_refused_even_with_a_queue_name() -> None:
    daemonset = workload("DaemonSet", queue="training")
    daemonset["metadata"]["labels"] = {QUEUE_NAME_LABEL: "training"}
    assert failed(daemonset) == ["gpu-daemonset-unqueued"]


def test_what_a_controller_made_was_judged_as_its_controller() -> None:
    pod = workload("Pod")
    pod["metadata"]["ownerReferences"] = [
        {"apiVersion": "batch/v1", "kind": "Job", "name": "train", "uid": "1", "controller": True}
    ]
    assert failed(pod) == []
    # An owner that is no controller does not excuse the pod.
    pod["metadata"]["ownerReferences"][0]["controller"] = False
    assert failed(pod) == ["gpu-queue-name"]


def test_a_replica_set_names_its_queue_on_its_pods() -> None:
    """A Deployment's ReplicaSet carries the label Kueue's webhook copied into the template."""
    replica_set = workload("ReplicaSet")
    replica_set["metadata"]["labels"] = {QUEUE_NAME_LABEL: "training"}
    assert failed(replica_set) == ["gpu-queue-name"]
    assert failed(workload("ReplicaSet", queue="training")) == []


@pytest.mark.parametrize("label", ["Deployment", "StatefulSet"])
def test_a_deployment_may_name_its_queue_on_its_pods(label: str) -> None:
    """Kueue queues the pods one by one when only the template names the queue (a chart that
    exposes only podLabels); a Job's pods so named would lose all-or-nothing admission."""
    obj = workload(label)
    obj["spec"]["template"]["metadata"].setdefault("labels", {})[QUEUE_NAME_LABEL] = "training"
    assert failed(obj) == []
    job = workload("Job")
    job["spec"]["template"].setdefault("metadata", {}).setdefault("labels", {})[
        QUEUE_NAME_LABEL
    ] = "training"
    assert failed(job) == ["gpu-queue-name"]


def test_a_cronjobs_jobs_get_a_local_queue_named_default() -> None:
    """Kueue names the namespace's LocalQueue 'default' for a Job that names none (every other
    kind arrives with the label: its webhook mutates before validation); a CronJob is not
    mutated, its Jobs are."""
    cron = workload("CronJob")
    assert failed(cron, {QUEUE_NAMESPACE_LABEL: "default"}) == []
    assert failed(cron) == ["gpu-queue-name"]


def test_gpus_in_init_containers_and_amd_gpus_count_too() -> None:
    init = gpu_pod_spec()
    init["initContainers"] = init.pop("containers")
    init["containers"] = [{"name": "side", "image": "busybox:1.36"}]
    assert failed(workload("Job", init)) == ["gpu-queue-name"]
    amd = gpu_pod_spec()
    amd["containers"][0]["resources"] = {"limits": {"amd.com/gpu": 1}}
    assert failed(workload("JobSet.jobset.x-k8s.io", amd)) == ["gpu-queue-name"]


@pytest.mark.parametrize("label", ["Job", "LeaderWorkerSet.leaderworkerset.x-k8s.io", "Pod"])
def test_a_pod_that_claims_devices_is_a_gpu_workload(label: str) -> None:
    """DRA: a claim in a GPU namespace is on a GPU DeviceClass (the claims policy refuses any
    other), and Kueue charges it to the ClusterQueue through deviceClassMappings."""
    claims = gpu_pod_spec()
    claims["containers"][0]["resources"] = {"claims": [{"name": "gpu"}]}
    claims["resourceClaims"] = [{"name": "gpu", "resourceClaimTemplateName": "gpu-a100"}]
    assert failed(workload(label, claims)) == ["gpu-queue-name"]
    assert failed(workload(label, claims, queue="training")) == []
    claims["resourceClaims"] = []
    claims["containers"][0]["resources"] = {}
    assert failed(workload(label, claims)) == []


def test_every_validation_is_seen_refusing() -> None:
    seen = set(failed(workload("Job"))) | set(failed(workload("DaemonSet")))
    assert seen == {v.key for v in VALIDATIONS}
