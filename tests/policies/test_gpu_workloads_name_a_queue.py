"""gpu-workloads-name-a-queue: in a queued namespace a GPU workload names its LocalQueue, both
ways for every kind Kueue queues, the issue's seven first."""

from __future__ import annotations

import pytest

from gpu_facts.kueue import QUEUE_NAME_LABEL

from .crd_fixtures import KAITO_RESOURCE
from .harness import Case, Res, assert_case, messages
from .pod_fixtures import KINDS, gpu_pod_spec, wrap
from .queue_fixtures import (
    KUEUE_KINDS,
    OPERATOR_KINDS,
    local_queue,
    queued,
    queued_by_pods,
    queued_namespace,
    queues,
)

POLICY = "gpu-workloads-name-a-queue"
NO_QUEUE = "but names no LocalQueue (kueue.x-k8s.io/queue-name)"
CANNOT = "but Kueue cannot queue a"
QUEUE_KINDS = (*KUEUE_KINDS, "CronJob", "StatefulSet", "ReplicaSet", "MPIJob.kubeflow.org")


def preset_workspace() -> Res:
    """A KAITO Workspace serving a preset model: KAITO builds the pod and sets all its labels."""
    props = {
        "apiVersion": "kaito.sh/v1beta1",
        "kind": "Workspace",
        "metadata": {"name": "phi", "namespace": "gpu-training", "labels": {QUEUE_NAME_LABEL: "x"}},
        "resource": dict(KAITO_RESOURCE),
        "inference": {"preset": {"name": "phi-4"}},
    }
    return Res(KINDS["Workspace.kaito.sh"], "phi", props)


def default_queues() -> tuple[Res, ...]:
    """Kueue's example shape, the namespace's LocalQueue named ``default``."""
    return (*queues()[:2], local_queue(name="default"))


def _cpu_spec() -> dict[str, object]:
    spec = gpu_pod_spec()
    spec["containers"][0]["resources"] = {"limits": {"cpu": "1"}}  # type: ignore[index]
    return spec


