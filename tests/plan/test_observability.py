"""How GPU metrics and logs leave the cluster, per cloud (plan.observability)."""

from __future__ import annotations

from gpu_platform.plan.observability import (
    grafana_name,
    log_namespaces,
    logstore_name,
    logstore_name_problem,
    metrics_plan,
    unattributed_gpu_pools,
)
from tests.conftest import platform_of, stack_raw


def test_each_cloud_scrapes_its_own_way() -> None:
    dev = metrics_plan(platform_of(stack_raw("dev")))
    assert dev is not None and dev.scrape == "azureMonitor" and dev.azure_monitor
    assert "kube-system" in dev.scraper_namespaces
    ack = metrics_plan(platform_of(stack_raw("ack-dev")))
    assert ack is not None and ack.scrape == "armsPrometheus" and ack.arms_prometheus


def test_metrics_off_means_no_plan() -> None:
    raw = stack_raw("existing")
    raw.setdefault("observability", {})["metrics"] = {"enabled": False}
    assert metrics_plan(platform_of(raw)) is None


def test_ack_shared_pools_are_named_as_unattributed() -> None:
    platform = platform_of(stack_raw("ack-dev"))
    shared = sorted(p.name for p in platform.pools.values() if not p.uses_device_plugin)
    assert unattributed_gpu_pools(platform) == shared


def test_logstores_and_grafana_names() -> None:
    assert logstore_name("gpu-training") == "gpu-training-stdout"
    assert logstore_name_problem("gpu-training") is None
    assert "not a namespace name" in (logstore_name_problem("Gpu") or "")
    assert "characters" in (logstore_name_problem("a" * 60) or "")
    dev = platform_of(stack_raw("dev"))
    assert grafana_name(dev.settings) == dev.settings.cluster.name + "-grafana"
    assert set(log_namespaces(dev)) <= {w.name for w in dev.settings.workloads} | set(
        dev.settings.observability.logs.namespaces or []
    )
