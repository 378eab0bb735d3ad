"""The pieces of ``make verify`` that need no cluster: expectations from the stack config,
label selectors, DaemonSet identification, the progress line and the table."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from readiness.checks import allocatable
from readiness.cli import load_stack
from readiness.daemons import exec_container, is_ack_daemon, is_device_plugin, pod_problem
from readiness.expectations import expectations
from readiness.progress import Progress
from readiness.render import table
from readiness.results import CheckResult
from readiness.selectors import SelectorError, matches
from readiness.verify import Report
from stack_config import load_platform

ROOT = Path(__file__).resolve().parent.parent


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


def test_gfd_off_means_no_gfd_label_check() -> None:
    raw = _single_strategy_raw()
    raw["gpuOperator"] = {"enabled": False}
    raw["devicePlugin"] = {"gfd": False}
    assert expectations(load_platform(raw)).pools[0].gfd is False


@pytest.mark.parametrize("stack", ["dev", "prod", "ack-dev", "byo"])
def test_every_project_stack_has_expectations(stack: str) -> None:
    if not (ROOT / f"Pulumi.{stack}.yaml").exists():
        pytest.skip(f"no Pulumi.{stack}.yaml in this checkout")
    platform = load_stack(ROOT, stack, None)
    exp = expectations(platform)
    assert [p.name for p in exp.pools] == list(platform.pools)
    for pool in exp.pools:
        assert pool.allocatable == platform.pools[pool.name].capacity.per_node
        # The NVIDIA plugin selects on it: ACK-shared pools (ACK's own plugin) must not carry it.
        served = platform.pools[pool.name].uses_device_plugin
        assert pool.labels.get("nvidia.com/gpu.present") == ("true" if served else None)


def test_ack_mps_pool_expects_gpu_memory_and_the_mps_daemon() -> None:
    exp = expectations(load_stack(ROOT, "x", ROOT / "tests/data/verify/Pulumi.verify-ack.yaml"))
    pool = exp.pools[0]
    assert pool.daemon == "ack-mps-control"
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
