"""The GPU metrics exporter's part of ``make verify`` without a cluster: what each stack
expects of it, and the checks on recorded pages and pods (the whole run: tests/stacks)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_facts.nvidia.dcgm_exporter_chart import ENGINE_ACTIVE, FRAMEBUFFER_USED, UTILIZATION
from gpu_platform.plan.metrics import NodeSeries
from gpu_platform.stack_config import load_platform
from gpu_platform.verify.expectations import exporter_expectation
from gpu_platform.verify.exporter import (
    NodeWatch,
    Page,
    gpu_attribution,
    gpu_series,
    metrics_port,
    parse_page,
    pod_gpu_resources,
    series_read,
    told_names,
)
from gpu_platform.verify.prometheus_text import Sample
from gpu_platform.verify.results import CheckResult
from tests.conftest import stack_raw

T4 = NodeSeries(UTILIZATION, 1, None)


def test_dev_exporter_watches_the_mig_and_the_time_sliced_pool() -> None:
    exporter, skipped = exporter_expectation(load_platform(stack_raw("dev")))
    assert exporter is not None and skipped == ""
    assert (exporter.title, exporter.namespace, exporter.port) == (
        "dcgm-exporter",
        "gpu-metrics",
        9400,
    )
    # 8 A100s of 7 1g.5gb instances; one T4, time-sliced 4 ways: one GPU to the exporter.
    assert exporter.pools == {
        "a100mig": NodeSeries(ENGINE_ACTIVE, 56, "1g.5gb"),
        "t4": NodeSeries(UTILIZATION, 1, None),
    }


def test_byo_mig3g_pool_shows_two_instances_per_gpu() -> None:
    exporter, _ = exporter_expectation(load_platform(stack_raw("existing")))
    assert exporter is not None
    assert exporter.pools["a100"] == NodeSeries(ENGINE_ACTIVE, 16, "3g.20gb")


def test_ack_shared_pools_are_watched_one_series_per_physical_gpu() -> None:
    exporter, _ = exporter_expectation(load_platform(stack_raw("ack-dev")))
    assert exporter is not None
    # The MPS pool's one A10 is one GPU to the exporter, however many pods share it.
    assert exporter.pools == {
        "a10mps": NodeSeries(UTILIZATION, 1, None),
        "t4": NodeSeries(UTILIZATION, 1, None),
    }


def test_the_gpu_operators_exporter_when_it_owns_the_gpus() -> None:
    raw = stack_raw("existing")
    raw.update(
        gpuOperator={"enabled": True, "namespace": "nvidia-gpu"}, devicePlugin={"enabled": False}
    )
    exporter, _ = exporter_expectation(load_platform(raw))
    assert exporter is not None
    assert (exporter.title, exporter.namespace) == ("GPU Operator's dcgm-exporter", "nvidia-gpu")


def test_metrics_off_means_no_exporter_and_says_why() -> None:
    raw = stack_raw("dev")
    raw["observability"] = {"metrics": {"enabled": False}}
    assert exporter_expectation(load_platform(raw)) == (
        None,
        "observability.metrics.enabled is false: GPU metrics are not checked",
    )


def _exporter_pod(**container: Any) -> dict[str, Any]:
    return {"spec": {"containers": [{"name": "exporter", **container}]}}


def test_names_and_port_of_the_exporter_pod() -> None:
    env = [{"name": "NVIDIA_RESOURCE_NAMES", "value": "nvidia.com/gpu.shared, x/y"}]
    assert told_names(_exporter_pod(env=env)) == {"nvidia.com/gpu.shared", "x/y"}
    # The flag beats the env var, as in the exporter's CLI.
    flag = _exporter_pod(env=env, args=["-f", "c.csv", "--nvidia-resource-names", "a/b"])
    assert told_names(flag) == {"a/b"}
    assert told_names(_exporter_pod(command=["dcgm-exporter", "--nvidia-resource-names=c/d"])) == {
        "c/d"
    }
    assert told_names({"spec": None}) == frozenset()
    assert (
        metrics_port(_exporter_pod(ports=[{"name": "metrics", "containerPort": 9500}]), 1) == 9500
    )
    assert metrics_port(_exporter_pod(ports=[{"name": "http", "containerPort": 80}]), 9400) == 9400


def test_gpu_resources_of_a_pod_include_init_containers() -> None:
    pod = {
        "spec": {
            "initContainers": [{"resources": {"limits": {"nvidia.com/mig-1g.5gb": "1"}}}],
            "containers": [{"resources": {"requests": {"cpu": "1"}}}, {"resources": None}],
        }
    }
    assert pod_gpu_resources(pod) == {"nvidia.com/mig-1g.5gb"}


def _util(**labels: str) -> Sample:
    return Sample(UTILIZATION, labels, 1.0)


def _memory(**labels: str) -> Sample:
    return Sample(FRAMEBUFFER_USED, labels, 512.0)


def test_gpus_are_told_apart_by_index_else_uuid() -> None:
    page = Page(
        (
            _util(UUID="GPU-a"),
            _util(UUID="GPU-b"),
            _util(UUID="GPU-a", pod="p"),
            _memory(UUID="GPU-a"),
            _memory(UUID="GPU-b"),
        )
    )
    two = NodeSeries(UTILIZATION, 2, None)
    assert gpu_series("n", two, page, "").found == "2 GPUs"
    row = gpu_series("n", T4, page, "")
    assert row.status == "fail"
    assert row.found == (
        "2 GPUs (1 more than the 1 the stack config promises: the node's VM size or MIG layout "
        "is not the pool's)"
    )


def test_each_whole_gpu_shows_its_memory_too() -> None:
    """AI Conformance's accelerator metrics: utilisation and memory per accelerator."""
    page = Page((_util(gpu="0"), _util(gpu="1"), _memory(gpu="0")))
    row = gpu_series("n", NodeSeries(UTILIZATION, 2, None), page, "")
    assert row.expected == "2 GPUs in DCGM_FI_DEV_GPU_UTIL and DCGM_FI_DEV_FB_USED"
    assert (row.status, row.found) == (
        "fail",
        "2 GPUs; no DCGM_FI_DEV_FB_USED series of GPU 1: the exporter's counters file leaves "
        "out the memory in use",
    )


