"""The queues' expectations (verify.queue_expectations) are plan.queues' objects."""

from __future__ import annotations

from gpu_platform.verify.queue_expectations import queue_expectation
from tests.conftest import platform_of, stack_raw


def test_a_stack_without_queues_expects_none() -> None:
    assert queue_expectation(platform_of(stack_raw("dev"))) is None


def test_the_queues_dev_stacks_queues() -> None:
    found = queue_expectation(platform_of(stack_raw("queues-dev")))
    assert found is not None
    assert (found.namespace, found.deployment) == ("kueue-system", "kueue-controller-manager")
    assert [(f.name, f.pool, f.node_labels) for f in found.flavors] == [
        ("a100", "a100", {"gpu-platform.io/pool": "a100"}),
        ("t4", "t4", {"gpu-platform.io/pool": "t4"}),
    ]
    training = next(q for q in found.cluster_queues if q.name == "training")
    assert training.cohort == "gpu-platform"
    assert training.quotas == {("a100", "nvidia.com/gpu"): 12, ("a100", "nvidia.com/gpu.shared"): 0}
    assert [(q.namespace, q.name, q.cluster_queue) for q in found.local_queues] == [
        ("gpu-training", "training", "training"),
        ("gpu-inference", "inference", "inference"),
    ]
