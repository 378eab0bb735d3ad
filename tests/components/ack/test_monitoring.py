"""AckMonitoring on the mock engine: ACK's managed Prometheus add-on with the GPU alerts as ARMS
rules and its query endpoint; per-namespace container logs to SLS, with the retention asked
for."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import pytest

from gpu_facts.ack.addons import arms_duration
from gpu_platform.components.ack.monitoring import AckMonitoring, AckMonitoringArgs, arms_alerts
from gpu_platform.components.pool_args import GpuPoolArgs
from gpu_platform.offline_preview import ProgramRun
from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor
from gpu_platform.offline_preview.user_mocks import UserMocks
from gpu_platform.plan.prometheus_rules import generic_groups
from tests.components.input_errors import paths, reasons, refused
from tests.conftest import by_type, one, run

CLUSTER = "c0123456789abcdef"
ADDON = "alicloud:cs/kubernetesAddon:KubernetesAddon"
ALERT = "alicloud:arms/prometheusAlertRule:PrometheusAlertRule"
STORE = "alicloud:log/store:Store"
INDEX = "alicloud:log/storeIndex:StoreIndex"
LOG_CONFIG = "kubernetes:log.alibabacloud.com/v1alpha1:AliyunLogConfig"
T4: GpuPoolArgs = {"name": "t4", "instance_type": "ecs.gn6i-c4g1.xlarge", "count": 2}
MPS: GpuPoolArgs = {
    "name": "a10mps",
    "instance_type": "ecs.gn7i-c8g1.2xlarge",
    "count": 1,
    "sharing": {"mode": "mps"},
}
T4_AND_MPS_ALERTS = {
    "GpuXidError",
    "GpuRowRemapFailure",
    "GpuUncorrectableMemoryErrors",
    "GpuTemperatureHigh",
    "GpuMetricsExporterDown",
    # Only the pool the NVIDIA plugin (and our exporter) serves has a capacity promise; the
    # MPS pool is ACK's.
    "GpuAllocatableBelowPromise-t4-nvidia_com_gpu",
}
"""The ARMS alert rules of ack-dev's pools (``T4`` and ``MPS`` here)."""
QUERY_URL = "http://cn-hangzhou-intranet.arms.aliyuncs.com:9090/api/v1/prometheus/x/c0123"


def monitoring(monitor: RecordingMonitor | None = None, **args: Any) -> ProgramRun:
    def program() -> None:
        provider = k8s.Provider("k8s", kubeconfig="offline")
        full: AckMonitoringArgs = {
            "cluster_id": CLUSTER,
            "pools": [T4, MPS],
            "log_namespaces": ["gpu-training", "gpu-inference"],
            "kubernetes_provider": provider,
            **args,
        }
        mon = AckMonitoring("mon", full)
        pulumi.export("endpoint", mon.prometheus_query_endpoint)
        pulumi.export("alerts", mon.alert_rule_names)
        pulumi.export("project", mon.log_project)
        pulumi.export("logstores", mon.logstores)

    return run(program, monitor=monitor)


def addons(result: ProgramRun) -> dict[str, dict[str, Any]]:
    return {a.inputs["name"]: a.inputs for a in by_type(result, ADDON)}


def test_managed_prometheus_is_the_clusters_add_on() -> None:
    result = monitoring(logs=False)
    assert addons(result) == {"arms-prometheus": {"clusterId": CLUSTER, "name": "arms-prometheus"}}


