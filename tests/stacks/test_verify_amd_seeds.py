"""``make verify``'s seed checks on AMD pools, end to end: the AMD recording of
``test_verify_amd`` (tests/data/verify/amd/) as AKS would show it, served by the same fake API
server (the fixtures: tests/stacks/conftest.py).

Node images (BP-06) and the NVMe cache (BP-18) are the cloud's, so they cover the MI300X pool as
they cover NVIDIA's (Pulumi.verify-amd-aks.yaml); MIG devices, ACK's GPU memory and the MPS
server are NVIDIA's. A stack with AMD pools only (Pulumi.verify-amd-only.yaml) reads nothing of
NVIDIA's, and each NVIDIA check it cannot run says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gpu_facts.aks.nodes import NODE_IMAGE_VERSION_LABEL
from gpu_facts.aks.storage import LOCAL_NVME_TOPOLOGY_KEY
from gpu_facts.scheduling import WORKLOAD_LABEL_PREFIX
from tests.stacks.test_verify import (
    A100_0,
    A100_1,
    DATA,
    T4_0,
    FakeCluster,
    RawAnswer,
    Run,
    rows_changed,
    verify,
)
from tests.stacks.test_verify_amd import MI0, MI1, NS
from tests.stacks.test_verify_seeds import CLASS, H100, _as_aks_cluster, _image

MIXED = DATA / "Pulumi.verify-amd-aks.yaml"
AMD_ONLY = DATA / "Pulumi.verify-amd-only.yaml"
FREE = {MI0: "27890Gi", MI1: "25843Gi"}
"""What the local NVMe driver reports free on each MI300X node (8 disks, 28,000 GiB): a
little under the disks on one, a volume in use on the other."""
NVIDIA_NODES = (A100_0, A100_1, T4_0)
SEED_CHECKS = ("nvme-cache", "nvme-disks", "node-image")


def _as_aks_amd_cluster(cluster: FakeCluster, image_age: int = 10) -> None:
    """The AMD recording as AKS builds it: ``_as_aks_cluster`` (node images on every node, the
    NVMe pool's node, the storage objects), and on the MI300X nodes the workload-type label of
    the research namespace, Azure Container Storage's driver and its free space."""
    _as_aks_cluster(cluster, image_age)
    for node in (MI0, MI1):
        labels = cluster.find("nodes", node)["metadata"]["labels"]
        labels[f"{WORKLOAD_LABEL_PREFIX}training"] = "true"
        labels[LOCAL_NVME_TOPOLOGY_KEY] = node
        cluster.items("csistoragecapacities").append(_capacity(node, FREE[node]))


def _capacity(node: str, free: str) -> dict[str, Any]:
    return {
        "apiVersion": "storage.k8s.io/v1",
        "kind": "CSIStorageCapacity",
        "metadata": {"name": f"csisc-{node[-6:]}", "namespace": "kube-system"},
        "storageClassName": CLASS,
        "nodeTopology": {"matchLabels": {LOCAL_NVME_TOPOLOGY_KEY: node}},
        "capacity": free,
    }


def _seed_rows(run: Run) -> list[tuple[str, str, str, str]]:
    return [
        (r["check"], r["subject"], r["found"], r["status"])
        for r in run.rows()
        if r["check"] in SEED_CHECKS
    ]


# --- a stack with NVIDIA and AMD pools ------------------------------------------------------


def test_node_images_and_nvme_disks_cover_the_amd_pool(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    _as_aks_amd_cluster(amd_cluster)
    run = verify(amd_kubeconfig, config=MIXED)
    assert run.code == 0, run.failures()
    image = f"{_image(10)} (10 days old)"
    assert _seed_rows(run) == [
        (
            "nvme-cache",
            f"storageclass/{CLASS}",
            "provisioner localdisk.csi.acstor.io, WaitForFirstConsumer, reclaim Delete",
            "pass",
        ),
        ("nvme-cache", "csidriver/localdisk.csi.acstor.io", "registered", "pass"),
        (
            "nvme-disks",
            f"node/{T4_0}",
            "3,569 GiB free in the volume group (100% of the disks)",
            "pass",
        ),
        (
            "nvme-disks",
            f"node/{MI0}",
            "27,890 GiB free in the volume group (100% of the disks)",
            "pass",
        ),
        (
            "nvme-disks",
            f"node/{MI1}",
            "25,843 GiB free in the volume group (92% of the disks)",
            "pass",
        ),
        ("node-image", "pool/a100", f"{image} on 2 nodes", "pass"),
        ("node-image", f"pool/{H100}", f"{image} on 1 node", "pass"),
        ("node-image", "pool/mi300x", f"{image} on 2 nodes", "pass"),
    ]
    assert run.row("nvme-disks", f"node/{MI0}")["expected"] == (
        "8 local NVMe disks, 28,000 GiB in the cache's volume group"
    )
    assert run.row("node-image", "pool/mi300x")["expected"] == (
        "image ≤ 35 days old (NodeImage channel)"
    )
    # NVIDIA's seed checks stay on NVIDIA's nodes: nvidia-smi -L on the MIG nodes only, and
    # no exec in AMD's pods but amd-smi in its plugin's (the driver row).
    assert [r["subject"] for r in run.rows() if r["check"] == "mig-devices"] == [
        f"node/{A100_0}",
        f"node/{A100_1}",
    ]
    assert run.row("mps-server", "stack")["found"] == "no MPS pool in the stack"
    amd_execs = [p for _, p in amd_cluster.requests if "/exec" in p and f"/namespaces/{NS}/" in p]
    assert all("command=amd-smi" in p for p in amd_execs) and len(amd_execs) == 2
    # Each pool's nodes are listed once, for its own checks and the seed checks alike.
    listed = [p for _, p in amd_cluster.requests if p.startswith("/api/v1/nodes?")]
    assert len(listed) == 3
    assert len([p for p in listed if "mi300x" in p]) == 1


def test_an_old_image_on_an_amd_node_fails_its_pool(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    _as_aks_amd_cluster(amd_cluster)
    amd_cluster.find("nodes", MI1)["metadata"]["labels"][NODE_IMAGE_VERSION_LABEL] = _image(60)
    run = verify(amd_kubeconfig, config=MIXED)
    assert run.code == 1
    assert run.failures() == [("node-image", "pool/mi300x")]
    assert run.row("node-image", "pool/mi300x")["found"] == (
        f"{_image(60)} (60 days old) on 1 node; {_image(10)} (10 days old) on 1 node: the "
        "NodeImage channel has not replaced it; see the node OS maintenance window "
        "(aksManagedNodeOSUpgradeSchedule) and the cluster's upgrade events"
    )


def test_amd_nodes_without_the_nvme_driver_or_its_capacity_fail(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    _as_aks_amd_cluster(amd_cluster)
    del amd_cluster.find("nodes", MI0)["metadata"]["labels"][LOCAL_NVME_TOPOLOGY_KEY]
    capacities = amd_cluster.items("csistoragecapacities")
    capacities[:] = [c for c in capacities if MI1 not in str(c["nodeTopology"])]
    run = verify(amd_kubeconfig, config=MIXED)
    assert run.code == 1
    assert run.failures() == [("nvme-disks", f"node/{MI0}"), ("nvme-disks", f"node/{MI1}")]
    assert run.row("nvme-disks", f"node/{MI0}")["found"] == (
        f"no {LOCAL_NVME_TOPOLOGY_KEY} label: the local NVMe driver is not running on the node "
        "(its DaemonSet pod in kube-system)"
    )
    assert run.row("nvme-disks", f"node/{MI1}")["found"] == (
        f"no CSIStorageCapacity of {CLASS} for the node: the driver has not reported its volume "
        "group"
    )


def test_amd_nodes_answered_with_no_list_leave_their_pool_rows_unjudged(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    """Not "no node carries the pool label": the rows read from that list are skipped."""
    _as_aks_amd_cluster(amd_cluster)
    amd_cluster.raw.append(RawAnswer(r"/api/v1/nodes\?.*pool=mi300x", None))
    run = verify(amd_kubeconfig, config=MIXED)
    assert run.code == 1
    assert [f[0] for f in run.failures()] == ["api-answer"]
    for check in ("node-count", "node-image"):
        assert run.row(check, "pool/mi300x")["status"] == "skip"
    assert run.row("node-count", "pool/mi300x")["found"].startswith("not checked: list nodes")
    assert not [r for r in run.rows() if r["subject"] in (f"node/{MI0}", f"node/{MI1}")]


DISKS = [f"node/{node}" for node in (T4_0, MI0, MI1)]
"""Every node of the NVMe pools, NVIDIA's and AMD's: their disks are judged from the list of
capacities."""


@dataclass(frozen=True)
class StorageAnswer:
    """A storage read answered with something else, and the rows read from it."""

    match: str
    body: object
    what: str
    cause: str
    unjudged: list[tuple[str, str]]


@pytest.mark.parametrize(
    "case",
    [
        StorageAnswer(
            f"storageclasses/{CLASS}$",
            [],
            f"get storageclass {CLASS}",
            "the answer is a JSON array ([]), not an object",
            [("nvme-cache", f"storageclass/{CLASS}")],
        ),
        StorageAnswer(
            "csidrivers/localdisk.csi.acstor.io$",
            b"<html>bad gateway</html>",
            "get csidriver localdisk.csi.acstor.io",
            "the answer is not JSON (Expecting value: line 1 column 1 (char 0))",
            [("nvme-cache", "csidriver/localdisk.csi.acstor.io")],
        ),
        StorageAnswer(
            "namespaces/kube-system/csistoragecapacities",
            {"kind": "CSIStorageCapacityList", "items": 3},
            "list csistoragecapacities in kube-system",
            "its items are a number (3), not an array",
            [("nvme-disks", subject) for subject in DISKS],
        ),
    ],
    ids=["storageclass", "csidriver", "capacities"],
)
def test_a_storage_read_answered_with_no_object_skips_its_nvme_rows_only(
    amd_kubeconfig: Path, amd_cluster: FakeCluster, case: StorageAnswer
) -> None:
    """Not "not found" or "no CSIStorageCapacity for the node": the rows read from the answer
    are skipped, on NVIDIA's and AMD's NVMe nodes alike, and the request fails once."""
    _as_aks_amd_cluster(amd_cluster)
    healthy = verify(amd_kubeconfig, config=MIXED)
    amd_cluster.raw.append(RawAnswer(case.match, case.body))
    run = verify(amd_kubeconfig, config=MIXED)
    assert (run.code, run.err) == (1, "")
    assert run.failures() == [("api-answer", case.what)]
    assert run.row("api-answer", case.what)["found"] == case.cause
    gave = "no list" if case.what.startswith("list") else "no object"
    assert rows_changed(healthy, run) == {
        row: [f"not checked: {case.what} gave {gave}", "skip"] for row in case.unjudged
    }


def test_a_capacity_that_is_not_a_number_fails_its_node(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    """The client's quantity parser takes NaN; the row says what the driver reported."""
    _as_aks_amd_cluster(amd_cluster)
    capacity = next(c for c in amd_cluster.items("csistoragecapacities") if MI1 in str(c))
    capacity["capacity"] = "NaN"
    run = verify(amd_kubeconfig, config=MIXED)
    assert (run.code, run.err) == (1, "")
    assert run.failures() == [("nvme-disks", f"node/{MI1}")]
    assert run.row("nvme-disks", f"node/{MI1}")["found"] == (
        "capacity NaN: the driver found no free NVMe space on the node"
    )


# --- a stack with AMD pools only ------------------------------------------------------------


def test_an_amd_only_stack_runs_clean_and_says_why_nvidias_checks_do_not_apply(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    _as_aks_amd_cluster(amd_cluster)
    run = verify(amd_kubeconfig, config=AMD_ONLY)
    assert (run.code, run.err) == (0, ""), run.failures()
    only_amd = "no NVIDIA GPU pool in the stack, only AMD's (mi300x)"
    assert [
        (r["check"], r["subject"], r["found"]) for r in run.rows() if r["status"] == "skip"
    ] == [
        (
            "exporter",
            "stack",
            "no NVIDIA GPU pool in the stack: no dcgm-exporter to check (AMD's exporter on "
            "mi300x: its exporter rows per node)",
        ),
        ("mig-devices", "stack", f"{only_amd}: nvidia-smi -L lists NVIDIA's MIG devices"),
        (
            "gpu-memory",
            "stack",
            f"{only_amd}: ACK's GPU sharing (aliyun.com/gpu-mem) splits NVIDIA GPUs",
        ),
        ("mps-server", "stack", f"{only_amd}: MPS (nvidia-cuda-mps-server) is NVIDIA's"),
    ]
    # NVIDIA's per-node and per-namespace checks are absent, not failed or skipped per node.
    checks = {r["check"] for r in run.rows()}
    assert not checks & {"gfd-labels", "gpu-attribution"}
    assert not [r for r in run.rows() if r["subject"] in {f"node/{n}" for n in NVIDIA_NODES}]
    # The seeds' cloud checks, and AMD's own, on the AMD pool.
    assert [(r[0], r[1], r[3]) for r in _seed_rows(run)] == [
        ("nvme-cache", f"storageclass/{CLASS}", "pass"),
        ("nvme-cache", "csidriver/localdisk.csi.acstor.io", "pass"),
        ("nvme-disks", f"node/{MI0}", "pass"),
        ("nvme-disks", f"node/{MI1}", "pass"),
        ("node-image", "pool/mi300x", "pass"),
    ]
    assert run.row("driver", f"node/{MI0}")["found"].startswith("amdgpu 6.12.12 (amd-smi is not")
    assert run.row("amd-gpu-attribution", "namespace/gpu-research")["status"] == "pass"
    assert run.row("gpu-quota", "namespace/gpu-research")["found"] == "requests.amd.com/gpu: 16"
    # Nothing of NVIDIA's is read: no device plugin or dcgm-exporter list, no nvidia-smi.
    paths = [p for _, p in amd_cluster.requests]
    assert not [p for p in paths if "nvidia-device-plugin" in p or "gpu-metrics" in p]
    assert not [p for p in paths if "/exec" in p and "command=amd-smi" not in p]


def test_an_amd_only_stack_reports_a_table_and_honours_the_skip_options(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    _as_aks_amd_cluster(amd_cluster)
    run = verify(amd_kubeconfig, "--skip-driver", "--skip-metrics", config=AMD_ONLY)
    assert (run.code, run.err) == (0, ""), run.failures()
    assert run.row("gpu-series", f"node/{MI1}")["found"] == "not checked (--skip-metrics)"
    assert run.row("mig-devices", "stack")["found"].startswith("no NVIDIA GPU pool in the stack")
    table = verify(amd_kubeconfig, config=AMD_ONLY, fmt="table")
    assert table.code == 0
    assert table.out.splitlines()[-1] == (
        f"READY: {len(run.rows()) - 4} passed, 0 failed, 4 skipped"
    )


def test_an_amd_only_stack_fails_what_is_broken_on_its_nodes(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    _as_aks_amd_cluster(amd_cluster, image_age=60)
    amd_cluster.find("nodes", MI0)["metadata"]["labels"]["amd.com/gpu.driver-version"] = ""
    run = verify(amd_kubeconfig, config=AMD_ONLY)
    assert run.code == 1
    assert run.failures() == [("node-image", "pool/mi300x"), ("driver", f"node/{MI0}")]
    assert run.row("node-image", "pool/mi300x")["found"].startswith(
        f"{_image(60)} (60 days old) on 2 nodes: the NodeImage channel has not replaced it"
    )
