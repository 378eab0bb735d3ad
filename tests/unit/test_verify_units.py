"""The pieces of ``make verify`` that need no cluster: expectations from the stack config,
label selectors, DaemonSet identification, the progress line and the table."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

import gpu_platform.verify
from gpu_facts.device_plugin_chart import CHART_NAME, NFD_NAME
from gpu_facts.scheduling import GPU_PRESENT_LABEL, WORKLOAD_LABEL_PREFIX
from gpu_platform.stack_config import load_platform
from gpu_platform.verify.checks import (
    admission_binding,
    allocatable,
    daemonset_status,
    gpu_quota,
    network_policy,
    pool_checks,
)
from gpu_platform.verify.cli import load_stack, parser
from gpu_platform.verify.daemons import (
    daemon_pods,
    exec_container,
    is_ack_daemon,
    is_device_plugin,
    is_mps_daemon_pod,
    pod_problem,
)
from gpu_platform.verify.expectations import GpuDaemon, NamespaceExpectation, expectations
from gpu_platform.verify.progress import Progress
from gpu_platform.verify.render import table
from gpu_platform.verify.results import CheckResult
from gpu_platform.verify.selectors import SelectorError, matches
from gpu_platform.verify.verify import Report
from tests.conftest import stack_raw

ROOT = Path(__file__).resolve().parents[2]


# --- expectations ---------------------------------------------------------------------------


def test_mig_pool_expects_56_mig_devices_per_node() -> None:
    """BP-13: ND96asr_v4 with MIG1g under the mixed strategy shows nvidia.com/mig-1g.5gb: 56."""
    exp = expectations(load_stack(ROOT, "verify", ROOT / "tests/data/verify/Pulumi.verify.yaml"))
    a100 = next(p for p in exp.pools if p.name == "a100")
    assert a100.allocatable == {"nvidia.com/mig-1g.5gb": 56}
    assert (a100.min_nodes, a100.max_nodes) == (2, 2)
    assert str(a100.taint) == "nvidia.com/gpu=present:NoSchedule"
    assert a100.labels == {
        "nvidia.com/gpu.present": "true",
        "nvidia.com/device-plugin.config": "a100",
    }
    t4 = next(p for p in exp.pools if p.name == "t4")
    assert t4.allocatable == {"nvidia.com/gpu.shared": 4}  # 1 GPU x 4 time-slicing replicas
    assert t4.labels["team"] == "inference"
    assert (t4.min_nodes, t4.max_nodes) == (1, 3)


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_aks_pools_expect_the_workload_type_labels_the_stack_sets(stack: str) -> None:
    platform = load_platform(stack_raw(stack))
    for pool in expectations(platform).pools:
        # Brute force: every workload whose namespaces may use the pool.
        allowed = {
            wl.type
            for wl in platform.settings.workloads
            if pool.name in {pf.name for pf in platform.workload_pools(wl)}
        }
        found = {
            key.removeprefix(WORKLOAD_LABEL_PREFIX)
            for key, value in pool.labels.items()
            if key.startswith(WORKLOAD_LABEL_PREFIX) and value == "true"
        }
        assert found == allowed, pool.name


def _single_strategy_raw() -> dict[str, Any]:
    return {
        "cloud": "existing",
        "cluster": {"name": "lab"},
        "gpuPools": [
            {
                "name": "a100",
                "vmSize": "Standard_ND96asr_v4",
                "count": 1,
                "mig": {"profile": "MIG1g", "strategy": "single"},
            }
        ],
        "gpuOperator": {"enabled": True},
        "devicePlugin": {"enabled": False},
        "workloads": [{"name": "train", "type": "training", "gpuQuota": 7}],
        "admission": {"action": "Warn"},
    }


def test_single_strategy_and_gpu_operator() -> None:
    """BP-13 single: 56 instances as nvidia.com/gpu; the GPU Operator's namespace is searched."""
    exp = expectations(load_platform(_single_strategy_raw()))
    assert exp.pools[0].allocatable == {"nvidia.com/gpu": 56}
    assert exp.pools[0].gfd is True  # the operator runs GFD
    assert exp.plugin_namespace == "gpu-operator"
    assert exp.namespaces[0].gpu_quota == {"requests.nvidia.com/gpu": 7}
    assert exp.namespaces[0].admission_action == "Warn"


def test_plugin_managed_outside_the_stack_means_no_gfd_label_check() -> None:
    """Existing cluster, neither our plugin nor the GPU Operator: nothing of ours runs GFD."""
    raw = _single_strategy_raw()
    raw["gpuOperator"] = {"enabled": False}
    raw["devicePlugin"] = {"enabled": False}
    pool = expectations(load_platform(raw)).pools[0]
    assert pool.gfd is False
    assert pool.daemon is GpuDaemon.DEVICE_PLUGIN  # still served by an NVIDIA device plugin


