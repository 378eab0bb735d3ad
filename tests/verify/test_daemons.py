"""The GPU daemons make verify finds: DaemonSets by name or selector, their pods per node, the
container to exec into (verify.daemons)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gpu_facts.nvidia.device_plugin_chart import CHART_NAME, NFD_NAME
from gpu_platform.verify.checks import (
    pool_checks,
)
from gpu_platform.verify.cli import load_stack
from gpu_platform.verify.daemons import (
    daemon_pods,
    exec_container,
    is_ack_daemon,
    is_device_plugin,
    is_mps_daemon_pod,
    pod_problem,
)
from gpu_platform.verify.expectations import expectations

ROOT = Path(__file__).resolve().parents[2]


def _ds(name: str, node_selector: dict[str, str] | None = None, affinity: Any = None) -> Any:
    spec: dict[str, Any] = {"containers": [{"name": "c"}]}
    if node_selector:
        spec["nodeSelector"] = node_selector
    if affinity:
        spec["affinity"] = affinity
    return {"metadata": {"name": name}, "spec": {"template": {"spec": spec}}}


@pytest.mark.parametrize(
    ("name", "plugin"),
    [
        ("nvidia-device-plugin", True),
        ("nvdp-nvidia-device-plugin", True),
        ("nvidia-device-plugin-daemonset", True),  # GPU Operator
        ("nvidia-device-plugin-gpu-feature-discovery", False),
        ("nvidia-device-plugin-mps-control-daemon", False),
        (f"{CHART_NAME}-{NFD_NAME}-worker", False),  # the chart's NFD subchart
        (f"nvdp-{CHART_NAME}-{NFD_NAME}-worker", False),
        ("kube-proxy", False),
    ],
)
def test_device_plugin_daemonset_by_name(name: str, plugin: bool) -> None:
    assert is_device_plugin(_ds(name)) is plugin


def test_ack_daemon_by_node_selector_or_affinity() -> None:
    assert is_ack_daemon(_ds("mps", {"ack.node.gpu.schedule": "mps"}), "mps")
    assert not is_ack_daemon(_ds("cgpu", {"ack.node.gpu.schedule": "cgpu"}), "mps")
    affinity = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchExpressions": [
                            {"key": "ack.node.gpu.schedule", "operator": "In", "values": ["mps"]}
                        ]
                    }
                ]
            }
        }
    }
    assert is_ack_daemon(_ds("mps", affinity=affinity), "mps")


def test_exec_container_skips_the_config_sidecar() -> None:
    pod = {
        "spec": {"containers": [{"name": "config-manager"}, {"name": "nvidia-device-plugin-ctr"}]}
    }
    assert exec_container(pod) == "nvidia-device-plugin-ctr"
    assert exec_container({"spec": {"containers": []}}) is None


def test_pod_problem_names_the_reason() -> None:
    ready = {"status": {"conditions": [{"type": "Ready", "status": "True"}]}}
    assert pod_problem(ready) is None
    pending = {"status": {"phase": "Pending", "conditions": []}}
    assert pod_problem(pending) == "pod Pending, not Ready"
    oom = {
        "status": {
            "conditions": [{"type": "Ready", "status": "False"}],
            "containerStatuses": [
                {"name": "ctr", "ready": False, "state": {"terminated": {"reason": "OOMKilled"}}}
            ],
        }
    }
    assert pod_problem(oom) == "container ctr terminated: OOMKilled"


def _pod(name: str, node: str | None, owner_uid: str, ready: bool = True) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "ctr"}]}
    if node is not None:
        spec["nodeName"] = node
    return {
        "metadata": {
            "name": name,
            "namespace": "nvidia-device-plugin",
            "ownerReferences": [{"kind": "DaemonSet", "name": "ds", "uid": owner_uid}],
        },
        "spec": spec,
        "status": {"conditions": [{"type": "Ready", "status": "True" if ready else "False"}]},
    }


def test_daemon_pods_are_indexed_by_owner_and_node() -> None:
    pods = [
        _pod("plugin-a", "node-a", "plugin-uid"),
        _pod("nfd-a", "node-a", "nfd-uid"),
        _pod("plugin-pending", None, "plugin-uid"),  # not scheduled yet: on no node
        {"metadata": {"name": "bare", "ownerReferences": None}, "spec": {"nodeName": "node-a"}},
    ]
    index = daemon_pods(pods)
    assert {
        uid: {n: p["metadata"]["name"] for n, p in on.items()} for uid, on in index.items()
    } == {
        "plugin-uid": {"node-a": "plugin-a"},
        "nfd-uid": {"node-a": "nfd-a"},
    }


@pytest.mark.parametrize("old_first", [True, False])
def test_of_two_pods_on_a_node_the_ready_one_is_kept(old_first: bool) -> None:
    """A rolling update briefly leaves an old, not-ready pod next to the new one."""
    old, new = _pod("old", "n", "u", ready=False), _pod("new", "n", "u")
    pods = [old, new] if old_first else [new, old]
    assert daemon_pods(pods)["u"]["n"]["metadata"]["name"] == "new"


class _CountingPod(dict[str, Any]):
    """A pod that counts how often its top-level fields are read."""

    reads = 0

    def get(self, key: str, default: Any = None) -> Any:
        self.reads += 1
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.reads += 1
        return super().__getitem__(key)


def test_each_pod_is_read_a_bounded_number_of_times_whatever_the_node_count() -> None:
    """The checks look each node's pod up in the index: no nodes x pods scan (it was one per
    node and DaemonSet), so a 1,000-node pool costs one pass over its pods."""
    exp = expectations(load_stack(ROOT, "x", ROOT / "tests/data/verify/Pulumi.verify.yaml"))
    pool = next(p for p in exp.pools if p.name == "t4")
    n = 300
    nodes = [{"metadata": {"name": f"node-{i}"}} for i in range(n)]
    pods = [_CountingPod(_pod(f"plugin-{i}", f"node-{i}", "plugin-uid")) for i in range(n)]
    plugin = {"metadata": {"name": CHART_NAME, "uid": "plugin-uid"}}
    rows, targets = pool_checks(pool, nodes, [plugin], daemon_pods(pods))
    assert len(targets) == n
    assert all(r.status == "pass" for r in rows if r.check == "gpu-daemon")
    assert max(p.reads for p in pods) < 20  # a constant, far below the 300 nodes


@pytest.mark.parametrize("daemon", ["nvidia-device-plugin", "mps-control-daemon"])
def test_exec_container_skips_the_charts_named_sidecar(daemon: str) -> None:
    """Chart 0.20.0 with per-node configs lists ``<name>-sidecar`` (config-manager) first
    (``daemonset-device-plugin.yml``, ``daemonset-mps-control-daemon.yml``)."""
    pod = {"spec": {"containers": [{"name": f"{daemon}-sidecar"}, {"name": f"{daemon}-ctr"}]}}
    assert exec_container(pod) == f"{daemon}-ctr"


@pytest.mark.parametrize(
    ("owner", "mps"),
    [
        ({"kind": "DaemonSet", "name": "nvidia-device-plugin-mps-control-daemon"}, True),
        ({"kind": "DaemonSet", "name": "nvidia-device-plugin"}, False),
        ({"kind": "ReplicaSet", "name": "mps-control-daemon-5d9f"}, False),
    ],
)
def test_mps_daemon_pods_are_told_by_their_daemonset(owner: dict[str, str], mps: bool) -> None:
    assert is_mps_daemon_pod({"metadata": {"ownerReferences": [owner]}}) is mps
