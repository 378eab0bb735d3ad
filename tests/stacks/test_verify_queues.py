"""``make verify`` on the stack's queues, end to end: the recorded cluster of ``test_verify`` with
Kueue's controller and queue objects added (tests/data/verify/queues/), served by the same fake
API server; the stack is the recorded one with ``queues: {}`` (Pulumi.verify-queues.yaml).

Scenarios are the healthy recording with one thing broken; each says what its row saw.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.stacks.test_verify import (
    DATA,
    QUEUE_KINDS,
    FakeCluster,
    RawAnswer,
    Run,
    _recorded,
    rows_changed,
    serving,
    verify,
    write_kubeconfig,
)

QUEUE_DATA = DATA / "queues"
STACK = DATA / "Pulumi.verify-queues.yaml"
CONTROLLER = ("kueue-controller", "deployment/kueue-system/kueue-controller-manager")


def _recorded_with_queues() -> FakeCluster:
    cluster = _recorded()
    for kind in QUEUE_KINDS:
        cluster.lists[kind] = json.loads((QUEUE_DATA / f"{kind}.json").read_text())
    return cluster


@pytest.fixture
def queue_cluster() -> FakeCluster:
    """A fresh copy of the healthy recording with Kueue; tests break one thing in it."""
    return copy.deepcopy(_recorded_with_queues())


@pytest.fixture
def queue_kubeconfig(tmp_path: Path, queue_cluster: FakeCluster) -> Iterator[Path]:
    with serving(queue_cluster) as url:
        yield write_kubeconfig(tmp_path / "kubeconfig", url)


def run_verify(kubeconfig: Path, *extra: str) -> Run:
    return verify(kubeconfig, *extra, "--skip-driver", "--skip-metrics", config=STACK)


def queue_rows(run: Run) -> list[dict[str, str]]:
    checks = {"kueue-controller", "resource-flavor", "cluster-queue", "local-queue"}
    return [r for r in run.rows() if r["check"] in checks]


def find(cluster: FakeCluster, kind: str, name: str) -> dict[str, Any]:
    return cluster.find(kind, name)


def test_healthy_queues_pass_every_check(queue_kubeconfig: Path) -> None:
    run = run_verify(queue_kubeconfig)
    assert run.code == 0, run.out
    assert [(r["check"], r["subject"], r["status"]) for r in queue_rows(run)] == [
        (*CONTROLLER, "pass"),
        ("resource-flavor", "resourceflavor/a100", "pass"),
        ("resource-flavor", "resourceflavor/t4", "pass"),
        ("cluster-queue", "clusterqueue/training", "pass"),
        ("cluster-queue", "clusterqueue/inference", "pass"),
        ("local-queue", "localqueue/gpu-training/training", "pass"),
        ("local-queue", "localqueue/gpu-inference/inference", "pass"),
    ]
    assert (
        run.row("resource-flavor", "resourceflavor/a100")["found"] == "selects the pool's 2 nodes"
    )
    assert run.row(*CONTROLLER)["found"] == "1/1 ready"
    training = run.row("cluster-queue", "clusterqueue/training")
    assert "nvidia.com/mig-1g.5gb on a100: 56" in training["expected"]


def test_the_same_checks_are_skipped_for_a_stack_without_queues(queue_kubeconfig: Path) -> None:
    run = verify(queue_kubeconfig, "--skip-driver", "--skip-metrics")
    assert queue_rows(run) == []


def test_an_inactive_cluster_queue_fails_its_row(
    queue_kubeconfig: Path, queue_cluster: FakeCluster
) -> None:
    healthy = run_verify(queue_kubeconfig)
    training = find(queue_cluster, "clusterqueues", "training")
    training["status"]["conditions"][0].update(
        status="False",
        reason="FlavorNotFound",
        message="Can't admit new workloads: references missing ResourceFlavor(s): a100.",
    )
    run = run_verify(queue_kubeconfig)
    assert run.code == 1
    assert run.failures() == [("cluster-queue", "clusterqueue/training")]
    assert rows_changed(healthy, run, added=0) == {
        ("cluster-queue", "clusterqueue/training"): [
            "not Active (FlavorNotFound: Can't admit new workloads: references missing "
            "ResourceFlavor(s): a100.)",
            "fail",
        ]
    }


def test_a_flavour_that_selects_no_node_fails_its_row(
    queue_kubeconfig: Path, queue_cluster: FakeCluster
) -> None:
    """Someone edited the live flavour's nodeLabels: they select no node of the cluster."""
    find(queue_cluster, "resourceflavors", "a100")["spec"]["nodeLabels"] = {
        "gpu-platform.io/pool": "a100-old"
    }
    run = run_verify(queue_kubeconfig)
    assert run.failures() == [("resource-flavor", "resourceflavor/a100")]
    found = run.row("resource-flavor", "resourceflavor/a100")["found"]
    assert found == "nodeLabels {'gpu-platform.io/pool': 'a100-old'}; its nodeLabels select no node"