@pytest.mark.parametrize("stack", ["dev", "prod", "ack-dev", "byo"])
def test_every_project_stack_has_expectations(stack: str) -> None:
    """The stack files are tracked: a missing one is a failure, not a skip."""
    platform = load_stack(ROOT, stack, None)
    exp = expectations(platform)
    assert [p.name for p in exp.pools] == list(platform.pools)
    for pool in exp.pools:
        assert pool.allocatable == platform.pools[pool.name].capacity.per_node
        # The NVIDIA plugin selects on it: ACK-shared pools (ACK's own plugin) must not carry it.
        served = platform.pools[pool.name].uses_device_plugin
        assert pool.labels.get(GPU_PRESENT_LABEL) == ("true" if served else None)
        assert (pool.daemon is GpuDaemon.DEVICE_PLUGIN) is served


def test_ack_mps_pool_expects_gpu_memory_and_the_mps_daemon() -> None:
    exp = expectations(load_stack(ROOT, "x", ROOT / "tests/data/verify/Pulumi.verify-ack.yaml"))
    pool = exp.pools[0]
    assert pool.daemon is GpuDaemon.ACK_MPS_CONTROL
    assert pool.allocatable == {"aliyun.com/gpu-mem": 24}  # one A10, 24 GiB
    assert pool.labels["ack.node.gpu.schedule"] == "mps"
    assert "nvidia.com/device-plugin.config" not in pool.labels


# --- selectors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("selector", "selected"),
    [
        (None, True),
        ({}, True),
        ({"matchLabels": {"team": "a"}}, True),
        ({"matchLabels": {"team": "b"}}, False),
        ({"matchExpressions": [{"key": "team", "operator": "In", "values": ["a", "b"]}]}, True),
        ({"matchExpressions": [{"key": "team", "operator": "NotIn", "values": ["a"]}]}, False),
        ({"matchExpressions": [{"key": "gpu", "operator": "Exists"}]}, False),
        ({"matchExpressions": [{"key": "gpu", "operator": "DoesNotExist"}]}, True),
        (
            {
                "matchLabels": {"team": "a"},
                "matchExpressions": [{"key": "env", "operator": "In", "values": ["prod"]}],
            },
            False,
        ),
    ],
)
def test_label_selector(selector: dict[str, Any] | None, selected: bool) -> None:
    assert matches(selector, {"team": "a", "env": "dev"}) is selected


def test_unknown_selector_operator_is_an_error() -> None:
    with pytest.raises(SelectorError, match="'Gt'"):
        matches({"matchExpressions": [{"key": "n", "operator": "Gt", "values": ["1"]}]}, {})


# --- DaemonSets and pods ---------------------------------------------------------------------


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


# --- progress and table -------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_redraws_one_line_on_a_terminal() -> None:
    term = _Terminal()
    progress = Progress(term, enabled=True)
    progress.update("driver", 1, 2, "node-a")
    progress.update("driver", 2, 2, "b")
    progress.done()
    assert term.getvalue() == (
        "\rverify: driver 1/2 node-a"
        "\rverify: driver 2/2 b     "  # padded over the longer previous line
        "\r" + " " * len("verify: driver 2/2 b     ") + "\r"
    )


def test_progress_in_logs_writes_every_tenth() -> None:
    log = io.StringIO()
    progress = Progress(log, enabled=True)
    for done in range(1, 101):
        progress.update("driver", done, 100, f"n{done}")
    lines = log.getvalue().splitlines()
    assert len(lines) == 11  # 0.0x and each tenth, and the last
    assert lines[-1] == "verify: driver 100/100 n100"


def test_progress_off_writes_nothing() -> None:
    quiet = _Terminal()
    Progress(quiet, enabled=False).update("driver", 1, 1, "x")
    assert quiet.getvalue() == ""


def test_table_aligns_columns_and_states_the_verdict() -> None:
    report = Report(
        [
            CheckResult(
                "taint", "node/a", "nvidia.com/gpu=present:NoSchedule", "no taints", "fail"
            ),
            CheckResult("driver", "node/long-name", "driver major ≥ 535", "550.1", "pass"),
            CheckResult("gpu-daemon", "node/c", "-", "not inspected", "skip"),
        ]
    )
    text = table(report, "verify dev")
    lines = text.splitlines()
    assert lines[0] == "verify dev"
    header, first = lines[2], lines[3]
    assert header.index("SUBJECT") == first.index("node/a")
    assert header.index("FOUND") == first.index("no taints")
    assert first.endswith("FAIL")
    assert lines[-1] == "NOT READY: 1 passed, 1 failed, 1 skipped"
    assert not report.ok


def test_a_warning_never_fails_the_report() -> None:
    report = Report(
        [
            CheckResult("node-image", "pool/a", "image ≤ 35 days old", "60 days old", "warn"),
            CheckResult("driver", "node/b", "driver major ≥ 535", "550.1", "pass"),
        ]
    )
    assert report.ok
    assert report.counts() == {"pass": 1, "fail": 0, "skip": 0, "warn": 1}
    lines = table(report, "verify dev").splitlines()
    assert lines[3].endswith("WARN")
    assert lines[-1] == "READY: 1 passed, 0 failed, 0 skipped, 1 warning"


