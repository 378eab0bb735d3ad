"""The checks of one node, pool or namespace against what the stack expects, on odd API data too
(verify.checks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_facts.nvidia.device_plugin_chart import CHART_NAME
from gpu_platform.verify.checks import (
    admission_binding,
    allocatable,
    daemonset_status,
    gpu_quota,
    limit_range,
    network_policy,
    pool_checks,
)
from gpu_platform.verify.cli import load_stack
from gpu_platform.verify.daemons import (
    exec_container,
    is_ack_daemon,
    pod_problem,
)
from gpu_platform.verify.expectations import GpuDaemon, NamespaceExpectation, expectations

ROOT = Path(__file__).resolve().parents[2]


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


def _limits(*items: dict[str, object]) -> dict[str, object]:
    return {"metadata": {"name": "container-defaults"}, "spec": {"limits": list(items)}}


def test_limit_range_with_the_configured_defaults() -> None:
    ns = NamespaceExpectation("team", {}, "Deny", ("500m", "1Gi"))
    fits = _limits(
        {
            "type": "Container",
            "default": {"cpu": "0.5", "memory": "1Gi"},
            "defaultRequest": {"cpu": "500m", "memory": "1024Mi"},
        }
    )
    assert limit_range(ns, [fits]).status == "pass"
    other = _limits({"type": "Container", "default": {"cpu": "1", "memory": "1Gi"}})
    row = limit_range(ns, [other])
    assert row.status == "fail" and row.found.startswith("container-defaults: default cpu: 1")
    assert limit_range(ns, []).found.startswith("no LimitRange with a Container item")


def test_a_limit_range_naming_a_gpu_fails() -> None:
    ns = NamespaceExpectation("team", {}, "Deny", ("500m", "1Gi"))
    gpu = _limits(
        {
            "type": "Container",
            "default": {"cpu": "500m", "memory": "1Gi"},
            "defaultRequest": {"cpu": "500m", "memory": "1Gi"},
        },
        {"type": "Container", "max": {"nvidia.com/gpu": "1"}},
    )
    row = limit_range(ns, [gpu])
    assert row.status == "fail"
    assert row.found == (
        "container-defaults names nvidia.com/gpu: containers that ask for no GPU would get one "
        "by default"
    )
