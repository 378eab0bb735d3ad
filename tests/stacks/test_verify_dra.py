"""``make verify`` on DRA pools, end to end: the recorded cluster of ``test_verify`` with two
single-H100 DRA nodes and an A100 DRA node in MIG 1g.5gb added (built here: the kubelet plugin
of NVIDIA's DRA driver on each, its ResourceSlices, its DeviceClasses, a namespace that claims
from both pools), served by the same fake API server (Pulumi.verify-dra.yaml).

Scenarios are the healthy cluster with one thing broken; each says which row fails and why.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gpu_facts.dra import NVIDIA_DRA_DRIVER, device_class_quota_key
from gpu_facts.nvidia.dra_driver_chart import KUBELET_PLUGIN_DAEMONSET
from tests.stacks.test_verify import (
    DATA,
    FakeCluster,
    RawAnswer,
    Run,
    _recorded,
    rows_changed,
    serving,
    verify,
    write_kubeconfig,
)

STACK = DATA / "Pulumi.verify-dra.yaml"
NS = "nvidia-dra-driver-gpu"
H0, H1 = "aks-h100dra-16180339-vmss000000", "aks-h100dra-16180339-vmss000001"
M0 = "aks-a100dramig-2718281-vmss000000"
POOLS = {H0: "h100dra", H1: "h100dra", M0: "a100dramig"}
PLUGIN_UID = "d4a0d4a0-0000-4000-8000-000000000001"
DRIVER = "570.124.06"
H100 = "NVIDIA H100 NVL"
A100 = "NVIDIA A100-SXM4-40GB"
CLASSES = NVIDIA_DRA_DRIVER.device_classes
DRA_QUOTA = {"gpu.nvidia.com": 2, "mig.nvidia.com": 28, "vfio.gpu.nvidia.com": 0}


def _meta(name: str, namespace: str | None = None, **extra: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "uid": f"uid-{name}", "resourceVersion": "1"}
    if namespace is not None:
        meta["namespace"] = namespace
    return {**meta, **extra}


def node(name: str) -> dict[str, Any]:
    labels = {"gpu-platform.io/pool": POOLS[name], "nvidia.com/gpu.present": "true"}
    return {
        "metadata": _meta(name, labels=labels),
        "spec": {"taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]},
        "status": {
            "allocatable": {"cpu": "40", "memory": "300Gi", "pods": "110"},
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}],
        },
    }


def plugin_pod(node_name: str, ready: bool = True) -> dict[str, Any]:
    owner = {"kind": "DaemonSet", "name": KUBELET_PLUGIN_DAEMONSET, "uid": PLUGIN_UID}
    status = "True" if ready else "False"
    state = {"running": {}} if ready else {"waiting": {"reason": "CrashLoopBackOff"}}
    return {
        "metadata": _meta(
            f"{KUBELET_PLUGIN_DAEMONSET}-{POOLS[node_name]}-{node_name[-1]}",
            NS,
            ownerReferences=[owner],
        ),
        "spec": {
            "nodeName": node_name,
            "containers": [{"name": "gpus", "image": "nvcr.io/nvidia/k8s-dra-driver-gpu:v25.12.0"}],
        },
        "status": {
            "phase": "Running",
            "conditions": [{"type": "Ready", "status": status}],
            "containerStatuses": [{"name": "gpus", "ready": ready, "state": state}],
        },
    }


def device(name: str, kind: str, product: str, profile: str | None = None) -> dict[str, Any]:
    attributes: dict[str, Any] = {
        "type": {"string": kind},
        "productName": {"string": product},
        "driverVersion": {"version": DRIVER},
    }
    if profile is not None:
        attributes["profile"] = {"string": profile}
    return {"name": name, "attributes": attributes}


def resource_slice(node_name: str, devices: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": _meta(f"{node_name}-gpu.nvidia.com-x7k2q"),
        "spec": {
            "driver": NVIDIA_DRA_DRIVER.name,
            "nodeName": node_name,
            "pool": {"name": node_name, "generation": 1, "resourceSliceCount": 1},
            "devices": devices,
        },
    }


def mig_devices(n: int = 56, profile: str = "1g.5gb") -> list[dict[str, Any]]:
    return [device(f"gpu-{i // 7}-mig-19-{i % 7}-1", "mig", A100, profile) for i in range(n)]


def namespace(name: str) -> dict[str, Any]:
    labels = {
        "kubernetes.io/metadata.name": name,
        "workload": "training",
        "gpu-platform.io/gpu-workloads": "true",
    }
    return {"metadata": _meta(name, labels=labels), "spec": {}, "status": {"phase": "Active"}}


def quota(namespace_name: str, classes: dict[str, int]) -> dict[str, Any]:
    hard = {device_class_quota_key(c): str(n) for c, n in classes.items()}
    return {"metadata": _meta("gpu-claims", namespace_name), "spec": {"hard": hard}}


def _recorded_with_dra() -> FakeCluster:
    cluster = _recorded()
    cluster.items("nodes").extend(node(n) for n in (H0, H1, M0))
    cluster.items("daemonsets").append(
        {
            "metadata": {**_meta(KUBELET_PLUGIN_DAEMONSET, NS), "uid": PLUGIN_UID},
            "spec": {},
            "status": {"desiredNumberScheduled": 3, "numberReady": 3},
        }
    )
    cluster.items("pods").extend(plugin_pod(n) for n in (H0, H1, M0))
    cluster.items("resourceslices").extend(
        [
            resource_slice(H0, [device("gpu-0", "gpu", H100)]),
            resource_slice(H1, [device("gpu-0", "gpu", H100)]),
            resource_slice(M0, mig_devices()),
        ]
    )
    cluster.items("deviceclasses").extend({"metadata": _meta(c), "spec": {}} for c in CLASSES)
    cluster.items("namespaces").append(namespace("gpu-dra"))
    cluster.items("networkpolicies").append(
        {
            "metadata": _meta("default-deny-all", "gpu-dra"),
            "spec": {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]},
        }
    )
    cluster.items("limitranges").append(
        {
            "metadata": _meta("container-defaults", "gpu-dra"),
            "spec": {
                "limits": [
                    {
                        "type": "Container",
                        "default": {"cpu": "500m", "memory": "1Gi"},
                        "defaultRequest": {"cpu": "500m", "memory": "1Gi"},
                    }
                ]
            },
        }
    )
    # Every workload namespace caps every GPU class: the device-plugin ones at 0.
    zero = dict.fromkeys(CLASSES, 0)
    cluster.items("resourcequotas").extend(
        [quota("gpu-training", zero), quota("gpu-inference", zero), quota("gpu-dra", DRA_QUOTA)]
    )
    return cluster


@pytest.fixture
def dra_cluster() -> FakeCluster:
    """A fresh copy of the healthy cluster with the DRA nodes; tests break one thing in it."""
    return copy.deepcopy(_recorded_with_dra())


@pytest.fixture
def dra_kubeconfig(tmp_path: Path, dra_cluster: FakeCluster) -> Iterator[Path]:
    with serving(dra_cluster) as url:
        yield write_kubeconfig(tmp_path / "kubeconfig", url)


@pytest.fixture
def healthy(tmp_path: Path) -> Run:
    """The healthy cluster's run, for ``rows_changed``."""
    with serving(copy.deepcopy(_recorded_with_dra())) as url:
        return run_verify(write_kubeconfig(tmp_path / "healthy-kubeconfig", url))