CASES: list[Case] = [
    *(
        Case(POLICY, f"{kind}-names-its-queue", (*queues(), queued(kind, gpu_pod_spec())))
        for kind in QUEUE_KINDS
    ),
    *(
        Case(
            POLICY,
            f"{kind}-names-no-queue",
            (*queues(), queued(kind, gpu_pod_spec(), queue=None)),
            (NO_QUEUE,),
        )
        for kind in QUEUE_KINDS
    ),
    # Only the pod template names the queue (a chart exposing podLabels): Kueue queues a
    # Deployment's or StatefulSet's pods one by one. A Job's would lose all-or-nothing admission:
    # a Job names its queue on itself.
    *(
        Case(
            POLICY, f"{kind}-pods-name-the-queue", (*queues(), queued_by_pods(kind, gpu_pod_spec()))
        )
        for kind in ("Deployment", "StatefulSet")
    ),
    Case(
        POLICY,
        "job-pods-alone-name-the-queue",
        (*queues(), queued_by_pods("Job", gpu_pod_spec())),
        (NO_QUEUE,),
    ),
    # LocalQueue defaulting: where the namespace's LocalQueue is named 'default', Kueue names it
    # for a workload that names none (an operator's objects included); not for a DaemonSet.
    *(
        Case(
            POLICY,
            f"{kind}-defaulted-to-the-default-local-queue",
            (*default_queues(), queued(kind, gpu_pod_spec(), queue=None)),
        )
        for kind in (*KUEUE_KINDS, "Workspace.kaito.sh")
    ),
    Case(
        POLICY,
        "kaito-preset-defaulted-to-the-default-local-queue",
        (*default_queues(), preset_workspace()),
    ),
    Case(
        POLICY,
        "default-by-namespace-label",
        (queued_namespace(queue="default"), queued("Job", gpu_pod_spec(), queue=None)),
    ),
    Case(
        POLICY,
        "gpu-daemonset-not-defaulted",
        (*default_queues(), queued("DaemonSet", gpu_pod_spec(), queue=None)),
        ("but Kueue cannot queue a DaemonSet",),
    ),
    # Queued by the namespace's label alone (the LocalQueue made by the platform's stack).
    Case(
        POLICY,
        "namespace-label-names-the-queue",
        (queued_namespace(), queued("Job", gpu_pod_spec(), queue=None)),
        ("names no LocalQueue (kueue.x-k8s.io/queue-name)",),
    ),
    Case(POLICY, "namespace-label-queued-job", (queued_namespace(), queued("Job", gpu_pod_spec()))),
    # Not queued: another namespace, no queue anywhere, or no GPU.
    Case(POLICY, "unqueued-namespace", (local_queue("gpu-inference"), wrap("Job", gpu_pod_spec()))),
    Case(POLICY, "no-queues-at-all", (wrap("Deployment", gpu_pod_spec()),)),
    Case(POLICY, "cpu-workload", (*queues(), queued("Job", _cpu_spec(), queue=None))),
    # Pods an operator builds (KAITO, NIM) name their queue in the labels the program gives
    # them: a NIMService's spec.labels, a KAITO template's metadata.labels.
    *(
        Case(POLICY, f"{kind}-pods-name-their-queue", (*queues(), queued(kind, gpu_pod_spec())))
        for kind in OPERATOR_KINDS
    ),
    *(
        Case(
            POLICY,
            f"{kind}-pods-name-no-queue",
            (*queues(), queued(kind, gpu_pod_spec(), queue=None)),
            (NO_QUEUE,),
        )
        for kind in OPERATOR_KINDS
    ),
    # A preset's pods carry KAITO's labels only: the Workspace's own label does not reach them.
    Case(
        POLICY,
        "kaito-preset-cannot-name-a-queue",
        (*queues(), preset_workspace()),
        (
            "'phi' (inference.preset) asks for nvidia.com/gpu in namespace 'gpu-training', whose "
            "GPUs are queued (LocalQueue 'training'), but KAITO gives these pods its own labels",
        ),
    ),
    # Kinds Kueue cannot queue.
    Case(
        POLICY,
        "gpu-daemonset",
        (*queues(), queued("DaemonSet", gpu_pod_spec())),
        ("but Kueue cannot queue a DaemonSet",),
    ),
    Case(
        POLICY,
        "gpu-inference-service",
        (*queues(), queued("InferenceService.serving.kserve.io", gpu_pod_spec())),
        (CANNOT + " InferenceService.serving.kserve.io",),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_the_fix_names_the_namespaces_queue() -> None:
    from .harness import messages

    (message,) = messages(
        Case(POLICY, "fix", (*queues(), queued("CronJob", gpu_pod_spec(), queue=None)), ("x",))
    )
    assert (
        "Fix: Add the label kueue.x-k8s.io/queue-name: training to its metadata.labels" in message
    )
    assert "(spec.jobTemplate.metadata.labels)" in message


def test_an_operators_pods_are_told_where_their_labels_go() -> None:
    """The fix names the field the operator reads the pods' labels from; the operator's objects
    have a controller, so the cluster's queue admission policy is not said to refuse them."""
    (nim,) = messages(
        Case(
            POLICY,
            "nim",
            (*queues(), queued("NIMService.apps.nvidia.com", gpu_pod_spec(), queue=None)),
            ("x",),
        )
    )
    assert "Fix: Add the label kueue.x-k8s.io/queue-name: training to spec.labels" in nim
    assert "admission policy" not in nim
    (kaito,) = messages(
        Case(
            POLICY,
            "kaito",
            (*queues(), queued("Workspace.kaito.sh", gpu_pod_spec(), queue=None)),
            ("x",),
        )
    )
    assert "to the inference template's metadata.labels." in kaito


def test_each_service_of_a_nim_pipeline_names_its_own_queue() -> None:
    """A NIMPipeline's services are NIMServices of their own: the one whose labels name no queue
    is reported, by the service it is."""
    pipeline = queued("NIMPipeline.apps.nvidia.com", gpu_pod_spec())
    services = pipeline.props["spec"]["services"]
    second = {**services[1], "name": "reranker", "spec": dict(services[1]["spec"])}
    second["spec"]["labels"] = {"workload": "training"}
    pipeline.props["spec"]["services"] = [*services, second]
    (message,) = messages(Case(POLICY, "pipeline", (*queues(), pipeline), ("x",)))
    assert "(spec.services[reranker]) asks for nvidia.com/gpu" in message