def test_a_page_is_decoded_for_the_series_its_node_is_judged_by() -> None:
    """Memory on whole GPUs only: per MIG instance dcgm-exporter may not show it."""
    watch = NodeWatch("n", T4, CheckResult("exporter", "node/n", "", "", "pass"), {})
    assert series_read(watch) == {UTILIZATION, FRAMEBUFFER_USED}
    mig = NodeWatch("m", NodeSeries(ENGINE_ACTIVE, 7, "1g.5gb"), watch.row, {})
    assert series_read(mig) == {ENGINE_ACTIVE}


def test_a_broken_page_is_one_failing_row() -> None:
    page = parse_page('DCGM_FI_DEV_GPU_UTIL{gpu="0" 1\n')
    assert page.error == (
        "/metrics is not in the Prometheus text format (line 1: expected , or } after label gpu)"
    )
    assert gpu_series("n", T4, page, "").found == page.error


def test_attribution_reads_odd_pods_without_a_traceback() -> None:
    pods: list[dict[str, Any]] = [
        {},
        {"metadata": None, "spec": None, "status": None},
        {"spec": {"nodeName": "n", "containers": "not a list"}, "status": {"phase": "Running"}},
    ]
    row = gpu_attribution("ns", pods, {}, {}, "")
    assert (row.status, row.found) == (
        "skip",
        "no running GPU pod on the exporter's nodes: attribution not checked",
    )


@pytest.mark.parametrize("phase", ["Running", "Pending", "Succeeded", "Failed", None])
def test_only_running_pods_are_asked_for(phase: str | None) -> None:
    pod = {
        "metadata": {"name": "p"},
        "spec": {"nodeName": "n", "containers": [{"resources": {"limits": {"nvidia.com/gpu": 1}}}]},
        "status": {"phase": phase},
    }
    watch = NodeWatch("n", T4, CheckResult("exporter", "node/n", "", "", "pass"), _exporter_pod())
    page = Page((_util(gpu="0", pod="other", namespace="ns"),))
    row = gpu_attribution("ns", [pod], {"n": watch}, {"n": page}, "")
    assert row.status == ("fail" if phase == "Running" else "skip")


def _pod(name: str, node: str, resource: str) -> dict[str, Any]:
    return {
        "metadata": {"name": name},
        "spec": {"nodeName": node, "containers": [{"resources": {"limits": {resource: 4}}}]},
        "status": {"phase": "Running"},
    }


def _watch(node: str) -> NodeWatch:
    return NodeWatch(node, T4, CheckResult("exporter", f"node/{node}", "", "", "pass"), None)


ACK_NOTE = (
    "not checked: trainer (aliyun.com/gpu-mem): the exporter watches their GPUs but cannot name "
    "the pods of ACK's GPU sharing, whose device IDs are not the GPUs' (docs/observability.md)"
)


def test_pods_of_acks_gpu_sharing_are_noted_not_failed() -> None:
    # The A10 of the MPS node is on a series, with no pod: the exporter cannot name it.
    page = Page((_util(gpu="0"),))
    pods = [_pod("trainer", "mps-node", "aliyun.com/gpu-mem")]
    row = gpu_attribution("ns", pods, {"mps-node": _watch("mps-node")}, {"mps-node": page}, "")
    assert (row.status, row.found) == ("skip", ACK_NOTE)


def test_named_pods_are_checked_next_to_acks() -> None:
    pages = {
        "mps-node": Page((_util(gpu="0"),)),
        "t4-node": Page((_util(gpu="0", pod="server", namespace="ns"),)),
    }
    watches = {node: _watch(node) for node in pages}
    pods = [
        _pod("trainer", "mps-node", "aliyun.com/gpu-mem"),
        _pod("server", "t4-node", "nvidia.com/gpu"),
    ]
    row = gpu_attribution("ns", pods, watches, pages, "")
    assert (row.status, row.found) == ("pass", f"1 attributed: server; {ACK_NOTE}")
    # An NVIDIA pod the exporter does not name still fails, ACK's pods aside.
    pages["t4-node"] = Page((_util(gpu="0"),))
    row = gpu_attribution("ns", pods, watches, pages, "")
    assert row.status == "fail"
    assert row.found.startswith("server on t4-node (nvidia.com/gpu) is on no series: ")