def run_verify(kubeconfig: Path) -> Run:
    return verify(kubeconfig, "--skip-metrics", config=STACK)


def dra_rows(run: Run) -> list[tuple[str, str]]:
    subjects = {f"node/{n}" for n in POOLS} | {"pool/h100dra", "pool/a100dramig"}
    return [
        (r["check"], r["subject"])
        for r in run.rows()
        if r["subject"] in subjects
        or r["subject"].startswith(("deviceclass/", f"daemonset/{NS}/"))
        or r["check"] == "claim-quota"
    ]


# --- a healthy cluster ---------------------------------------------------------------------


def test_healthy_dra_cluster_passes_every_check(dra_kubeconfig: Path) -> None:
    run = run_verify(dra_kubeconfig)
    assert run.code == 0, run.out
    assert run.failures() == []
    node_checks = [
        "node-ready",
        "labels",
        "taint",
        "dra-plugin",
        "resource-slices",
        "driver",
        "no-device-plugin",
    ]
    assert dra_rows(run) == [
        ("node-count", "pool/h100dra"),
        *[(check, f"node/{H0}") for check in node_checks],
        *[(check, f"node/{H1}") for check in node_checks],
        ("node-count", "pool/a100dramig"),
        *[(check, f"node/{M0}") for check in node_checks],
        ("daemonset", f"daemonset/{NS}/{KUBELET_PLUGIN_DAEMONSET}"),
        *[("device-class", f"deviceclass/{c}") for c in CLASSES],
        ("claim-quota", "namespace/gpu-training"),
        ("claim-quota", "namespace/gpu-inference"),
        ("claim-quota", "namespace/gpu-dra"),
    ]
    slices = run.row("resource-slices", f"node/{M0}")
    assert (slices["expected"], slices["found"]) == (
        "56 mig devices, profile 1g.5gb, of an A100",
        "56 matching devices",
    )
    assert run.row("resource-slices", f"node/{H0}")["expected"] == "1 gpu device, of an H100"
    assert run.row("driver", f"node/{H0}")["found"] == f"{DRIVER} (ResourceSlice driverVersion)"
    assert run.row("no-device-plugin", f"node/{M0}")["found"] == "none"
    quota_row = run.row("claim-quota", "namespace/gpu-dra")
    assert quota_row["expected"] == (
        "gpu.nvidia.com.deviceclass.resource.k8s.io/devices: 2, "
        "mig.nvidia.com.deviceclass.resource.k8s.io/devices: 28, "
        "vfio.gpu.nvidia.com.deviceclass.resource.k8s.io/devices: 0"
    )
    # The DRA pools are no device-plugin pools: no allocatable, GFD or plugin row for them.
    assert not any(
        r["subject"] in {f"node/{H0}", f"node/{M0}"} and r["check"] == "allocatable"
        for r in run.rows()
    )