@pytest.mark.parametrize(
    ("advertised", "passes"),
    [("24", True), ("22", True), ("21", True), ("20", False), ("25", False), ("0", False)],
)
def test_ack_gpu_memory_may_be_a_little_under_the_marketed_size(
    advertised: str, passes: bool
) -> None:
    """ACK advertises what the driver reports in whole GiB: 22 of a "24 GB" A10 is healthy."""
    exp = expectations(load_stack(ROOT, "x", ROOT / "tests/data/verify/Pulumi.verify-ack.yaml"))
    node = {
        "metadata": {"name": "ack-node"},
        "status": {"allocatable": {"cpu": "8", "aliyun.com/gpu-mem": advertised}},
    }
    result = allocatable(exp.pools[0], node)
    assert (result.status == "pass") is passes, result


def test_exact_gpu_counts_allow_no_slack() -> None:
    exp = expectations(load_stack(ROOT, "x", ROOT / "tests/data/verify/Pulumi.verify.yaml"))
    mig = next(p for p in exp.pools if "nvidia.com/mig-1g.5gb" in p.allocatable)
    short = {r: str(n - 1) for r, n in mig.allocatable.items()}
    node = {"metadata": {"name": "n"}, "status": {"allocatable": short}}
    result = allocatable(mig, node)
    assert result.status == "fail"
    assert "of 56" in result.found


# --- the pod index and odd API data ------------------------------------------------------------


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


def test_odd_node_data_gives_failing_rows_not_a_traceback() -> None:
    """Fields the API server left out or sent as null read as empty: each check fails clearly."""
    exp = expectations(load_stack(ROOT, "x", ROOT / "tests/data/verify/Pulumi.verify.yaml"))
    pool = next(p for p in exp.pools if p.name == "t4")
    node = {"metadata": {"name": "odd", "labels": None}, "spec": None, "status": None}
    rows, targets = pool_checks(pool, [node], [], {})
    found = {r.check: r.found for r in rows}
    assert {r.check for r in rows if r.status == "fail"} == {
        "node-ready",
        "labels",
        "taint",
        "gfd-labels",
        "allocatable",
        "gpu-daemon",
    }
    assert found["node-ready"] == "not Ready (no Ready condition)"
    assert found["taint"] == "no taints"
    assert found["allocatable"].startswith("none (")
    assert found["gpu-daemon"] == "no device plugin DaemonSet found"
    assert targets == []


def test_odd_pod_and_daemonset_data() -> None:
    assert pod_problem({"status": None}) == "pod Unknown, not Ready"
    odd_container = {"status": {"containerStatuses": [{"name": None, "state": None}]}}
    assert pod_problem(odd_container) == "container ? not ready"
    assert exec_container({"spec": None}) is None
    assert exec_container({"spec": {"containers": [{"name": None}, "x"]}}) is None
    assert not is_ack_daemon({"spec": {"template": None}}, "mps")
    fresh = {"metadata": {"name": CHART_NAME, "namespace": "ns"}}  # no status yet
    row = daemonset_status(GpuDaemon.DEVICE_PLUGIN.report_name, fresh)
    assert (row.status, row.found) == ("fail", "no status from the DaemonSet controller")
    scaled_to_zero = {**fresh, "status": {"desiredNumberScheduled": 0, "numberReady": 0}}
    assert daemonset_status(GpuDaemon.DEVICE_PLUGIN.report_name, scaled_to_zero).status == "pass"


def test_odd_namespace_objects_give_rows() -> None:
    ns = NamespaceExpectation("team", {"requests.nvidia.com/gpu": 4}, "Deny")
    namespace = {"metadata": {"name": "team", "labels": None}}
    policies = [{"metadata": {"name": "p"}, "spec": {"policyTypes": [{"odd": 1}]}}]
    assert network_policy(ns, policies).status == "fail"
    assert gpu_quota(ns, [{"metadata": {"name": "q"}, "spec": None}]).found == (
        "no ResourceQuota limits a GPU resource"
    )
    malformed = {
        "metadata": {"name": "b"},
        "spec": {"matchResources": {"namespaceSelector": {"matchExpressions": [{"values": []}]}}},
    }
    row = admission_binding(ns, namespace, [malformed])
    assert row.status == "fail"
    assert row.found == "b: label selector expression without a key: {'values': []}"


@pytest.mark.parametrize(
    "selector",
    [
        {"matchLabels": ["team"]},
        {"matchExpressions": {"key": "team"}},
        {"matchExpressions": [None]},
        ["team"],
    ],
)
def test_malformed_selector_is_a_selector_error(selector: Any) -> None:
    with pytest.raises(SelectorError):
        matches(selector, {"team": "a"})


# --- the command -------------------------------------------------------------------------------


def test_the_command_without_the_kubernetes_client_says_which_extra_it_needs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # An install of gpu-platform without [verify]: `import kubernetes` fails.
    monkeypatch.setitem(sys.modules, "kubernetes", None)
    assert gpu_platform.verify.main() == 2
    assert capsys.readouterr().err == gpu_platform.verify.MISSING_CLIENT
    assert "pip install 'gpu-platform[verify]'" in gpu_platform.verify.MISSING_CLIENT


def test_the_command_is_named_as_installed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        parser().parse_args(["--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("usage: gpu-platform-verify ")
