"""The observability settings: what they mean per cloud, and the rules that refuse what cannot
work (an exporter chart too old, a value the chart lacks, a scrape path the cloud has not)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_platform.plan.observability import (
    KSM_LABELS_ALLOWLIST,
    MetricsPlan,
    grafana_name,
    log_namespaces,
    logstore_name,
    metrics_plan,
    unattributed_gpu_pools,
    unattributed_warning,
)
from gpu_platform.stack_config import ConfigError, load_platform
from gpu_platform.stack_config.rules.observability import ack_logs, grafana, metrics
from tests.conftest import stack_raw
from tests.stack_config.rules.subjects import subject


def with_observability(stack: str, observability: dict[str, Any]) -> dict[str, Any]:
    raw = stack_raw(stack)
    raw["observability"] = observability
    return raw


def problems(stack: str, observability: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as err:
        load_platform(with_observability(stack, observability))
    return err.value.problems


def test_metrics_are_on_by_default_and_fit_each_cloud() -> None:
    dev = metrics_plan(load_platform(stack_raw("dev")))
    assert dev == MetricsPlan(
        our_exporter=True,
        scrape="azureMonitor",
        scraper_namespaces=("kube-system",),
        azure_monitor=True,
        prometheus_rules=False,
    )
    existing = metrics_plan(load_platform(stack_raw("existing")))
    assert existing == MetricsPlan(True, "annotations", (), False, False)


def test_ack_scrapes_through_its_managed_prometheus() -> None:
    platform = load_platform(stack_raw("ack-dev"))
    assert metrics_plan(platform) == MetricsPlan(
        our_exporter=True,
        scrape="armsPrometheus",
        scraper_namespaces=("arms-prom",),
        azure_monitor=False,
        prometheus_rules=False,
        arms_prometheus=True,
    )
    # Ours watches every GPU pool (ACK's own stays off the tainted GPU nodes), but cannot name
    # the pods of ACK's MPS pool: the program says so.
    assert unattributed_gpu_pools(platform) == ["a10mps"]
    assert unattributed_warning(["a10mps"]) == (
        "GPU metrics: pools a10mps use ACK's GPU sharing; our exporter watches their GPUs "
        "(health, temperature, XID, utilization), but cannot name the pods holding "
        "aliyun.com/gpu-mem there: their GPU use counts in no namespace (docs/observability.md)"
    )


def test_ack_with_its_own_prometheus_gets_annotations_and_no_managed_service() -> None:
    raw = with_observability(
        "ack-dev", {"metrics": {"scrape": "annotations", "scraperNamespaces": ["monitoring"]}}
    )
    platform = load_platform(raw)
    assert metrics_plan(platform) == MetricsPlan(
        True, "annotations", ("monitoring",), False, False, False
    )
    # Whoever scrapes it, the exporter is the same: the same pods go unnamed.
    assert unattributed_gpu_pools(platform) == ["a10mps"]


def test_no_unattributed_pools_without_our_exporter() -> None:
    raw = with_observability("ack-dev", {"metrics": {"enabled": False}})
    assert unattributed_gpu_pools(load_platform(raw)) == []
    assert unattributed_gpu_pools(load_platform(stack_raw("dev"))) == []


def test_ack_logs_go_to_a_logstore_per_namespace() -> None:
    platform = load_platform(stack_raw("ack-dev"))
    assert [logstore_name(ns) for ns in log_namespaces(platform)] == [
        "gpu-inference-stdout",
        "gpu-training-stdout",
    ]


def test_grafana_is_off_unless_asked_and_named_after_the_cluster() -> None:
    dev = load_platform(stack_raw("dev")).settings
    prod = load_platform(stack_raw("prod")).settings
    assert dev.observability.grafana.enabled is False
    assert prod.observability.grafana.enabled is True
    assert grafana_name(prod) == "gpu-prod-grafana"
    raw = with_observability("dev", {"grafana": {"enabled": True, "name": "gpu-dashboards"}})
    assert grafana_name(load_platform(raw).settings) == "gpu-dashboards"


def test_prod_keeps_logs_longer_than_dev() -> None:
    dev = load_platform(stack_raw("dev")).settings.observability.logs
    prod = load_platform(stack_raw("prod")).settings.observability.logs
    assert prod.retention_days > dev.retention_days


def test_prometheus_operator_on_an_existing_cluster() -> None:
    raw = with_observability(
        "existing", {"metrics": {"scrape": "serviceMonitor", "scraperNamespaces": ["monitoring"]}}
    )
    assert metrics_plan(load_platform(raw)) == MetricsPlan(
        True, "serviceMonitor", ("monitoring",), False, True
    )


def test_the_gpu_operator_brings_its_own_exporter() -> None:
    raw = stack_raw("existing")
    raw["devicePlugin"] = {"enabled": False}
    raw["gpuOperator"] = {"enabled": True}
    plan = metrics_plan(load_platform(raw))
    assert plan is not None and plan.our_exporter is False


def test_metrics_can_be_turned_off() -> None:
    assert (
        metrics_plan(load_platform(with_observability("dev", {"metrics": {"enabled": False}})))
        is None
    )


def test_logs_follow_the_workload_namespaces_unless_listed() -> None:
    assert log_namespaces(load_platform(stack_raw("dev"))) == ["gpu-inference", "gpu-training"]
    raw = with_observability("dev", {"logs": {"namespaces": ["gateway"]}})
    assert log_namespaces(load_platform(raw)) == ["gateway"]


def test_rules_join_on_labels_kube_state_metrics_must_expose() -> None:
    assert KSM_LABELS_ALLOWLIST == "namespaces=[workload],nodes=[gpu-platform.io/pool]"


@pytest.mark.parametrize(
    ("stack", "observability", "path", "fragment"),
    [
        (
            "dev",
            {"metrics": {"exporterVersion": "3.9.0"}},
            "observability.metrics.exporterVersion",
            "older than 4.0.0",
        ),
        (
            "dev",
            {"metrics": {"exporterVersion": "latest"}},
            "observability.metrics.exporterVersion",
            "not a chart version",
        ),
        (
            "dev",
            {"metrics": {"values": {"tolerationz": []}}},
            "observability.metrics.values.tolerationz",
            "not a dcgm-exporter chart key",
        ),
        (
            "dev",
            {"metrics": {"scrape": "serviceMonitor"}},
            "observability.metrics.scrape",
            "existing cluster",
        ),
        (
            "dev",
            {"logs": {"retentionDays": 7}},
            "observability.logs.retentionDays",
            "greater than or equal to 30",
        ),
        (
            "dev",
            {"metrics": {"namespace": "gpu-training"}},
            "observability.metrics.namespace",
            "workload namespace",
        ),
        (
            "dev",
            {"metrics": {"namespace": "nvidia-device-plugin"}},
            "observability.metrics.namespace",
            "each needs its own namespace",
        ),
        ("dev", {"metrics": {"bogus": 1}}, "observability.metrics.bogus", "unknown key"),
        (
            "ack-dev",
            {"grafana": {"enabled": True}},
            "observability.grafana.enabled",
            "its own Grafana",
        ),
        (
            "existing",
            {"grafana": {"enabled": True}},
            "observability.grafana.enabled",
            "is for AKS",
        ),
        (
            "dev",
            {"grafana": {"enabled": True}, "metrics": {"enabled": False}},
            "observability.grafana.enabled",
            "Azure Monitor workspace",
        ),
        (
            "dev",
            {"grafana": {"enabled": True}, "metrics": {"scrape": "annotations"}},
            "observability.grafana.enabled",
            "scrape auto",
        ),
        (
            "dev",
            {"grafana": {"enabled": True, "name": "gpu_dashboards"}},
            "observability.grafana.name",
            "not a Grafana workspace name",
        ),
        (
            "dev",
            {"grafana": {"enabled": True, "name": "a-grafana-name-too-long-for-azure"}},
            "observability.grafana.name",
            "2 to 23",
        ),
        (
            "ack-dev",
            {"logs": {"namespaces": ["gpu-training", "n" * 57]}},
            "observability.logs.namespaces[1]",
            "at most 56",
        ),
    ],
)
def test_each_rule_names_its_path(
    stack: str, observability: dict[str, Any], path: str, fragment: str
) -> None:
    found = problems(stack, observability)
    assert any(p == path and fragment in m for p, m in found), found


@pytest.mark.parametrize(
    "observability",
    [
        {"metrics": {"exporterVersion": "4.0.0"}},
        {"metrics": {"values": {"resources": {"limits": {"memory": "1Gi"}}}}},
        {"logs": {"retentionDays": 730, "audit": False}},
        {"metrics": {"scraperNamespaces": ["monitoring"]}},
        {"grafana": {"enabled": True, "name": "a-grafana-name-23-chars"}},
        {"grafana": {"enabled": False, "name": "not_checked_when_off"}},
    ],
)
def test_neighbours_of_refused_values_are_accepted(observability: dict[str, Any]) -> None:
    load_platform(with_observability("dev", observability))


def test_ack_workload_namespaces_too_long_for_a_logstore_are_refused_where_named() -> None:
    raw = stack_raw("ack-dev")
    raw["workloads"][0]["name"] = "w" * 57
    found = [p for p, m in problems_of(raw) if "logstore" in m]
    assert found == ["workloads[0].name"]
    raw["observability"] = {"logs": {"enabled": False}}
    assert not [p for p, m in problems_of(raw) if "logstore" in m]
    raw["observability"] = {"logs": {"namespaces": ["n" * 56]}}
    assert not [p for p, m in problems_of(raw) if "logstore" in m]


def problems_of(raw: dict[str, Any]) -> list[tuple[str, str]]:
    try:
        load_platform(raw)
    except ConfigError as err:
        return err.problems
    return []


def test_each_rule_asked_on_its_own() -> None:
    def bad(raw: dict[str, Any]) -> None:
        raw["observability"] = {
            "metrics": {"scrape": "serviceMonitor"},
            "grafana": {"enabled": True},
        }

    cfg = subject("ack-dev", bad)
    assert [path for path, _ in metrics(cfg)] == ["observability.metrics.scrape"]
    assert [path for path, _ in grafana(cfg)] == ["observability.grafana.enabled"]
    assert list(ack_logs(subject("ack-dev"))) == []
