"""gpu-workloads-name-a-queue: in a queued namespace a GPU workload names its LocalQueue, both
ways for every kind Kueue queues, the issue's seven first."""

from __future__ import annotations

import pytest

from .harness import Case, assert_case
from .pod_fixtures import gpu_pod_spec, wrap
from .queue_fixtures import KUEUE_KINDS, local_queue, queued, queued_namespace, queues

POLICY = "gpu-workloads-name-a-queue"
NO_QUEUE = "but names no LocalQueue (kueue.x-k8s.io/queue-name)"
CANNOT = "but Kueue cannot queue a"
QUEUE_KINDS = (*KUEUE_KINDS, "CronJob", "StatefulSet", "ReplicaSet", "MPIJob.kubeflow.org")


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
