"""plan/amd/prometheus_rules.py: AMD's exporter in the same rules, alerts and dashboard as
dcgm-exporter's, per namespace, workload type and pool, with health and ECC alerts (only with AMD
pools)."""

from __future__ import annotations

from gpu_facts.nvidia.dcgm_exporter_chart import DEFAULT_NAMESPACE
from gpu_platform.plan.amd.prometheus_rules import amd_health_alerts, amd_usage_rules
from gpu_platform.plan.prometheus_rules import capacity_alerts, rule_groups
from tests.conftest import platform_of, stack_raw


def _rules(stack: str) -> list[dict]:
    platform = platform_of(stack_raw(stack))
    groups = rule_groups(list(platform.pools.values()), DEFAULT_NAMESPACE)
    return [rule for group in groups for rule in group["rules"]]


AMD_RECORDS = {
    "namespace:amd_gpu_utilization:avg",
    "namespace:amd_gpu_memory_used_bytes:sum",
    "workload:amd_gpu_utilization:avg",
    "workload:amd_gpu_memory_used_bytes:sum",
    "pool:amd_gpu_utilization:avg",
    "namespace:amd_gpu_allocated_idle:count",
}


def test_amd_rules_come_with_amd_pools_only() -> None:
    records = {rule["record"] for rule in _rules("amd-dev") if "record" in rule}
    assert records >= AMD_RECORDS
    alerts = {rule["alert"] for rule in _rules("amd-dev") if "alert" in rule}
    assert {"AmdGpuUnhealthy", "AmdGpuUncorrectableEccErrors", "AmdGpuTemperatureHigh"} <= alerts
    assert not {rule.get("record") for rule in _rules("dev")} & AMD_RECORDS
    assert not [r for r in _rules("dev") if r.get("alert", "").startswith("Amd")]


def test_amd_usage_is_attributed_per_pod_and_joined_to_workload_and_pool() -> None:
    exprs = {r["record"]: r["expr"] for r in _rules("amd-dev") if "record" in r}
    assert exprs["namespace:amd_gpu_utilization:avg"] == (
        'avg by (namespace) (gpu_gfx_activity{namespace!=""})'
    )
    assert "label_workload" in exprs["workload:amd_gpu_utilization:avg"]
    assert (
        'label_replace(label_replace(kube_node_labels{label_gpu_platform_io_pool!=""}, '
        in (exprs["pool:amd_gpu_utilization:avg"])
    )
    assert exprs["namespace:amd_gpu_memory_used_bytes:sum"].endswith("* 1048576")


def test_amd_exporter_down_alert_watches_the_operators_namespace() -> None:
    platform = platform_of(stack_raw("amd-dev"))
    groups = rule_groups(list(platform.pools.values()), DEFAULT_NAMESPACE, "amd-ops")
    (down,) = [
        r for g in groups for r in g["rules"] if r.get("alert") == "AmdGpuMetricsExporterDown"
    ]
    assert 'namespace="amd-ops", daemonset=~".+-metrics-exporter"' in down["expr"]


def test_capacity_alerts_hold_the_amd_pools_promise() -> None:
    platform = platform_of(stack_raw("amd-dev"))
    exprs = [alert["expr"] for alert in capacity_alerts(list(platform.pools.values()))]
    assert (
        'kube_node_status_allocatable{resource="amd_com_gpu"} * on (node) group_left () '
        'kube_node_labels{label_gpu_platform_io_pool="mi300x"} < 8'
    ) in exprs


def test_the_amd_modules_rules_are_what_a_stack_with_amd_pools_gets() -> None:
    rules = _rules("amd-dev")
    assert {r["record"] for r in amd_usage_rules()} == AMD_RECORDS
    assert all(rule in rules for rule in amd_usage_rules())
    alerts = amd_health_alerts("amd-gpu-operator")
    assert {a["alert"] for a in alerts} == {
        "AmdGpuUnhealthy",
        "AmdGpuUncorrectableEccErrors",
        "AmdGpuTemperatureHigh",
        "AmdGpuMetricsExporterDown",
    }
    assert all(rule in rules for rule in alerts)
