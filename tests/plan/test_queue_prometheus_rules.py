"""Kueue's alert and recording rules (plan.queue_prometheus_rules): valid PromQL over Kueue's
metrics, GPU resources only, the pending alert at the configured threshold."""

from __future__ import annotations

import re

import promql_parser
import pytest

from gpu_facts import kueue
from gpu_facts.dra import GPU_DEVICE_CLASSES, quota_key_device_class
from gpu_facts.scheduling import is_gpu_resource
from gpu_platform.plan.queue_prometheus_rules import (
    GPU_RESOURCE_MATCH,
    QueueRules,
    queue_alerts,
    queue_rule_groups,
    queue_usage_rules,
)


def test_every_expression_is_promql() -> None:
    for group in queue_rule_groups(QueueRules()):
        for rule in group["rules"]:
            promql_parser.parse(rule["expr"])


def test_the_pending_alert_waits_the_configured_minutes() -> None:
    (pending,) = [
        a for a in queue_alerts("kueue-system", 45) if a["alert"] == "KueueGpuRequestsPending"
    ]
    assert pending["for"] == "45m"
    assert pending["expr"] == "cluster_queue:kueue_gpu_pending:sum > 0"
    assert "45 minutes" in pending["annotations"]["summary"]


def test_the_controller_alert_names_its_deployment_and_namespace() -> None:
    (down,) = [a for a in queue_alerts("queues", 30) if a["alert"] == "KueueControllerDown"]
    assert 'namespace="queues"' in down["expr"]
    assert f'deployment="{kueue.CONTROLLER_DEPLOYMENT}"' in down["expr"]
    assert down["labels"]["severity"] == "critical"


def test_usage_is_recorded_per_cluster_queue_and_gpu_resource_from_kueues_metrics() -> None:
    exprs = {r["record"]: r["expr"] for r in queue_usage_rules()}
    assert kueue.RESOURCE_USAGE in exprs["cluster_queue:kueue_gpu_admitted:sum"]
    assert kueue.NOMINAL_QUOTA in exprs["cluster_queue:kueue_gpu_nominal_quota:sum"]
    assert kueue.RESOURCE_PENDING in exprs["cluster_queue:kueue_gpu_pending:sum"]
    assert kueue.PENDING_WORKLOADS in exprs["cluster_queue:kueue_pending_workloads:sum"]


@pytest.mark.parametrize(
    "resource",
    [
        "nvidia.com/gpu",
        "nvidia.com/gpu.shared",
        "nvidia.com/mig-1g.5gb",
        "aliyun.com/gpu-mem",
        "amd.com/gpu",
        "amd.com/cpx_nps4",
        "cpu",
        "memory",
        "example.com/fpga",
        "gpu.nvidia.com.deviceclass.resource.k8s.io/devices",
        "mig.nvidia.com.deviceclass.resource.k8s.io/devices",
        "example.com.deviceclass.resource.k8s.io/devices",
    ],
)
def test_the_resource_filter_keeps_gpu_resources_only(resource: str) -> None:
    pattern = GPU_RESOURCE_MATCH.split("=~", 1)[1].strip('"').replace("\\\\", "\\")
    # Prometheus anchors label regexes at both ends.
    gpu_class = quota_key_device_class(resource) in GPU_DEVICE_CLASSES
    assert bool(re.fullmatch(pattern, resource)) == (is_gpu_resource(resource) or gpu_class)
