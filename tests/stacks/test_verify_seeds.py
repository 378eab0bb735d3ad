"""``make verify``'s seed checks end to end (``readiness/seed_checks.py``): the real client against
the fake API server of ``test_verify.py``, one thing changed per scenario, each check passing and
failing: ``nvidia-smi -L`` MIG layouts, ACK's GPU-memory books and MPS server, the NVMe cache,
node-image age."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from gpu_facts.aks.nodes import NODE_IMAGE_VERSION_LABEL
from gpu_facts.aks.storage import LOCAL_NVME_PROVISIONER, LOCAL_NVME_TOPOLOGY_KEY
from tests.stacks.test_verify import (
    A100_0,
    A100_1,
    ACK_NODE,
    DATA,
    LIST_GPUS,
    MPS_DAEMON,
    SMI,
    T4_0,
    ExecAnswer,
    FakeCluster,
    RawAnswer,
    Run,
    _as_ack_mps_cluster,
    rows_changed,
    verify,
    verify_ack,
)

AKS_STACK = DATA / "Pulumi.verify-aks.yaml"
H100 = "h100nvl"
"""The AKS stack's NVMe pool: the recorded time-sliced node as an NC40ads_H100_v5."""
CLASS = "gpu-nvme-cache-ephemeral"
FORBIDDEN = 'User "dev" cannot {verb} resource "{resource}" in API group "{group}"'


def _plugin_pod(cluster: FakeCluster, node: str) -> str:
    name: str = cluster.pod_on(node)["metadata"]["name"]
    return name


def _image(days_old: int) -> str:
    built = datetime.now(UTC).date() - timedelta(days=days_old)
    return f"AKSUbuntu-2204gen2containerd-{built:%Y%m.%d}.0"


# --- nvidia-smi -L on MIG nodes (seed 001, BP-10) -------------------------------------------


def _mig_list(layouts: dict[int, list[str]]) -> str:
    """``nvidia-smi -L`` of an ND96asr_v4: 8 A100s, each with 7 ``1g.5gb`` unless ``layouts``
    gives its profiles (empty: MIG off)."""
    lines = []
    for gpu in range(8):
        lines.append(
            f"GPU {gpu}: NVIDIA A100-SXM4-40GB (UUID: GPU-{gpu:08x}-1111-2222-3333-444455556666)"
        )
        for device, profile in enumerate(layouts.get(gpu, ["1g.5gb"] * 7)):
            uuid = f"MIG-{gpu:04x}{device:04x}-aaaa-5bbb-cccc-dddddddddddd"
            lines.append(f"  MIG {profile:<11} Device {device:>2}: (UUID: {uuid})")
    return "\n".join(lines) + "\n"


def test_our_mig_list_writer_matches_the_recording() -> None:
    recorded = (DATA / "exec" / "a100_mig_list.txt").read_text()
    assert [line.split("(UUID")[0] for line in _mig_list({}).splitlines()] == [
        line.split("(UUID")[0] for line in recorded.splitlines()
    ]


def test_mig_layout_passes_on_every_mig_node(kubeconfig: Path, cluster: FakeCluster) -> None:
    run = verify(kubeconfig)
    assert run.code == 0, run.failures()
    rows = [r for r in run.rows() if r["check"] == "mig-devices"]
    assert [(r["subject"], r["found"], r["status"]) for r in rows] == [
        (f"node/{A100_0}", "8 GPUs, 56 MIG 1g.5gb devices", "pass"),
        (f"node/{A100_1}", "8 GPUs, 56 MIG 1g.5gb devices", "pass"),
    ]
    # Run where the driver check runs: the plugin container of each MIG node's plugin pod.
    # In the same exec as the driver's nvidia-smi (verify.pod_commands).
    lists = [unquote(p) for _, p in cluster.requests if "/exec?" in p and "-L" in unquote(p)]
    assert len(lists) == 2 and all("nvidia-smi -L 2>&1" in p for p in lists)
    assert all("container=nvidia-device-plugin-ctr" in p for p in lists)


