"""Which queue rows a bad answer skips (verify.queue_verify.queue_reads); the reads themselves
run against the fake API server in tests/stacks/test_verify_queues.py."""

from __future__ import annotations

from gpu_platform.verify.answers import BadAnswer
from gpu_platform.verify.queue_verify import queue_reads
from gpu_platform.verify.results import CheckResult
from tests.verify.test_queue_checks import QUEUES


def bad(resource: str, namespace: str | None = None, selector: str = "") -> BadAnswer:
    return BadAnswer("list", resource, namespace, selector, "a list", "not a list", False)


def row(check: str, subject: str) -> CheckResult:
    return CheckResult(check, subject, "-", "-", "pass")


def test_each_list_feeds_its_own_rows() -> None:
    reads = queue_reads(QUEUES)
    assert reads(bad("clusterqueues"), row("cluster-queue", "clusterqueue/training"))
    assert not reads(bad("clusterqueues"), row("resource-flavor", "resourceflavor/t4"))
    assert reads(bad("resourceflavors"), row("resource-flavor", "resourceflavor/t4"))
    assert reads(bad("deployments", "kueue-system"), row("kueue-controller", "deployment/x/y"))
    local = row("local-queue", "localqueue/gpu-training/training")
    assert reads(bad("localqueues", "gpu-training"), local)
    assert not reads(bad("localqueues", "gpu-inference"), local)
    assert reads(
        bad("nodes", selector="gpu-platform.io/pool=t4"),
        row("resource-flavor", "resourceflavor/t4"),
    )


def test_without_queues_nothing_is_theirs() -> None:
    assert not queue_reads(None)(
        bad("clusterqueues"), row("cluster-queue", "clusterqueue/training")
    )
