"""AKS observability: the workspaces before the cluster; Prometheus collection, the GPU rule
groups, container logs and audit attached to it after."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest
from pulumi.provider.experimental.analyzer import Analyzer

from gpu_facts.aks.monitor import iso_duration
from gpu_platform.components.aks.monitoring import (
    AksMonitoring,
    AksMonitoringArgs,
    AksMonitoringWorkspaces,
    AksMonitoringWorkspacesArgs,
)
from gpu_platform.offline_preview import ProgramRun
from tests.conftest import by_type, one, run

CLUSTER = (
    "/subscriptions/s/resourceGroups/rg/providers"
    "/Microsoft.ContainerService/managedClusters/gpu-dev"
)
DCR = "azure-native:monitor:DataCollectionRule"
DCRA = "azure-native:monitor:DataCollectionRuleAssociation"
RULE_GROUP = "azure-native:alertsmanagement:PrometheusRuleGroup"
T4: Any = {"name": "t4", "vm_size": "Standard_NC4as_T4_v3", "count": 2}


def monitoring(workspaces: dict[str, Any] | None = None, **args: Any) -> ProgramRun:
    def program() -> None:
        ws_args: AksMonitoringWorkspacesArgs = {
            "resource_group_name": "rg",
            "location": "westeurope",
            **(workspaces or {}),
        }
        ws = AksMonitoringWorkspaces("mon-ws", ws_args)
        full: AksMonitoringArgs = {
            "cluster_id": CLUSTER,
            "cluster_name": "gpu-dev",
            "resource_group_name": "rg",
            "location": "westeurope",
            "azure_monitor_workspace_id": ws.azure_monitor_workspace_id,
            "log_analytics_workspace_id": ws.log_analytics_workspace_id,
            "pools": [T4],
            **args,
        }
        AksMonitoring("mon", full)

    return run(program)


def test_workspaces_keep_logs_as_long_as_asked() -> None:
    result = monitoring({"retention_days": 90})
    logs = one(result, "azure-native:operationalinsights:Workspace").inputs
    assert logs["retentionInDays"] == 90
    assert logs["sku"] == {"name": "PerGB2018"}
    prometheus = one(result, "azure-native:monitor:AzureMonitorWorkspace").inputs
    assert prometheus == {"resourceGroupName": "rg", "location": "westeurope"}


def test_prometheus_collection_follows_microsofts_onboarding_template() -> None:
    result = monitoring()
    endpoint = one(result, "azure-native:monitor:DataCollectionEndpoint").inputs
    assert endpoint["kind"] == "Linux"
    rules = {r.name: r.inputs for r in by_type(result, DCR)}
    prometheus = rules["mon-prometheus-dcr"]
    assert prometheus["dataCollectionEndpointId"] == "mon-prometheus-dce-id"
    assert prometheus["dataSources"] == {
        "prometheusForwarder": [
            {"name": "PrometheusDataSource", "streams": ["Microsoft-PrometheusMetrics"]}
        ]
    }
    assert prometheus["destinations"] == {
        "monitoringAccounts": [
            {"accountResourceId": "mon-ws-prometheus-id", "name": "MonitoringAccount1"}
        ]
    }
    assert prometheus["dataFlows"] == [
        {"streams": ["Microsoft-PrometheusMetrics"], "destinations": ["MonitoringAccount1"]}
    ]
    associations = {r.name: r.inputs for r in by_type(result, DCRA)}
    assert associations["mon-prometheus-dcra"]["resourceUri"] == CLUSTER
    assert associations["mon-prometheus-dcra"]["dataCollectionRuleId"] == "mon-prometheus-dcr-id"


def test_gpu_rules_become_azure_rule_groups_scoped_to_workspace_and_cluster() -> None:
    groups = {g.inputs["ruleGroupName"]: g.inputs for g in by_type(monitoring(), RULE_GROUP)}
    assert set(groups) == {
        "gpu-platform-gpu-usage",
        "gpu-platform-gpu-health",
        "gpu-platform-gpu-capacity",
    }
    for group in groups.values():
        assert group["scopes"] == ["mon-ws-prometheus-id", CLUSTER]
        assert group["clusterName"] == "gpu-dev"
        assert group["interval"] == "PT1M"
        assert group["enabled"] is True
    health = {r["alert"]: r for r in groups["gpu-platform-gpu-health"]["rules"]}
    assert health["GpuTemperatureHigh"]["for"] == "PT10M"
    assert health["GpuRowRemapFailure"]["severity"] == 0
    assert health["GpuXidError"]["severity"] == 2
    capacity = groups["gpu-platform-gpu-capacity"]["rules"]
    assert [r["expression"].rsplit(" ", 1)[-1] for r in capacity] == ["1"]  # one T4 per node


def test_container_logs_of_the_chosen_namespaces_go_to_log_analytics() -> None:
    result = monitoring(log_namespaces=["gpu-training", "gpu-inference"])
    logs = {r.name: r.inputs for r in by_type(result, DCR)}["mon-logs-dcr"]
    (extension,) = logs["dataSources"]["extensions"]
    assert extension["extensionName"] == "ContainerInsights"
    assert extension["streams"] == [
        "Microsoft-ContainerLogV2",
        "Microsoft-KubeEvents",
        "Microsoft-KubePodInventory",
    ]
    assert extension["extensionSettings"] == {
        "dataCollectionSettings": {
            "interval": "1m",
            "enableContainerLogV2": True,
            "namespaceFilteringMode": "Include",
            "namespaces": ["gpu-inference", "gpu-training"],
        }
    }
    assert logs["destinations"] == {
        "logAnalytics": [{"workspaceResourceId": "mon-ws-logs-id", "name": "ciworkspace"}]
    }
    association = {r.name: r.inputs for r in by_type(result, DCRA)}["mon-logs-dcra"]
    assert association["associationName"] == "ContainerInsightsExtension"
    assert association["resourceUri"] == CLUSTER


def test_no_namespace_list_collects_every_namespace() -> None:
    logs = {r.name: r.inputs for r in by_type(monitoring(), DCR)}["mon-logs-dcr"]
    settings = logs["dataSources"]["extensions"][0]["extensionSettings"]["dataCollectionSettings"]
    assert settings["namespaceFilteringMode"] == "Off"
    assert "namespaces" not in settings


def test_control_plane_audit_goes_to_resource_specific_tables() -> None:
    audit = one(monitoring(), "azure-native:monitor:DiagnosticSetting").inputs
    assert audit["resourceUri"] == CLUSTER
    assert audit["workspaceId"] == "mon-ws-logs-id"
    assert audit["logAnalyticsDestinationType"] == "Dedicated"
    assert audit["logs"] == [
        {"category": "kube-audit-admin", "enabled": True},
        {"category": "guard", "enabled": True},
    ]


def test_parts_can_be_turned_off() -> None:
    result = monitoring(audit=False)
    assert by_type(result, "azure-native:monitor:DiagnosticSetting") == []

    def metrics_only() -> None:
        AksMonitoring(
            "mon",
            {
                "cluster_id": CLUSTER,
                "cluster_name": "gpu-dev",
                "resource_group_name": "rg",
                "location": "westeurope",
                "azure_monitor_workspace_id": "amw-id",
            },
        )

    only = run(metrics_only)
    assert [r.name for r in by_type(only, DCR)] == ["mon-prometheus-dcr"]
    assert by_type(only, "azure-native:monitor:DiagnosticSetting") == []


def test_bad_input_is_refused_before_anything_is_registered() -> None:
    errors: list[pulumi.InputPropertiesError] = []

    def program() -> None:
        try:
            AksMonitoringWorkspaces(
                "mon-ws", {"resource_group_name": "rg", "location": "x", "retention_days": 7}
            )
        except pulumi.InputPropertiesError as err:
            errors.append(err)
        try:
            AksMonitoring(
                "mon",
                {
                    "cluster_id": CLUSTER,
                    "cluster_name": "c",
                    "resource_group_name": "rg",
                    "location": "x",
                    "pools": [{"name": "p", "vm_size": "Standard_D4s_v5", "count": 1}],
                },
            )
        except pulumi.InputPropertiesError as err:
            errors.append(err)

    assert run(program).resources == []
    assert [[e["property_path"] for e in err.errors] for err in errors] == [
        ["retentionDays"],
        ["pools[0].vmSize"],
    ]


@pytest.mark.parametrize(("prometheus", "iso"), [("1m", "PT1M"), ("0m", "PT0M"), ("1h", "PT1H")])
def test_iso_durations(prometheus: str, iso: str) -> None:
    assert iso_duration(prometheus) == iso


def test_a_duration_azure_cannot_take_is_refused() -> None:
    with pytest.raises(ValueError, match="duration"):
        iso_duration("1d")


def test_the_analyzer_infers_schemas() -> None:
    result = Analyzer("gpu-platform").analyze([AksMonitoringWorkspaces, AksMonitoring])
    for component in result["component_definitions"].values():
        assert component.inputs
        assert all(p.description for p in component.inputs.values())
