"""The kube-state-metrics names and joins the NVIDIA and AMD GPU alert and recording rules
share (plan.prometheus_rule_joins)."""

from __future__ import annotations

from gpu_platform.plan.prometheus_rule_joins import (
    BY_WORKLOAD,
    POOL,
    WORKLOAD,
    alert,
    by_pool,
    ksm_label,
    ksm_resource,
)


def test_kube_state_metrics_names() -> None:
    assert ksm_label("gpu-platform.io/pool") == "label_gpu_platform_io_pool"
    assert ksm_label("workload") == "label_workload"
    assert ksm_resource("nvidia.com/mig-1g.5gb.shared") == "nvidia_com_mig_1g_5gb_shared"
    assert ksm_resource("amd.com/gpu") == "amd_com_gpu"


def test_the_joins_name_the_labels_they_join_on() -> None:
    assert (WORKLOAD, POOL) == ("label_workload", "label_gpu_platform_io_pool")
    assert f'kube_namespace_labels{{{WORKLOAD}!=""}}' in BY_WORKLOAD
    join = by_pool("Hostname")
    assert join.startswith("* on (Hostname) group_left (pool)")
    assert f'kube_node_labels{{{POOL}!=""}}' in join


def test_an_alert_in_the_rule_file_shape() -> None:
    assert alert("GpuIdle", "x < 1", "15m", "warning", "idle") == {
        "alert": "GpuIdle",
        "expr": "x < 1",
        "for": "15m",
        "labels": {"severity": "warning"},
        "annotations": {"summary": "idle"},
    }