# --- one thing broken ----------------------------------------------------------------------


def _slice_of(cluster: FakeCluster, node_name: str) -> dict[str, Any]:
    return next(s for s in cluster.items("resourceslices") if s["spec"]["nodeName"] == node_name)


def test_a_missing_resource_slice_fails_its_node(
    healthy: Run, dra_kubeconfig: Path, dra_cluster: FakeCluster
) -> None:
    dra_cluster.items("resourceslices").remove(_slice_of(dra_cluster, H1))
    run = run_verify(dra_kubeconfig)
    assert run.code == 1
    assert rows_changed(healthy, run, added=0) == {
        ("resource-slices", f"node/{H1}"): [
            "no ResourceSlice publishes a device of this node",
            "fail",
        ],
        ("driver", f"node/{H1}"): ["no device reports one", "fail"],
    }


def test_a_short_mig_slice_fails_with_what_is_missing(
    healthy: Run, dra_kubeconfig: Path, dra_cluster: FakeCluster
) -> None:
    _slice_of(dra_cluster, M0)["spec"]["devices"] = mig_devices(49)
    run = run_verify(dra_kubeconfig)
    assert rows_changed(healthy, run, added=0) == {
        ("resource-slices", f"node/{M0}"): ["49 matching devices (7 short)", "fail"]
    }


def test_devices_of_another_model_or_profile_fail(
    healthy: Run, dra_kubeconfig: Path, dra_cluster: FakeCluster
) -> None:
    _slice_of(dra_cluster, H0)["spec"]["devices"] = [device("gpu-0", "gpu", "NVIDIA A10")]
    _slice_of(dra_cluster, M0)["spec"]["devices"] = mig_devices(28, "2g.10gb")
    run = run_verify(dra_kubeconfig)
    assert rows_changed(healthy, run, added=0) == {
        ("resource-slices", f"node/{H0}"): [
            "0 matching devices (1 short); others: gpu NVIDIA A10",
            "fail",
        ],
        ("resource-slices", f"node/{M0}"): [
            f"0 matching devices (56 short); others: mig {A100} 2g.10gb",
            "fail",
        ],
    }


