"""``make verify`` on AMD GPU pools, end to end: the recorded cluster of ``test_verify`` with two
MI300X nodes, AMD's operands and a research namespace added (tests/data/verify/amd/), served by
the same fake API server; the stack mixes NVIDIA and AMD pools (Pulumi.verify-amd.yaml).

Scenarios are the healthy recording with one thing broken; each says what its row saw.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from gpu_facts.amd.gpu_operator import METRICS_PORT
from tests.stacks.test_verify import (
    DATA,
    ExecAnswer,
    FakeCluster,
    RawAnswer,
    Run,
    _recorded,
    rows_changed,
    serving,
    verify,
    write_kubeconfig,
)

AMD_DATA = DATA / "amd"
STACK = DATA / "Pulumi.verify-amd.yaml"
NS = "amd-gpu-operator"
MI0, MI1 = "aks-mi300x-14142135-vmss000000", "aks-mi300x-14142135-vmss000001"
PLUGIN, LABELLER, EXPORTER = (
    "mi300x-device-plugin",
    "mi300x-node-labeller",
    "mi300x-metrics-exporter",
)
ADDED = (
    "nodes",
    "namespaces",
    "daemonsets",
    "pods",
    "networkpolicies",
    "resourcequotas",
    "limitranges",
)


def _recorded_with_amd() -> FakeCluster:
    cluster = _recorded()
    for kind in ADDED:
        added = json.loads((AMD_DATA / f"{kind}.json").read_text())
        cluster.items(kind).extend(added["items"])
    for node in (MI0, MI1):
        exporter = amd_pod(cluster, node, EXPORTER)["metadata"]["name"]
        cluster.metrics[exporter] = (AMD_DATA / "metrics" / f"{node}.txt").read_text()
        cluster.metrics_ports[exporter] = str(METRICS_PORT)
        # AMD's upstream plugin image has no amd-smi: the driver row falls back to the label.
        plugin = amd_pod(cluster, node, PLUGIN)["metadata"]["name"]
        cluster.exec_answers[(plugin, AMD_SMI)] = ExecAnswer("", failure=NO_AMD_SMI)
    return cluster


AMD_SMI = "amd-smi static --driver"
NO_AMD_SMI = (
    "OCI runtime exec failed: exec failed: unable to start container process: exec: "
    '"amd-smi": executable file not found in $PATH: unknown'
)


NO_AMD_SMI_POD = {
    ("driver", f"node/{node}"): [
        "amdgpu 6.12.12 (no ready AMD device plugin pod to run amd-smi in: read from the node "
        "label)",
        "pass",
    ]
    for node in (MI0, MI1)
}
"""AMD's driver rows when its plugin pods are not known."""


def not_in_image(cluster: FakeCluster, node: str) -> str:
    """The driver row's note where the plugin image has no amd-smi."""
    plugin = amd_pod(cluster, node, PLUGIN)["metadata"]["name"]
    return f" (amd-smi is not in {plugin}'s image: read from the node label)"


def amd_pod(cluster: FakeCluster, node: str, daemonset: str) -> dict[str, Any]:
    """The pod of one of the pool's operand DaemonSets on the node."""
    return cluster.pod_on(node, daemonset)


@pytest.fixture
def amd_cluster() -> FakeCluster:
    """A fresh copy of the healthy recording with the AMD nodes; tests break one thing in it."""
    return copy.deepcopy(_recorded_with_amd())


@pytest.fixture
def amd_kubeconfig(tmp_path: Path, amd_cluster: FakeCluster) -> Iterator[Path]:
    with serving(amd_cluster) as url:
        yield write_kubeconfig(tmp_path / "kubeconfig", url)


def run_verify(kubeconfig: Path, *extra: str) -> Run:
    return verify(kubeconfig, *extra, config=STACK)


def amd_rows(run: Run) -> list[dict[str, str]]:
    amd_subjects = {f"node/{MI0}", f"node/{MI1}", "pool/mi300x", "namespace/gpu-research"}
    return [
        r
        for r in run.rows()
        if r["subject"] in amd_subjects or r["subject"].startswith(f"daemonset/{NS}/")
    ]


def _not_ready(pod: dict[str, Any], reason: str) -> None:
    for condition in pod["status"]["conditions"]:
        if condition["type"] in ("Ready", "ContainersReady"):
            condition["status"] = "False"
    pod["status"]["containerStatuses"][0].update(
        ready=False, state={"waiting": {"reason": reason}}, restartCount=5
    )