def test_a_flavour_that_selects_other_nodes_too_fails(
    queue_kubeconfig: Path, queue_cluster: FakeCluster
) -> None:
    """The live flavour selects every GPU node, the other pool's too."""
    find(queue_cluster, "resourceflavors", "a100")["spec"]["nodeLabels"] = {
        "nvidia.com/gpu.present": "true"
    }
    run = run_verify(queue_kubeconfig)
    assert run.failures() == [("resource-flavor", "resourceflavor/a100")]
    found = run.row("resource-flavor", "resourceflavor/a100")["found"]
    assert found == (
        "nodeLabels {'nvidia.com/gpu.present': 'true'}; 3 nodes selected; "
        "not of the pool: aks-t4-27182818-vmss000000"
    )


def test_quotas_other_than_planned_fail(queue_kubeconfig: Path, queue_cluster: FakeCluster) -> None:
    inference = find(queue_cluster, "clusterqueues", "inference")
    inference["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "12"
    run = run_verify(queue_kubeconfig)
    assert run.failures() == [("cluster-queue", "clusterqueue/inference")]
    found = run.row("cluster-queue", "clusterqueue/inference")["found"]
    assert found.startswith("nominal quotas nvidia.com/gpu.shared on t4: 12")


def test_a_local_queue_pointing_elsewhere_or_missing_fails(
    queue_kubeconfig: Path, queue_cluster: FakeCluster
) -> None:
    find(queue_cluster, "localqueues", "training")["spec"]["clusterQueue"] = "inference"
    items = queue_cluster.items("localqueues")
    items.remove(find(queue_cluster, "localqueues", "inference"))
    run = run_verify(queue_kubeconfig)
    assert run.row("local-queue", "localqueue/gpu-training/training")["found"] == (
        "points at inference"
    )
    assert run.row("local-queue", "localqueue/gpu-inference/inference")["found"] == (
        "no such LocalQueue"
    )
    assert run.code == 1


def test_a_controller_without_a_ready_pod_fails(
    queue_kubeconfig: Path, queue_cluster: FakeCluster
) -> None:
    find(queue_cluster, "deployments", "kueue-controller-manager")["status"]["readyReplicas"] = 0
    run = run_verify(queue_kubeconfig)
    assert run.failures() == [CONTROLLER]
    assert run.row(*CONTROLLER)["found"] == "0/1 ready"


def test_kueue_not_installed_is_failing_rows_not_a_failed_run(
    queue_kubeconfig: Path, queue_cluster: FakeCluster
) -> None:
    queue_cluster.items("deployments").clear()
    queue_cluster.absent.append(r"^/apis/kueue\.x-k8s\.io/")
    run = run_verify(queue_kubeconfig)
    assert run.code == 1, run.err
    failing = run.failures()
    assert CONTROLLER in failing
    assert ("resource-flavor", "resourceflavor/a100") in failing
    row = run.row("cluster-queue", "clusterqueue/training")
    assert row["found"].startswith("Kueue's API (kueue.x-k8s.io/v1beta2) is not served")


def test_a_list_that_is_no_list_skips_its_rows_and_fails_once(
    queue_kubeconfig: Path, queue_cluster: FakeCluster
) -> None:
    queue_cluster.raw.append(RawAnswer(r"/clusterqueues", {"kind": "Status", "items": "none"}))
    run = run_verify(queue_kubeconfig)
    training = run.row("cluster-queue", "clusterqueue/training")
    assert training["status"] == "skip"
    assert training["found"].startswith(
        "not checked: list clusterqueues.kueue.x-k8s.io gave no list"
    )
    assert ("api-answer", "list clusterqueues.kueue.x-k8s.io") in run.failures()


def test_verify_only_reads_the_queues(queue_kubeconfig: Path, queue_cluster: FakeCluster) -> None:
    run_verify(queue_kubeconfig)
    methods = {method for method, _ in queue_cluster.requests}
    assert methods == {"GET"}
    paths = [path for _, path in queue_cluster.requests]
    assert any("/apis/kueue.x-k8s.io/v1beta2/clusterqueues" in p for p in paths)
    assert any("/namespaces/gpu-training/localqueues" in p for p in paths)