def test_a_device_plugin_pod_on_a_dra_node_fails(
    healthy: Run, dra_kubeconfig: Path, dra_cluster: FakeCluster
) -> None:
    stray = copy.deepcopy(dra_cluster.pod_on("aks-t4-27182818-vmss000000"))
    stray["metadata"]["name"] = "nvidia-device-plugin-stray"
    stray["spec"]["nodeName"] = H0
    dra_cluster.items("pods").append(stray)
    run = run_verify(dra_kubeconfig)
    changed = rows_changed(healthy, run, added=0)
    assert changed[("no-device-plugin", f"node/{H0}")] == [
        "nvidia-device-plugin/nvidia-device-plugin-stray",
        "fail",
    ]


def test_a_kubelet_plugin_not_ready_fails_its_node(
    healthy: Run, dra_kubeconfig: Path, dra_cluster: FakeCluster
) -> None:
    pods = dra_cluster.items("pods")
    index = next(i for i, p in enumerate(pods) if p["spec"]["nodeName"] == M0)
    pods[index] = plugin_pod(M0, ready=False)
    run = run_verify(dra_kubeconfig)
    row = run.row("dra-plugin", f"node/{M0}")
    assert row["status"] == "fail"
    assert "CrashLoopBackOff" in row["found"]


def test_an_old_driver_fails(healthy: Run, dra_kubeconfig: Path, dra_cluster: FakeCluster) -> None:
    """550 passes driverCheck.minDriverMajor (535) but not NVIDIA's DRA driver, which needs 565
    to allocate GPUs."""
    for dev in _slice_of(dra_cluster, H0)["spec"]["devices"]:
        dev["attributes"]["driverVersion"] = {"version": "550.54.15"}
    run = run_verify(dra_kubeconfig)
    assert rows_changed(healthy, run, added=0) == {
        ("driver", f"node/{H0}"): [
            "550.54.15 is older than 565: upgrade the node image or driver",
            "fail",
        ]
    }


def test_a_missing_device_class_and_claim_quota_key_fail(
    healthy: Run, dra_kubeconfig: Path, dra_cluster: FakeCluster
) -> None:
    classes = dra_cluster.items("deviceclasses")
    classes[:] = [c for c in classes if c["metadata"]["name"] != "mig.nvidia.com"]
    dra = next(
        q for q in dra_cluster.items("resourcequotas") if q["metadata"]["namespace"] == "gpu-dra"
    )
    del dra["spec"]["hard"][device_class_quota_key("mig.nvidia.com")]
    run = run_verify(dra_kubeconfig)
    assert rows_changed(healthy, run, added=0) == {
        ("device-class", "deviceclass/mig.nvidia.com"): [
            "not found: claims on it stay pending",
            "fail",
        ],
        ("claim-quota", "namespace/gpu-dra"): [
            "gpu.nvidia.com.deviceclass.resource.k8s.io/devices: 2, "
            "vfio.gpu.nvidia.com.deviceclass.resource.k8s.io/devices: 0 (missing "
            "mig.nvidia.com.deviceclass.resource.k8s.io/devices: claims on them are uncapped)",
            "fail",
        ],
    }


def test_a_bad_resource_slice_list_skips_its_rows_and_is_named(
    healthy: Run, dra_kubeconfig: Path, dra_cluster: FakeCluster
) -> None:
    dra_cluster.raw.append(RawAnswer("/apis/resource.k8s.io/v1/resourceslices", ["not", "a list"]))
    run = run_verify(dra_kubeconfig)
    assert run.code == 1
    changed = rows_changed(healthy, run)
    skipped = "not checked: list resourceslices of driver gpu.nvidia.com gave no list"
    for node_name in POOLS:
        for check in ("resource-slices", "driver"):
            assert changed.pop((check, f"node/{node_name}")) == [skipped, "skip"]
    assert changed == {}
    last = run.rows()[-1]
    assert (last["check"], last["subject"], last["status"]) == (
        "api-answer",
        "list resourceslices of driver gpu.nvidia.com",
        "fail",
    )