# --- a healthy cluster ---------------------------------------------------------------------


def test_healthy_mixed_cluster_passes_every_check(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    run = run_verify(amd_kubeconfig)
    assert run.code == 0, run.out
    assert run.failures() == []
    node_checks = [
        "node-ready",
        "labels",
        "taint",
        "allocatable",
        "gpu-daemon",
        "driver",
        "gpu-health",
        "exporter",
        "gpu-series",
    ]
    # The AMD rows, in the order the report gives them.
    assert [(r["check"], r["subject"]) for r in amd_rows(run) if r["check"] != "gpu-quota"] == [
        ("network-policy", "namespace/gpu-research"),
        ("admission-binding", "namespace/gpu-research"),
        ("limit-range", "namespace/gpu-research"),
        ("node-count", "pool/mi300x"),
        *[(check, f"node/{MI0}") for check in node_checks],
        *[(check, f"node/{MI1}") for check in node_checks],
        ("daemonset", f"daemonset/{NS}/{PLUGIN}"),
        ("daemonset", f"daemonset/{NS}/{LABELLER}"),
        ("daemonset", f"daemonset/{NS}/{EXPORTER}"),
        ("amd-gpu-attribution", "namespace/gpu-research"),
    ]
    seen = {(r["check"], r["subject"]): (r["expected"], r["found"]) for r in amd_rows(run)}
    assert seen[("node-count", "pool/mi300x")] == ("2 nodes", "2 nodes")
    assert seen[("labels", f"node/{MI0}")] == ("team=research", "all present")
    assert seen[("taint", f"node/{MI0}")] == (
        "amd.com/gpu=present:NoSchedule",
        "amd.com/gpu=present:NoSchedule",
    )
    assert seen[("allocatable", f"node/{MI0}")] == ("amd.com/gpu: 8", "amd.com/gpu: 8")
    plugin_pod = amd_pod(amd_cluster, MI0, PLUGIN)["metadata"]["name"]
    assert seen[("gpu-daemon", f"node/{MI0}")] == (
        "AMD device plugin pod Ready",
        f"{plugin_pod} Ready",
    )
    assert seen[("driver", f"node/{MI0}")] == (
        "amdgpu loaded (amd.com/gpu.driver-version set by the node labeller)",
        "amdgpu 6.12.12" + not_in_image(amd_cluster, MI0),
    )
    assert seen[("gpu-health", f"node/{MI1}")] == (
        "no GPU marked unhealthy by the metrics exporter",
        "none marked unhealthy",
    )
    assert seen[("gpu-series", f"node/{MI0}")] == ("8 GPUs in gpu_gfx_activity", "8 GPUs")
    assert seen[("daemonset", f"daemonset/{NS}/{EXPORTER}")] == (
        "AMD metrics exporter ready on every node",
        "2/2 ready",
    )
    assert seen[("amd-gpu-attribution", "namespace/gpu-research")][1] == "1 attributed: finetune-0"
    assert seen[("gpu-quota", "namespace/gpu-research")] == (
        "requests.amd.com/gpu: 16",
        "requests.amd.com/gpu: 16",
    )
    # NVIDIA's checks never look at the AMD nodes (no GFD labels, no nvidia-smi, no
    # dcgm-exporter there), nor AMD's at NVIDIA's: one exporter row per node, its vendor's.
    assert not [r for r in run.rows() if r["check"] == "gfd-labels" and "mi300x" in r["subject"]]
    exporters = {r["subject"]: r["expected"] for r in run.rows() if r["check"] == "exporter"}
    assert len(exporters) == len([r for r in run.rows() if r["check"] == "exporter"])
    assert exporters[f"node/{MI0}"] == "AMD metrics exporter pod Ready"
    assert exporters["node/aks-t4-27182818-vmss000000"] == "dcgm-exporter pod Ready"


def test_verify_reads_the_amd_exporters_on_their_port_and_never_execs_on_amd_nodes(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    assert run_verify(amd_kubeconfig).code == 0
    assert {method for method, _ in amd_cluster.requests} == {"GET"}
    execs = [unquote(path) for _, path in amd_cluster.requests if "/exec?" in path]
    nvidia = [path for path in execs if "/namespaces/nvidia-device-plugin/" in path]
    assert len(nvidia) == 3  # nvidia-smi on the three NVIDIA nodes
    # with nvidia-smi -L in the same exec on the two MIG nodes (mig-devices)
    assert len([path for path in nvidia if "nvidia-smi -L 2>&1" in path]) == 2
    # amd-smi in each AMD node's plugin pod, nothing else of AMD's
    assert sorted(path for path in execs if path not in nvidia) == sorted(
        f"/api/v1/namespaces/{NS}/pods/{amd_pod(amd_cluster, node, PLUGIN)['metadata']['name']}"
        "/exec?command=amd-smi&command=static&command=--driver&stderr=true&stdin=false"
        "&stdout=true&tty=false"
        for node in (MI0, MI1)
    )
    proxied = sorted(unquote(p) for _, p in amd_cluster.requests if f"/namespaces/{NS}/" in p)
    proxied = [p for p in proxied if "/proxy/" in p]
    assert proxied == sorted(
        f"/api/v1/namespaces/{NS}/pods/{amd_pod(amd_cluster, node, EXPORTER)['metadata']['name']}"
        f":{METRICS_PORT}/proxy/metrics"
        for node in (MI0, MI1)
    )


def test_skip_metrics_skips_the_amd_series_and_attribution(amd_kubeconfig: Path) -> None:
    run = run_verify(amd_kubeconfig, "--skip-metrics")
    assert run.code == 0
    assert run.row("gpu-series", f"node/{MI0}")["status"] == "skip"
    assert run.row("gpu-series", f"node/{MI0}")["found"] == "not checked (--skip-metrics)"
    assert run.row("amd-gpu-attribution", "namespace/gpu-research")["status"] == "skip"
    # The driver is a label: --skip-driver does not skip it.
    assert run.row("driver", f"node/{MI1}")["status"] == "pass"


def test_a_namespace_only_amd_pools_serve_gets_amds_attribution_row_only(
    amd_kubeconfig: Path, amd_cluster: FakeCluster, tmp_path: Path
) -> None:
    """dcgm-exporter watches no node gpu-research may use: its attribution row would be a skip
    that says nothing. AMD's exporter attributes the namespace's pods (amd-gpu-attribution)."""
    run = run_verify(amd_kubeconfig)
    attribution = {
        (r["check"], r["subject"]): r["status"] for r in run.rows() if "attribution" in r["check"]
    }
    assert attribution == {
        ("gpu-attribution", "namespace/gpu-training"): "pass",
        ("gpu-attribution", "namespace/gpu-inference"): "pass",
        ("amd-gpu-attribution", "namespace/gpu-research"): "pass",
    }
    # The namespace's pods are listed once, for AMD's row.
    listed = [
        p for _, p in amd_cluster.requests if p.startswith("/api/v1/namespaces/gpu-research/pods")
    ]
    assert len(listed) == 1
    # A namespace that may use an NVIDIA pool too keeps dcgm-exporter's row next to AMD's.
    both = tmp_path / "Pulumi.both.yaml"
    both.write_text(STACK.read_text().replace("pools: [mi300x]", "pools: [a100, mi300x]"))
    run = verify(amd_kubeconfig, config=both)
    assert run.row("gpu-attribution", "namespace/gpu-research")["found"] == (
        "no running GPU pod on the exporter's nodes: attribution not checked"
    )
    assert run.row("amd-gpu-attribution", "namespace/gpu-research")["status"] == "pass"


# --- one thing broken at a time --------------------------------------------------------------


def test_missing_amd_taint_fails(amd_kubeconfig: Path, amd_cluster: FakeCluster) -> None:
    # NVIDIA's taint on an AMD node: AMD workloads tolerate amd.com/gpu, not nvidia.com/gpu.
    amd_cluster.find("nodes", MI1)["spec"]["taints"] = [
        {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
    ]
    run = run_verify(amd_kubeconfig)
    assert run.code == 1
    assert run.failures() == [("taint", f"node/{MI1}")]
    row = run.row("taint", f"node/{MI1}")
    assert (row["expected"], row["found"]) == (
        "amd.com/gpu=present:NoSchedule",
        "nvidia.com/gpu=present:NoSchedule",
    )


def test_missing_pool_label_value_fails(amd_kubeconfig: Path, amd_cluster: FakeCluster) -> None:
    amd_cluster.find("nodes", MI0)["metadata"]["labels"]["team"] = "inference"
    run = run_verify(amd_kubeconfig)
    assert run.failures() == [("labels", f"node/{MI0}")]
    assert run.row("labels", f"node/{MI0}")["found"] == "team=inference"


def test_allocatable_short_of_the_capacity_model_fails(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    """A GPU the exporter marked unhealthy leaves allocatable: both rows say so."""
    node = amd_cluster.find("nodes", MI0)
    node["status"]["allocatable"]["amd.com/gpu"] = "7"
    node["metadata"]["labels"]["metricsexporter.amd.com.gpu.3.state"] = "unhealthy"
    run = run_verify(amd_kubeconfig)
    assert run.code == 1
    assert run.failures() == [("allocatable", f"node/{MI0}"), ("gpu-health", f"node/{MI0}")]
    assert run.row("allocatable", f"node/{MI0}")["found"] == ("amd.com/gpu: 7 (amd.com/gpu 7 of 8)")
    assert run.row("gpu-health", f"node/{MI0}")["found"] == (
        "GPU 3 unhealthy (metricsexporter.amd.com.gpu.3.state=unhealthy): see the exporter's "
        "log and amd-smi"
    )


def test_partitioned_gpus_are_not_the_model(amd_kubeconfig: Path, amd_cluster: FakeCluster) -> None:
    """CPX partitions (mixed strategy) on a node the stack models as 8 whole GPUs."""
    alloc = amd_cluster.find("nodes", MI1)["status"]["allocatable"]
    del alloc["amd.com/gpu"]
    alloc["amd.com/cpx_nps1"] = "64"
    run = run_verify(amd_kubeconfig)
    assert run.failures() == [("allocatable", f"node/{MI1}")]
    assert run.row("allocatable", f"node/{MI1}")["found"] == (
        "amd.com/cpx_nps1: 64 (amd.com/gpu 0 of 8; unexpected amd.com/cpx_nps1)"
    )


def test_no_driver_version_label_fails(amd_kubeconfig: Path, amd_cluster: FakeCluster) -> None:
    labels = amd_cluster.find("nodes", MI1)["metadata"]["labels"]
    del labels["amd.com/gpu.driver-version"]
    run = run_verify(amd_kubeconfig)
    assert run.code == 1
    assert run.failures() == [("driver", f"node/{MI1}")]
    assert run.row("driver", f"node/{MI1}")["found"] == (
        "no amd.com/gpu.driver-version label: the node labeller has not run on this node "
        "(see its DaemonSet)" + not_in_image(amd_cluster, MI1)
    )


def test_amd_smi_in_a_plugin_image_that_has_it(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    """A site's own plugin image with amd-smi: the driver row is the tool's, not the label's."""
    smi = Path(__file__).resolve().parents[1] / "data" / "amd_smi"
    plugin = amd_pod(amd_cluster, MI0, PLUGIN)["metadata"]["name"]
    amd_cluster.exec_answers[(plugin, AMD_SMI)] = ExecAnswer(
        (smi / "static_driver.txt").read_text()
    )
    other = amd_pod(amd_cluster, MI1, PLUGIN)["metadata"]["name"]
    amd_cluster.exec_answers[(other, AMD_SMI)] = ExecAnswer(
        (smi / "static_driver_no_version.txt").read_text()
    )
    run = run_verify(amd_kubeconfig)
    assert run.row("driver", f"node/{MI0}")["found"] == (
        f"amdgpu 6.12.12 (amd-smi static --driver in {plugin})"
    )
    assert run.failures() == [("driver", f"node/{MI1}")]
    assert run.row("driver", f"node/{MI1}")["found"] == (
        f"amd-smi in {other}: amdgpu is loaded but reports no version (N/A)"
    )


def test_skip_driver_reads_amds_driver_from_its_label_only(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    run = run_verify(amd_kubeconfig, "--skip-driver")
    assert run.row("driver", f"node/{MI0}")["found"] == "amdgpu 6.12.12"
    assert not [p for _, p in amd_cluster.requests if "/exec" in p and f"/namespaces/{NS}/" in p]


def test_empty_driver_version_means_no_driver_loaded(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    amd_cluster.find("nodes", MI0)["metadata"]["labels"]["amd.com/gpu.driver-version"] = ""
    run = run_verify(amd_kubeconfig)
    assert run.failures() == [("driver", f"node/{MI0}")]
    assert run.row("driver", f"node/{MI0}")["found"].startswith(
        "amd.com/gpu.driver-version is empty: the labeller found no amdgpu driver loaded"
    )


def test_device_plugin_pod_not_ready_fails(amd_kubeconfig: Path, amd_cluster: FakeCluster) -> None:
    pod = amd_pod(amd_cluster, MI0, PLUGIN)
    _not_ready(pod, "CrashLoopBackOff")
    amd_cluster.find("daemonsets", PLUGIN)["status"]["numberReady"] = 1
    run = run_verify(amd_kubeconfig)
    assert run.code == 1
    assert run.failures() == [
        ("gpu-daemon", f"node/{MI0}"),
        ("daemonset", f"daemonset/{NS}/{PLUGIN}"),
    ]
    assert run.row("gpu-daemon", f"node/{MI0}")["found"] == (
        f"{pod['metadata']['name']}: container device-plugin waiting: CrashLoopBackOff"
    )
    assert run.row("daemonset", f"daemonset/{NS}/{PLUGIN}")["found"] == "1/2 ready"


def test_exporter_pod_not_ready_fails_its_series_too(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    pod = amd_pod(amd_cluster, MI1, EXPORTER)
    _not_ready(pod, "ImagePullBackOff")
    amd_cluster.find("daemonsets", EXPORTER)["status"]["numberReady"] = 1
    run = run_verify(amd_kubeconfig)
    assert run.failures() == [
        ("exporter", f"node/{MI1}"),
        ("gpu-series", f"node/{MI1}"),
        ("daemonset", f"daemonset/{NS}/{EXPORTER}"),
    ]
    assert run.row("exporter", f"node/{MI1}")["found"] == (
        f"{pod['metadata']['name']}: container metrics-exporter-container waiting: ImagePullBackOff"
    )
    assert run.row("gpu-series", f"node/{MI1}")["found"] == (
        "unknown: no ready AMD metrics exporter pod on the node"
    )


def test_deviceconfig_not_reconciled_fails_every_operand(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    """No operand DaemonSet at all (the operator is down, or the DeviceConfig was refused)."""
    sets = amd_cluster.items("daemonsets")
    sets[:] = [d for d in sets if d["metadata"].get("namespace") != NS]
    pods = amd_cluster.items("pods")
    pods[:] = [p for p in pods if p["metadata"].get("namespace") != NS]
    run = run_verify(amd_kubeconfig)
    assert run.code == 1
    assert set(run.failures()) == {
        *{(check, f"node/{node}") for node in (MI0, MI1) for check in ("gpu-daemon", "exporter")},
        *{("gpu-series", f"node/{node}") for node in (MI0, MI1)},
        *{("daemonset", f"daemonset/{NS}/{name}") for name in (PLUGIN, LABELLER, EXPORTER)},
    }
    assert run.row("gpu-daemon", f"node/{MI0}")["found"] == "no AMD device plugin DaemonSet found"
    assert run.row("daemonset", f"daemonset/{NS}/{LABELLER}")["found"] == (
        "not found: the operator has not reconciled the pool's DeviceConfig (see the "
        "DeviceConfig's status and the operator's log)"
    )
    # Nothing to read: attribution is skipped, not failed.
    assert run.row("amd-gpu-attribution", "namespace/gpu-research")["status"] == "skip"


def test_a_lost_gpu_and_an_unhealthy_one_in_the_series(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    exporter = amd_pod(amd_cluster, MI1, EXPORTER)["metadata"]["name"]
    page = amd_cluster.metrics[exporter].splitlines()
    page = [line for line in page if not line.startswith('gpu_gfx_activity{gpu_id="7"')]
    page = [
        line.replace(" 1", " 0") if line.startswith('gpu_health{gpu_id="2"') else line
        for line in page
    ]
    amd_cluster.metrics[exporter] = "\n".join(page) + "\n"
    run = run_verify(amd_kubeconfig)
    assert run.failures() == [("gpu-series", f"node/{MI1}")]
    assert run.row("gpu-series", f"node/{MI1}")["found"] == (
        "7 GPUs (1 of 8 missing: a GPU lost from the VM, or the driver did not bind it; see "
        "amd-smi list); gpu_health 0 (unhealthy) on GPU 2"
    )


def test_amd_pod_on_no_series_fails_attribution(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    exporter = amd_pod(amd_cluster, MI0, EXPORTER)["metadata"]["name"]
    amd_cluster.metrics[exporter] = amd_cluster.metrics[exporter].replace(
        'pod="finetune-0",namespace="gpu-research",container="finetune"',
        'pod="",namespace="",container=""',
    )
    run = run_verify(amd_kubeconfig)
    assert run.failures() == [("amd-gpu-attribution", "namespace/gpu-research")]
    assert run.row("amd-gpu-attribution", "namespace/gpu-research")["found"].startswith(
        f"finetune-0 on {MI0} (amd.com/gpu) is on no series"
    )


def test_pool_short_of_nodes_fails(amd_kubeconfig: Path, amd_cluster: FakeCluster) -> None:
    nodes = amd_cluster.items("nodes")
    nodes.remove(amd_cluster.find("nodes", MI1))
    run = run_verify(amd_kubeconfig)
    assert run.failures() == [("node-count", "pool/mi300x")]
    assert run.row("node-count", "pool/mi300x")["found"] == "1 node"


# --- answers that are not lists, in AMD's operator namespace -------------------------------


def _not_checked(what: str) -> list[str]:
    return [f"not checked: {what} gave no list", "skip"]


OPERAND_POD_ROWS = [
    (check, f"node/{node}")
    for node in (MI0, MI1)
    for check in ("gpu-daemon", "exporter", "gpu-series")
]
"""AMD's rows read from its operands' pods: the device plugin's and the exporter's (whose page
the series reads). The driver and GPU-health rows read node labels: still judged."""
NO_PAGE = {
    ("amd-gpu-attribution", "namespace/gpu-research"): [
        "not checked: no metrics from the nodes of finetune-0",
        "skip",
    ]
}
"""No exporter pod, so no page: attribution is already a skip, with its own reason."""


def _answered_with(
    kubeconfig: Path, cluster: FakeCluster, raw: RawAnswer, what: str, *, kind: str, cause: str
) -> tuple[Run, Run]:
    """The healthy run, then the run with ``raw`` answered instead: it fails the one
    ``api-answer`` row of ``what`` (a ``kind`` list), and nothing else."""
    healthy = run_verify(kubeconfig)
    cluster.raw.append(raw)
    run = run_verify(kubeconfig)
    assert (run.code, run.err) == (1, "")
    assert run.failures() == [("api-answer", what)]
    assert run.rows()[-1] == {
        "check": "api-answer",
        "subject": what,
        "expected": f"a {kind}: a JSON object whose items are named objects",
        "found": cause,
        "status": "fail",
    }
    return healthy, run


def test_a_pod_list_of_amds_namespace_that_is_no_list_skips_amds_operand_rows_only(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    what = f"list pods in {NS}"
    healthy, run = _answered_with(
        amd_kubeconfig,
        amd_cluster,
        RawAnswer(rf"/api/v1/namespaces/{NS}/pods\?", {"items": "x"}),
        what,
        kind="PodList",
        cause="its items are a string ('x'), not an array",
    )
    # Exactly these rows differ from the healthy run: NVIDIA's gpu-daemon and driver rows, the
    # AMD DaemonSets' status and GPU health are judged as before; AMD's driver from its label,
    # with no plugin pod found to run amd-smi in.
    assert rows_changed(healthy, run) == {
        **{row: _not_checked(what) for row in OPERAND_POD_ROWS},
        **NO_PAGE,
        **NO_AMD_SMI_POD,
    }
    # No exporter pod found, so no AMD page read; NVIDIA's three still are.
    proxied = [p for _, p in amd_cluster.requests if "/proxy/metrics" in p]
    assert len([p for p in proxied if f"/namespaces/{NS}/" in p]) == 2  # the healthy run's
    assert len(proxied) == 2 + 3 + 3


def test_a_daemonset_list_of_amds_namespace_that_is_no_list_skips_amds_operand_rows_only(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    what = f"list daemonsets in {NS}"
    healthy, run = _answered_with(
        amd_kubeconfig,
        amd_cluster,
        RawAnswer(rf"/apis/apps/v1/namespaces/{NS}/daemonsets\?", None),
        what,
        kind="DaemonSetList",
        cause="the answer is null, not a list object",
    )
    # Not "the operator has not reconciled the pool's DeviceConfig": the operands' rows, their
    # DaemonSets' status included, are not judged on a list not read.
    assert rows_changed(healthy, run) == {
        **{row: _not_checked(what) for row in OPERAND_POD_ROWS},
        **{
            ("daemonset", f"daemonset/{NS}/{name}"): _not_checked(what)
            for name in (PLUGIN, LABELLER, EXPORTER)
        },
        **NO_PAGE,
        **NO_AMD_SMI_POD,
    }


def test_an_nvidia_only_stack_reads_nothing_of_amd(
    amd_kubeconfig: Path, amd_cluster: FakeCluster
) -> None:
    """The AMD nodes in the cluster are no business of a stack without AMD pools."""
    run = verify(amd_kubeconfig)  # Pulumi.verify.yaml
    assert run.code == 0, run.out
    assert not [path for _, path in amd_cluster.requests if NS in path]
    assert not [r for r in run.rows() if "mi300x" in r["subject"]]