def test_gpu_alerts_become_arms_alert_rules_after_the_add_on() -> None:
    result = monitoring(logs=False)
    addon = one(result, ADDON)
    rules = {r.inputs["prometheusAlertRuleName"]: r for r in by_type(result, ALERT)}
    assert set(rules) == T4_AND_MPS_ALERTS
    for rule in rules.values():
        assert rule.inputs["clusterId"] == CLUSTER
        assert rule.inputs["notifyType"] == "ALERT_MANAGER"
        assert addon.urn in rule.dependencies
    xid = rules["GpuXidError"].inputs
    assert xid["expression"] == "DCGM_FI_DEV_XID_ERRORS > 0"
    assert xid["duration"] == "1"  # "for: 0m": ARMS waits at least a minute
    assert xid["labels"] == [{"name": "severity", "value": "warning"}]
    assert xid["message"] == xid["annotations"][0]["value"]
    assert "{{ $labels.hostname }}" in xid["message"]
    assert rules["GpuTemperatureHigh"].inputs["duration"] == "10"
    capacity = rules["GpuAllocatableBelowPromise-t4-nvidia_com_gpu"].inputs
    assert capacity["duration"] == "15"
    assert capacity["labels"] == [
        {"name": "pool", "value": "t4"},
        {"name": "resource", "value": "nvidia.com/gpu"},
        {"name": "severity", "value": "warning"},
    ]
    # One T4 per node.
    assert capacity["expression"].endswith('kube_node_labels{label_gpu_platform_io_pool="t4"} < 1')
    assert sorted(result.outputs["alerts"]) == sorted(rules)


def test_exporter_down_alert_watches_the_exporters_namespace() -> None:
    result = monitoring(logs=False, exporter_namespace="gpu-telemetry")
    down = {r.inputs["prometheusAlertRuleName"]: r.inputs for r in by_type(result, ALERT)}[
        "GpuMetricsExporterDown"
    ]
    assert 'namespace="gpu-telemetry"' in down["expression"]


def test_recording_rules_are_not_alert_rules() -> None:
    alerts = arms_alerts(generic_groups("gpu-metrics"))
    assert [a["name"] for a in alerts] == [
        "GpuXidError",
        "GpuRowRemapFailure",
        "GpuUncorrectableMemoryErrors",
        "GpuTemperatureHigh",
        "GpuMetricsExporterDown",
    ]


@pytest.mark.parametrize(
    ("prometheus", "arms"), [("0m", "1"), ("30s", "1"), ("90s", "2"), ("15m", "15"), ("2h", "120")]
)
def test_alert_waits_in_whole_minutes(prometheus: str, arms: str) -> None:
    assert arms_duration(prometheus) == arms


@pytest.mark.parametrize("bad", ["", "5", "1d", "25h"])
def test_alert_waits_arms_cannot_take_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match=r"ARMS|Prometheus duration"):
        arms_duration(bad)


def test_query_endpoint_is_the_instances_vpc_api() -> None:
    mocks = UserMocks(
        invokes={
            "alicloud:arms/getPrometheus:getPrometheus": {
                "ids": [CLUSTER],
                "prometheis": [{"clusterId": CLUSTER, "httpApiIntraUrl": QUERY_URL}],
            }
        }
    )
    result = monitoring(RecordingMonitor(PreviewMocks(mocks)), logs=False)
    assert result.outputs["endpoint"] == QUERY_URL


def test_container_logs_go_to_one_logstore_per_namespace() -> None:
    result = monitoring(metrics=False, retention_days=90)
    assert addons(result) == {
        "logtail-ds": {
            "clusterId": CLUSTER,
            "name": "logtail-ds",
            "config": f'{{"sls_project_name": "k8s-log-{CLUSTER}"}}',
        }
    }
    logtail = one(result, ADDON)
    stores = {s.inputs["logstoreName"]: s for s in by_type(result, STORE)}
    assert set(stores) == {"gpu-inference-stdout", "gpu-training-stdout"}
    training = stores["gpu-training-stdout"]
    assert training.inputs == {
        "projectName": f"k8s-log-{CLUSTER}",
        "logstoreName": "gpu-training-stdout",
        "retentionPeriod": 90,
        "shardCount": 2,
        "autoSplit": True,
        "maxSplitShardCount": 64,
        "appendMeta": True,
    }
    assert logtail.urn in training.dependencies
    indexes = {i.inputs["logstore"]: i.inputs for i in by_type(result, INDEX)}
    assert indexes["gpu-training-stdout"]["fullText"] == {"caseSensitive": False}
    assert [f["name"] for f in indexes["gpu-training-stdout"]["fieldSearches"]] == [
        "_namespace_",
        "_pod_name_",
        "_container_name_",
        "_source_",
    ]
    assert result.outputs["project"] == f"k8s-log-{CLUSTER}"
    assert result.outputs["logstores"] == {
        "gpu-inference": "gpu-inference-stdout",
        "gpu-training": "gpu-training-stdout",
    }