def test_another_mig_layout_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    """GPU 3 split 3g.20gb + 2g.10gb + 1g.5gb by hand, GPU 7 with MIG off."""
    layout = _mig_list({3: ["3g.20gb", "2g.10gb", "1g.5gb"], 7: []})
    cluster.exec_answers[(_plugin_pod(cluster, A100_1), LIST_GPUS)] = ExecAnswer(layout)
    run = verify(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("mig-devices", f"node/{A100_1}")]
    assert run.row("mig-devices", f"node/{A100_1}")["found"] == (
        "8 GPUs, 43 MIG 1g.5gb devices of 56: GPU 3: 1 1g.5gb, 1 2g.10gb, 1 3g.20gb; GPU 7: MIG "
        "off (the GPU instance profile was not applied; AKS applies it only when the pool is "
        "created)"
    )


def test_nvidia_smi_l_failure_fails_the_node(kubeconfig: Path, cluster: FakeCluster) -> None:
    failure = (SMI / "failure_no_driver.txt").read_text()
    cluster.exec_answers[(_plugin_pod(cluster, A100_0), LIST_GPUS)] = ExecAnswer(failure, 9)
    run = verify(kubeconfig)
    assert ("mig-devices", f"node/{A100_0}") in run.failures()
    assert run.row("mig-devices", f"node/{A100_0}")["found"].startswith(
        "nvidia-smi failed: NVIDIA-SMI has failed"
    )


def test_mig_list_refused_names_the_permission(kubeconfig: Path, cluster: FakeCluster) -> None:
    pod = _plugin_pod(cluster, A100_1)
    cluster.refusals[f"/api/v1/namespaces/nvidia-device-plugin/pods/{pod}/exec"] = (
        f'pods "{pod}" is forbidden: '
        + FORBIDDEN.format(verb="create", resource="pods/exec", group="")
    )
    run = verify(kubeconfig)
    found = run.row("mig-devices", f"node/{A100_1}")["found"]
    assert run.row("mig-devices", f"node/{A100_1}")["status"] == "fail"
    assert "403 Forbidden" in found
    assert found.endswith(
        "; the verifying identity needs create on pods/exec in nvidia-device-plugin "
        "(or run with --skip-driver)"
    )