def test_each_namespace_gets_an_aliyun_log_config_for_its_stdout_and_stderr() -> None:
    result = monitoring(metrics=False)
    configs = {c.inputs["metadata"]["name"]: c for c in by_type(result, LOG_CONFIG)}
    training = configs["gpu-training-stdout"]
    assert training.inputs["metadata"] == {
        "name": "gpu-training-stdout",
        "namespace": "kube-system",
    }
    assert training.inputs["spec"] == {
        "project": f"k8s-log-{CLUSTER}",
        "logstore": "gpu-training-stdout",
        "logtailConfig": {
            "inputType": "plugin",
            "configName": "gpu-training-stdout",
            "inputDetail": {
                "plugin": {
                    "inputs": [
                        {
                            "type": "service_docker_stdout",
                            "detail": {
                                "Stdout": True,
                                "Stderr": True,
                                "K8sNamespaceRegex": "^gpu-training$",
                            },
                        }
                    ]
                }
            },
        },
    }
    # Created through the cluster's provider, after the CRD's add-on and its own logstore.
    assert training.provider.startswith(one(result, "pulumi:providers:kubernetes").urn)
    store = {s.inputs["logstoreName"]: s for s in by_type(result, STORE)}["gpu-training-stdout"]
    assert {one(result, ADDON).urn, store.urn} <= set(training.dependencies)


def test_a_named_project_holds_the_logs() -> None:
    result = monitoring(metrics=False, log_project="gpu-audit-logs")
    assert addons(result)["logtail-ds"]["config"] == '{"sls_project_name": "gpu-audit-logs"}'
    assert {s.inputs["projectName"] for s in by_type(result, STORE)} == {"gpu-audit-logs"}
    assert {c.inputs["spec"]["project"] for c in by_type(result, LOG_CONFIG)} == {"gpu-audit-logs"}


def test_nothing_asked_nothing_made() -> None:
    result = monitoring(metrics=False, logs=False)
    assert [
        r.type for r in result.resources if r.custom and r.type != "pulumi:providers:kubernetes"
    ] == []
    assert result.outputs == {"endpoint": "", "alerts": [], "project": "", "logstores": {}}


def test_bad_args_name_every_property_and_register_nothing() -> None:
    err = refused(
        lambda: AckMonitoring(
            "mon",
            {
                "cluster_id": CLUSTER,
                "pools": [{"name": "t4", "instance_type": "ecs.nope", "count": 1}],
                "retention_days": 4000,
                "log_namespaces": ["gpu-training", "Bad_Name", "gpu-training", "x" * 60],
            },
        )
    )
    assert paths(err) == [
        "retentionDays",
        "kubernetesProvider",
        "logNamespaces[1]",
        "logNamespaces[2]",
        "logNamespaces[3]",
        "pools[0].instanceType",
    ]
    found = reasons(err)
    assert "not a namespace name" in found["logNamespaces[1]"]
    assert "listed twice" in found["logNamespaces[2]"]
    assert "at most 56" in found["logNamespaces[3]"]


def test_logs_need_namespaces() -> None:
    err = refused(lambda: AckMonitoring("mon", {"cluster_id": CLUSTER, "metrics": False}))
    assert paths(err) == ["logNamespaces", "kubernetesProvider"]


def test_children_are_named_after_and_parented_to_the_component() -> None:
    result = monitoring()
    component = one(result, "gpu-platform:index:AckMonitoring")
    for child in result.resources:
        if child.parent == component.urn:
            assert child.name.startswith("mon-")
    owned = [r for r in result.resources if r.custom and r.type != "pulumi:providers:kubernetes"]
    assert owned and all(r.parent == component.urn for r in owned)