def test_mig_node_without_a_ready_plugin_is_not_listed(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    cluster.items("pods").remove(cluster.pod_on(A100_0))
    run = verify(kubeconfig)
    assert run.row("mig-devices", f"node/{A100_0}") == {
        "check": "mig-devices",
        "subject": f"node/{A100_0}",
        "expected": "-",
        "found": "not checked: no ready device plugin pod on the node (its gpu-daemon row)",
        "status": "skip",
    }
    assert ("gpu-daemon", f"node/{A100_0}") in run.failures()


def test_skip_driver_skips_every_exec_check(kubeconfig: Path, cluster: FakeCluster) -> None:
    run = verify(kubeconfig, "--skip-driver")
    assert run.code == 0
    assert {r["found"] for r in run.rows() if r["check"] == "mig-devices"} == {
        "not checked: no exec in pods (--skip-driver)"
    }
    assert not [p for _, p in cluster.requests if "/exec" in p]


# --- ACK: the GPU-memory books and the MPS server (seed 003, BP-16) -------------------------


def test_ack_gpu_memory_and_mps_server_pass(kubeconfig: Path, cluster: FakeCluster) -> None:
    _as_ack_mps_cluster(cluster)
    run = verify_ack(kubeconfig)
    assert run.code == 0, run.failures()
    assert run.row("gpu-memory", f"node/{ACK_NODE}") == {
        "check": "gpu-memory",
        "subject": f"node/{ACK_NODE}",
        "expected": "allocated ≤ total GiB on every GPU (kubectl inspect cgpu)",
        "found": "GPU0 8/24; node 8/24 GiB",
        "status": "pass",
    }
    assert run.row("mps-server", f"node/{ACK_NODE}")["found"] == (
        "nvidia-cuda-mps-server running (PID 214077 on GPU 0), 1 MPS client; GPU 0 in E. Process"
    )
    # The node's pods are read once, across namespaces, with a field selector, as the tool does.
    node_reads = [p for _, p in cluster.requests if p.startswith("/api/v1/pods?")]
    assert len(node_reads) == 1
    assert f"fieldSelector=spec.nodeName%3D{ACK_NODE}" in node_reads[0]
    # nvidia-smi runs in the MPS control daemon's pod.
    execs = [p for _, p in cluster.requests if f"{MPS_DAEMON}-q8w2e/exec?" in p]
    assert len(execs) == 2  # the driver row and the MPS server row
    # AKS-only checks and the others that do not apply say why.
    assert run.row("mig-devices", "stack")["found"] == "no MIG pool in the stack"
    assert run.row("node-image", "stack")["status"] == "skip"


def _gpu_mem_pod(cluster: FakeCluster, name: str, gib: int, index: str | None) -> dict[str, Any]:
    pod = copy.deepcopy(cluster.find("pods", "mps-trainer-0"))
    pod["metadata"]["name"] = name
    pod["metadata"]["annotations"] = {} if index is None else {"ALIYUN_COM_GPU_MEM_IDX": index}
    pod["spec"]["containers"][0]["resources"] = {"limits": {"aliyun.com/gpu-mem": str(gib)}}
    cluster.items("pods").append(pod)
    return pod


def test_gpu_memory_booked_over_a_gpu_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    """Two more pods on GPU 0 (one started outside the extender's books would look the same)."""
    _as_ack_mps_cluster(cluster)
    _gpu_mem_pod(cluster, "infer-a", 12, "0")
    _gpu_mem_pod(cluster, "infer-b", 6, "0")
    done = _gpu_mem_pod(cluster, "finished", 24, "0")
    done["status"]["phase"] = "Succeeded"  # the tool leaves finished pods out
    run = verify_ack(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("gpu-memory", f"node/{ACK_NODE}")]
    assert run.row("gpu-memory", f"node/{ACK_NODE}")["found"] == (
        "GPU0 26/24; node 26/24 GiB (GPU0 over by 2 (mps-trainer-0 8, infer-a 12, infer-b 6); "
        "node over by 2)"
    )


def test_gpu_memory_pending_and_missing_gpu_count(kubeconfig: Path, cluster: FakeCluster) -> None:
    """A pod the extender has not booked yet is pending, as in the tool's PENDING column."""
    _as_ack_mps_cluster(cluster)
    del cluster.find("nodes", ACK_NODE)["status"]["allocatable"]["aliyun.com/gpu-count"]
    _gpu_mem_pod(cluster, "queued", 4, None)
    run = verify_ack(kubeconfig)
    assert run.row("gpu-memory", f"node/{ACK_NODE}") == {
        "check": "gpu-memory",
        "subject": f"node/{ACK_NODE}",
        "expected": "allocated ≤ total GiB on every GPU (kubectl inspect cgpu)",
        "found": (
            "GPU0 8/24, pending 4 (queued 4); node 12/24 GiB (no aliyun.com/gpu-count: 1 GPU "
            "from the instance type)"
        ),
        "status": "pass",
    }


def test_mps_server_missing_while_a_client_runs_fails(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    _as_ack_mps_cluster(cluster)
    idle = (SMI / "a10_mps_idle_table.txt").read_text()
    cluster.exec_answers[f"{MPS_DAEMON}-q8w2e"] = ExecAnswer(idle)
    run = verify_ack(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("mps-server", f"node/{ACK_NODE}")]
    assert run.row("mps-server", f"node/{ACK_NODE}")["found"] == (
        "no nvidia-cuda-mps-server while GPU pods run on the node (mps-trainer-0), so their "
        "CUDA calls do not go through MPS: the control daemon started no server for them (see "
        "its log; on ACK the pods must set hostIPC); GPU 0 in E. Process"
    )


def test_mps_node_without_clients_needs_no_server(kubeconfig: Path, cluster: FakeCluster) -> None:
    _as_ack_mps_cluster(cluster)
    cluster.items("pods").remove(cluster.find("pods", "mps-trainer-0"))
    idle = (SMI / "a10_mps_idle_table.txt").read_text()
    cluster.exec_answers[f"{MPS_DAEMON}-q8w2e"] = ExecAnswer(idle)
    run = verify_ack(kubeconfig)
    assert run.code == 0, run.failures()
    assert run.row("mps-server", f"node/{ACK_NODE}")["found"] == (
        "no MPS client on the node, so no nvidia-cuda-mps-server yet (the control daemon starts "
        "it for the first client); GPU 0 in E. Process"
    )
    assert run.row("gpu-memory", f"node/{ACK_NODE}")["found"] == "GPU0 0/24; node 0/24 GiB"


def test_mps_gpu_in_default_compute_mode_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    _as_ack_mps_cluster(cluster)
    table = (SMI / "a10_mps_table.txt").read_text().replace("E. Process", "   Default")
    cluster.exec_answers[f"{MPS_DAEMON}-q8w2e"] = ExecAnswer(table)
    run = verify_ack(kubeconfig)
    assert run.failures() == [("mps-server", f"node/{ACK_NODE}")]
    assert run.row("mps-server", f"node/{ACK_NODE}")["found"] == (
        "nvidia-cuda-mps-server running (PID 214077 on GPU 0), 1 MPS client; GPU 0 in Default "
        "compute mode, not E. Process: the MPS control daemon has not taken it (see its log)"
    )


def test_pods_across_namespaces_refused_names_the_permission(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    _as_ack_mps_cluster(cluster)
    cluster.refusals["/api/v1/pods"] = "pods is forbidden: " + FORBIDDEN.format(
        verb="list", resource="pods", group=""
    )
    run = verify_ack(kubeconfig)
    assert (run.code, run.err) == (1, "")
    assert set(run.failures()) == {
        ("gpu-memory", f"node/{ACK_NODE}"),
        ("mps-server", f"node/{ACK_NODE}"),
    }
    found = run.row("gpu-memory", f"node/{ACK_NODE}")["found"]
    assert found.startswith(f"not allowed to list pods on node {ACK_NODE} in all namespaces")
    assert found.endswith("; the verifying identity needs list on pods at the cluster scope")


def test_a_nodes_pods_answered_with_no_list_skip_its_books_and_mps_server(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    """Not an empty node (GPU memory all free, no MPS client): the rows read from the node's
    pods are skipped; its GPU daemon and driver rows, read from the daemon's own list, are not."""
    _as_ack_mps_cluster(cluster)
    healthy = verify_ack(kubeconfig)
    cluster.raw.append(RawAnswer(r"^/api/v1/pods\?.*spec.nodeName=", []))
    run = verify_ack(kubeconfig)
    what = f"list pods on node {ACK_NODE} in all namespaces"
    assert (run.code, run.err) == (1, "")
    assert run.failures() == [("api-answer", what)]
    assert (
        run.row("api-answer", what)["found"] == "the answer is a JSON array ([]), not a list object"
    )
    assert rows_changed(healthy, run) == {
        (check, f"node/{ACK_NODE}"): [f"not checked: {what} gave no list", "skip"]
        for check in ("gpu-memory", "mps-server")
    }


# --- AKS: the NVMe cache (BP-18) and node images (BP-06) ------------------------------------


def _as_aks_cluster(cluster: FakeCluster, image_age: int = 10) -> None:
    """The recording as ``Pulumi.verify-aks.yaml`` built it: AKS labels (workload types, node
    image), the time-sliced node in the NVMe pool with Azure Container Storage's driver on it,
    our StorageClass, the driver's CSIDriver and its capacity on the node."""
    for node in cluster.items("nodes"):
        labels = node["metadata"]["labels"]
        labels[NODE_IMAGE_VERSION_LABEL] = _image(image_age)
        if labels.get("gpu-platform.io/pool") == "a100":
            labels["workload.gpu-platform.io/training"] = "true"
    h100 = cluster.find("nodes", T4_0)["metadata"]["labels"]
    h100.update(
        {
            "gpu-platform.io/pool": H100,
            "nvidia.com/device-plugin.config": H100,
            "node.kubernetes.io/instance-type": "Standard_NC40ads_H100_v5",
            "workload.gpu-platform.io/inference": "true",
            LOCAL_NVME_TOPOLOGY_KEY: T4_0,
        }
    )
    cluster.items("storageclasses").append(
        {
            "apiVersion": "storage.k8s.io/v1",
            "kind": "StorageClass",
            "metadata": {"name": CLASS, "annotations": {"gpu-platform.io/ephemeral": "true"}},
            "provisioner": LOCAL_NVME_PROVISIONER,
            "volumeBindingMode": "WaitForFirstConsumer",
            "reclaimPolicy": "Delete",
            "allowVolumeExpansion": True,
        }
    )
    cluster.items("csidrivers").append(
        {
            "apiVersion": "storage.k8s.io/v1",
            "kind": "CSIDriver",
            "metadata": {"name": LOCAL_NVME_PROVISIONER},
            "spec": {"attachRequired": False, "podInfoOnMount": True, "storageCapacity": True},
        }
    )
    cluster.items("csistoragecapacities").append(
        {
            "apiVersion": "storage.k8s.io/v1",
            "kind": "CSIStorageCapacity",
            "metadata": {"name": "csisc-7k2xq", "namespace": "kube-system"},
            "storageClassName": CLASS,
            "nodeTopology": {"matchLabels": {LOCAL_NVME_TOPOLOGY_KEY: T4_0}},
            "capacity": "3569Gi",
        }
    )


def verify_aks(kubeconfig: Path, *extra: str, config: Path = AKS_STACK, fmt: str = "json") -> Run:
    return verify(kubeconfig, *extra, config=config, fmt=fmt)


def test_aks_nvme_cache_and_node_images_pass(kubeconfig: Path, cluster: FakeCluster) -> None:
    _as_aks_cluster(cluster)
    run = verify_aks(kubeconfig)
    assert run.code == 0, run.failures()
    seeds = [
        (r["check"], r["subject"], r["found"])
        for r in run.rows()
        if r["check"] in ("nvme-cache", "nvme-disks", "node-image")
    ]
    assert seeds == [
        (
            "nvme-cache",
            f"storageclass/{CLASS}",
            f"provisioner {LOCAL_NVME_PROVISIONER}, WaitForFirstConsumer, reclaim Delete",
        ),
        ("nvme-cache", f"csidriver/{LOCAL_NVME_PROVISIONER}", "registered"),
        ("nvme-disks", f"node/{T4_0}", "3,569 GiB free in the volume group (100% of the disks)"),
        ("node-image", "pool/a100", f"{_image(10)} (10 days old) on 2 nodes"),
        ("node-image", f"pool/{H100}", f"{_image(10)} (10 days old) on 1 node"),
    ]
    assert run.row("nvme-disks", f"node/{T4_0}")["expected"] == (
        "1 local NVMe disk, 3,576 GiB in the cache's volume group"
    )
    assert run.row("node-image", "pool/a100")["expected"] == (
        "image ≤ 35 days old (NodeImage channel)"
    )
    # Only reads: the storage objects by name, the capacities in the driver's namespace.
    reads = {p.split("?")[0] for _, p in cluster.requests if "storage.k8s.io" in p}
    assert reads == {
        f"/apis/storage.k8s.io/v1/storageclasses/{CLASS}",
        f"/apis/storage.k8s.io/v1/csidrivers/{LOCAL_NVME_PROVISIONER}",
        "/apis/storage.k8s.io/v1/namespaces/kube-system/csistoragecapacities",
    }


def test_missing_storage_class_and_driver_fail(kubeconfig: Path, cluster: FakeCluster) -> None:
    _as_aks_cluster(cluster)
    cluster.items("storageclasses").clear()
    cluster.items("csidrivers").clear()
    run = verify_aks(kubeconfig)
    assert run.code == 1
    assert run.failures() == [
        ("nvme-cache", f"storageclass/{CLASS}"),
        ("nvme-cache", f"csidriver/{LOCAL_NVME_PROVISIONER}"),
    ]
    assert run.row("nvme-cache", f"storageclass/{CLASS}")["found"] == (
        "not found: pods get no NVMe cache volume"
    )
    assert run.row("nvme-cache", f"csidriver/{LOCAL_NVME_PROVISIONER}")["found"] == (
        "not registered: the Azure Container Storage extension (acstor) has not installed its "
        "local NVMe driver (az k8s-extension show --name acstor ...)"
    )


def test_storage_class_of_another_provisioner_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    _as_aks_cluster(cluster)
    cluster.find("storageclasses", CLASS).update(
        provisioner="containerstorage.csi.azure.com", volumeBindingMode="Immediate"
    )
    run = verify_aks(kubeconfig)
    assert run.failures() == [("nvme-cache", f"storageclass/{CLASS}")]
    assert run.row("nvme-cache", f"storageclass/{CLASS}")["found"] == (
        "provisioner containerstorage.csi.azure.com; volumeBindingMode Immediate: not the "
        "StorageClass the stack creates"
    )


def test_nvme_node_without_the_driver_or_free_space_fails(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    _as_aks_cluster(cluster)
    del cluster.find("nodes", T4_0)["metadata"]["labels"][LOCAL_NVME_TOPOLOGY_KEY]
    run = verify_aks(kubeconfig)
    assert run.failures() == [("nvme-disks", f"node/{T4_0}")]
    assert run.row("nvme-disks", f"node/{T4_0}")["found"] == (
        f"no {LOCAL_NVME_TOPOLOGY_KEY} label: the local NVMe driver is not running on the node "
        "(its DaemonSet pod in kube-system)"
    )
    cluster.find("nodes", T4_0)["metadata"]["labels"][LOCAL_NVME_TOPOLOGY_KEY] = T4_0
    cluster.items("csistoragecapacities")[0]["capacity"] = "0"
    run = verify_aks(kubeconfig)
    assert run.failures() == [("nvme-disks", f"node/{T4_0}")]
    assert run.row("nvme-disks", f"node/{T4_0}")["found"] == (
        "capacity 0: the driver found no free NVMe space on the node"
    )
    cluster.items("csistoragecapacities").clear()
    assert verify_aks(kubeconfig).row("nvme-disks", f"node/{T4_0}")["found"] == (
        f"no CSIStorageCapacity of {CLASS} for the node: the driver has not reported its volume "
        "group"
    )


def test_capacities_refused_names_the_permission(kubeconfig: Path, cluster: FakeCluster) -> None:
    _as_aks_cluster(cluster)
    cluster.refusals[r"/apis/storage.k8s.io/v1/namespaces/kube-system/csistoragecapacities"] = (
        "csistoragecapacities.storage.k8s.io is forbidden: "
        + FORBIDDEN.format(verb="list", resource="csistoragecapacities", group="storage.k8s.io")
    )
    run = verify_aks(kubeconfig)
    assert (run.code, run.err) == (1, "")
    assert run.failures() == [("nvme-disks", f"node/{T4_0}")]
    found = run.row("nvme-disks", f"node/{T4_0}")["found"]
    assert "(403 Forbidden): csistoragecapacities.storage.k8s.io is forbidden" in found
    assert found.endswith(
        "; the verifying identity needs list on csistoragecapacities in kube-system"
    )


def test_node_image_left_behind_by_the_channel_fails(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    _as_aks_cluster(cluster)
    labels = cluster.find("nodes", A100_1)["metadata"]["labels"]
    labels[NODE_IMAGE_VERSION_LABEL] = _image(60)
    run = verify_aks(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("node-image", "pool/a100")]
    assert run.row("node-image", "pool/a100")["found"] == (
        f"{_image(60)} (60 days old) on 1 node; {_image(10)} (10 days old) on 1 node: the "
        "NodeImage channel has not replaced it; see the node OS maintenance window "
        "(aksManagedNodeOSUpgradeSchedule) and the cluster's upgrade events"
    )


def test_old_node_image_without_a_channel_warns(
    kubeconfig: Path, cluster: FakeCluster, tmp_path: Path
) -> None:
    _as_aks_cluster(cluster, image_age=60)
    manual = tmp_path / "Pulumi.manual.yaml"
    channel = "nodeOsUpgradeChannel:"
    manual.write_text(AKS_STACK.read_text().replace(f"{channel} NodeImage", f"{channel} None"))
    run = verify_aks(kubeconfig, config=manual)
    assert run.code == 0, run.failures()
    row = run.row("node-image", f"pool/{H100}")
    assert (row["status"], row["expected"]) == ("warn", "image ≤ 35 days old (None channel)")
    assert row["found"] == (
        f"{_image(60)} (60 days old) on 1 node: newer node images exist and no channel applies "
        "them; upgrade (az aks nodepool upgrade --node-image-only) or set nodeOsUpgradeChannel: "
        "NodeImage (BP-06)"
    )
    table = verify_aks(kubeconfig, config=manual, fmt="table")
    rows = [line for line in table.out.splitlines() if line.startswith("node-image")]
    assert [line.rsplit(maxsplit=1)[-1] for line in rows] == ["WARN", "WARN"]
    assert table.out.splitlines()[-1].endswith("0 failed, 2 skipped, 2 warnings")


def test_node_without_an_image_label_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    _as_aks_cluster(cluster)
    del cluster.find("nodes", T4_0)["metadata"]["labels"][NODE_IMAGE_VERSION_LABEL]
    run = verify_aks(kubeconfig)
    assert run.failures() == [("node-image", f"pool/{H100}")]
    assert run.row("node-image", f"pool/{H100}")["found"] == (
        f"no {NODE_IMAGE_VERSION_LABEL} label on 1 node: no image date to read"
    )


# --- AKS: the NVIDIA device plugin's MPS (BP-16's MPS without ACK) --------------------------

MPS_CHART_DAEMON = "nvidia-device-plugin-mps-control-daemon"


def _with_plugin_mps_daemon(cluster: FakeCluster) -> str:
    """The chart's MPS control daemon on the NVMe node, containers in the chart's order: the
    config-manager sidecar first, then the daemon (``daemonset-mps-control-daemon.yml``)."""
    daemon = copy.deepcopy(cluster.find("daemonsets", "nvidia-device-plugin"))
    daemon["metadata"].update(name=MPS_CHART_DAEMON, uid="0c1d2e3f-4a5b-4c6d-8e9f-a0b1c2d3e4f5")
    cluster.items("daemonsets").append(daemon)
    pod = copy.deepcopy(cluster.pod_on(T4_0))
    pod["metadata"]["name"] = f"{MPS_CHART_DAEMON}-x9z8w"
    pod["metadata"]["ownerReferences"][0].update(
        name=MPS_CHART_DAEMON, uid=daemon["metadata"]["uid"]
    )
    pod["spec"]["containers"] = [
        {"name": "mps-control-daemon-sidecar", "command": ["config-manager"]},
        {"name": "mps-control-daemon-ctr", "command": ["mps-control-daemon"]},
    ]
    cluster.items("pods").append(pod)
    name: str = pod["metadata"]["name"]
    return name


def test_device_plugin_mps_server_is_read_in_the_daemon_container(
    kubeconfig: Path, cluster: FakeCluster, tmp_path: Path
) -> None:
    _as_aks_cluster(cluster)
    daemon = _with_plugin_mps_daemon(cluster)
    cluster.exec_answers[daemon] = ExecAnswer((SMI / "a10_mps_table.txt").read_text())
    mps = tmp_path / "Pulumi.mps.yaml"
    mps.write_text(AKS_STACK.read_text().replace("mode: timeSlicing", "mode: mps"))
    run = verify_aks(kubeconfig, config=mps)
    assert run.row("mps-server", f"node/{T4_0}")["status"] == "pass"
    execs = [p for _, p in cluster.requests if f"{daemon}/exec?" in p]
    assert len(execs) == 1
    assert "container=mps-control-daemon-ctr" in execs[0]  # not the sidecar
    # Its daemon gone: nothing else reports it, so the row fails.
    cluster.items("pods").remove(cluster.find("pods", daemon))
    run = verify_aks(kubeconfig, config=mps)
    assert run.row("mps-server", f"node/{T4_0}")["found"] == (
        "no pod of the device plugin's MPS control daemon in nvidia-device-plugin on the node"
    )
    assert ("mps-server", f"node/{T4_0}") in run.failures()


@pytest.mark.parametrize("check", ["gpu-memory", "mps-server"])
def test_checks_that_do_not_apply_to_an_aks_stack_skip(
    kubeconfig: Path, cluster: FakeCluster, check: str
) -> None:
    _as_aks_cluster(cluster)
    run = verify_aks(kubeconfig)
    assert run.row(check, "stack")["status"] == "skip"
