"""AKS observability: where GPU metrics, container logs and control-plane audit go on Azure.

Two components, because the cluster sits between them: the workspaces exist before the cluster
(its monitoring add-on is given the Log Analytics workspace), and the collection rules,
associations, rule groups and diagnostic settings attach to the cluster after it exists.

- ``AksMonitoringWorkspaces``: an Azure Monitor workspace (managed Prometheus) and a Log
  Analytics workspace with the retention asked for.
- ``AksMonitoring``: managed Prometheus collection (endpoint, rule, association), the GPU rule
  groups and alerts (``plan.prometheus_rules``) as Azure Prometheus rule groups, Container insights
  logs (ContainerLogV2) of the chosen namespaces, and control-plane audit logs.

Facts and sources: ``gpu_facts.aks.monitor``.
"""

from typing import Any, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import alertsmanagement, monitor, operationalinsights

from gpu_facts.aks.monitor import (
    AUDIT_LOG_CATEGORIES,
    COLLECTION_INTERVAL,
    CONTAINER_INSIGHTS_ASSOCIATION,
    CONTAINER_INSIGHTS_DATA_SOURCE,
    CONTAINER_INSIGHTS_EXTENSION,
    CONTAINER_INSIGHTS_STREAMS,
    DCR_KIND,
    LOG_ANALYTICS_DESTINATION,
    LOG_ANALYTICS_SKU,
    MIN_RETENTION_DAYS,
    MONITORING_ACCOUNT,
    PROMETHEUS_DATA_SOURCE,
    PROMETHEUS_STREAM,
    iso_duration,
)
from gpu_facts.amd.gpu_operator import DEFAULT_NAMESPACE as AMD_NAMESPACE
from gpu_facts.kueue import DEFAULT_NAMESPACE as KUEUE_NAMESPACE
from gpu_facts.nvidia.dcgm_exporter_chart import DEFAULT_NAMESPACE
from gpu_platform.plan.cloud_tags import azure_tag_problems
from gpu_platform.plan.observability import retention_days_problems
from gpu_platform.plan.problems import under
from gpu_platform.plan.prometheus_rules import rule_groups
from gpu_platform.plan.queue_prometheus_rules import QueueRules

from ..errors import raise_if_any, shape_problems
from ..pool_args import GpuPoolArgs, validate_gpu_pools_args
from ..recorded_inputs import recorded_inputs
from ..type_tokens import formerly, type_token
from .azure_aliases import without_version_aliases


class AksMonitoringWorkspacesArgs(TypedDict):
    """The workspaces an AKS cluster's metrics and logs go to."""

    resource_group_name: pulumi.Input[str]
    """Resource group of the workspaces (the cluster's)."""
    location: str
    """Azure region of the workspaces (the cluster's)."""
    metrics: NotRequired[bool]
    """Create the Azure Monitor workspace for managed Prometheus (default true)."""
    logs: NotRequired[bool]
    """Create the Log Analytics workspace for container logs and audit (default true)."""
    retention_days: NotRequired[int]
    """Log retention, 30 to 730 days (default 30)."""
    tags: NotRequired[dict[str, str]]
    """Azure tags."""


class AksMonitoringWorkspaces(pulumi.ComponentResource):
    """An Azure Monitor workspace and a Log Analytics workspace for one AKS cluster."""

    azure_monitor_workspace_id: pulumi.Output[str]
    """Resource ID of the Azure Monitor workspace (empty when metrics are off)."""
    log_analytics_workspace_id: pulumi.Output[str]
    """Resource ID of the Log Analytics workspace (empty when logs are off)."""
    query_endpoint: pulumi.Output[str]
    """The Azure Monitor workspace's Prometheus query endpoint (empty when metrics are off)."""

    def __init__(
        self,
        name: str,
        args: AksMonitoringWorkspacesArgs,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        raise_if_any(
            "AksMonitoringWorkspaces", name, shape_problems(args, AksMonitoringWorkspacesArgs)
        )
        retention = args.get("retention_days")
        retention = MIN_RETENTION_DAYS if retention is None else retention
        problems = under("retentionDays", retention_days_problems(retention))
        problems += under("tags", azure_tag_problems(args.get("tags") or {}))
        raise_if_any("AksMonitoringWorkspaces", name, problems)
        super().__init__(
            type_token("AksMonitoringWorkspaces"),
            name,
            None,
            formerly("gpu-platform:azure:AksMonitoringWorkspaces", without_version_aliases(opts)),
        )
        child = pulumi.ResourceOptions(parent=self)
        group, location, tags = args["resource_group_name"], args["location"], args.get("tags")
        self.azure_monitor_workspace_id = pulumi.Output.from_input("")
        self.query_endpoint = pulumi.Output.from_input("")
        if args.get("metrics", True):
            amw = monitor.AzureMonitorWorkspace(
                f"{name}-prometheus",
                resource_group_name=group,
                location=location,
                tags=tags or None,
                opts=child,
            )
            self.azure_monitor_workspace_id = amw.id
            self.query_endpoint = amw.metrics.apply(
                lambda metrics: (metrics.prometheus_query_endpoint or "") if metrics else ""
            )
        self.log_analytics_workspace_id = pulumi.Output.from_input("")
        if args.get("logs", True):
            workspace = operationalinsights.Workspace(
                f"{name}-logs",
                resource_group_name=group,
                location=location,
                tags=tags or None,
                sku=operationalinsights.WorkspaceSkuArgs(name=LOG_ANALYTICS_SKU),
                retention_in_days=retention,
                opts=child,
            )
            self.log_analytics_workspace_id = workspace.id
        self.register_outputs(
            {
                "azureMonitorWorkspaceId": self.azure_monitor_workspace_id,
                "logAnalyticsWorkspaceId": self.log_analytics_workspace_id,
                "queryEndpoint": self.query_endpoint,
            }
        )


class AksMonitoringArgs(TypedDict):
    """What an AKS cluster sends to its workspaces."""

    cluster_id: pulumi.Input[str]
    """Resource ID of the managed cluster."""
    cluster_name: pulumi.Input[str]
    """Name of the managed cluster (Prometheus rule groups are scoped to it)."""
    resource_group_name: pulumi.Input[str]
    """Resource group of the collection rules and rule groups."""
    location: str
    """Azure region of the workspaces and rules."""
    azure_monitor_workspace_id: NotRequired[pulumi.Input[str]]
    """Azure Monitor workspace: managed Prometheus collection and the GPU rule groups."""
    log_analytics_workspace_id: NotRequired[pulumi.Input[str]]
    """Log Analytics workspace: container logs and control-plane audit."""
    pools: NotRequired[list[GpuPoolArgs]]
    """The cluster's GPU pools, for the capacity alerts."""
    exporter_namespace: NotRequired[str]
    """Namespace of the GPU metrics exporter, for its down alert (default ``gpu-metrics``)."""
    amd_operator_namespace: NotRequired[str]
    """Namespace of AMD's GPU Operator, for its exporter's down alert (default
    ``amd-gpu-operator``; AMD's rules come only with AMD pools)."""
    log_namespaces: NotRequired[list[str]]
    """Namespaces whose container logs are collected; unset or empty: every namespace."""
    audit: NotRequired[bool]
    """Send the control-plane audit logs to Log Analytics (default true)."""
    tags: NotRequired[dict[str, str]]
    """Azure tags."""
    queue_pending_alert_minutes: NotRequired[int]
    """With Kueue's queues (``GpuQueues``): their rule groups too, alerting when a ClusterQueue's
    GPU requests have been pending this long (docs/queues.md); unset: no queue rules."""
    kueue_namespace: NotRequired[str]
    """Namespace of Kueue's controller, for its down alert (default ``kueue-system``)."""


class AksMonitoring(pulumi.ComponentResource):
    """Managed Prometheus, GPU rule groups, container logs and audit for one AKS cluster."""

    rule_group_names: pulumi.Output[list[str]]
    """Names of the Azure Prometheus rule groups."""

    def __init__(
        self, name: str, args: AksMonitoringArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("AksMonitoring", name, shape_problems(args, AksMonitoringArgs))
        pools, problems = validate_gpu_pools_args("aks", args.get("pools") or [], "pools")
        problems += under("tags", azure_tag_problems(args.get("tags") or {}))
        raise_if_any("AksMonitoring", name, problems)
        super().__init__(
            type_token("AksMonitoring"),
            name,
            recorded_inputs(args),
            formerly("gpu-platform:azure:AksMonitoring", without_version_aliases(opts)),
        )
        child = pulumi.ResourceOptions(parent=self)
        location, tags = args["location"], args.get("tags") or None

        groups: list[str] = []
        amw_id = args.get("azure_monitor_workspace_id")
        if amw_id is not None:
            endpoint = monitor.DataCollectionEndpoint(
                f"{name}-prometheus-dce",
                resource_group_name=args["resource_group_name"],
                location=location,
                kind=DCR_KIND,
                tags=tags,
                opts=child,
            )
            rule = monitor.DataCollectionRule(
                f"{name}-prometheus-dcr",
                resource_group_name=args["resource_group_name"],
                location=location,
                kind=DCR_KIND,
                data_collection_endpoint_id=endpoint.id,
                data_sources=monitor.DataCollectionRuleDataSourcesArgs(
                    prometheus_forwarder=[
                        monitor.PrometheusForwarderDataSourceArgs(
                            name=PROMETHEUS_DATA_SOURCE, streams=[PROMETHEUS_STREAM]
                        )
                    ]
                ),
                destinations=monitor.DataCollectionRuleDestinationsArgs(
                    monitoring_accounts=[
                        monitor.MonitoringAccountDestinationArgs(
                            account_resource_id=amw_id, name=MONITORING_ACCOUNT
                        )
                    ]
                ),
                data_flows=[
                    monitor.DataFlowArgs(
                        streams=[PROMETHEUS_STREAM], destinations=[MONITORING_ACCOUNT]
                    )
                ],
                tags=tags,
                opts=child,
            )
            monitor.DataCollectionRuleAssociation(
                f"{name}-prometheus-dcra",
                resource_uri=args["cluster_id"],
                association_name=f"{name}-prometheus",
                data_collection_rule_id=rule.id,
                opts=child,
            )
            namespace = args.get("exporter_namespace", DEFAULT_NAMESPACE)
            amd_namespace = args.get("amd_operator_namespace", AMD_NAMESPACE)
            queues = (
                QueueRules(
                    args.get("kueue_namespace", KUEUE_NAMESPACE),
                    args["queue_pending_alert_minutes"],
                )
                if "queue_pending_alert_minutes" in args
                else None
            )
            for group in rule_groups(pools, namespace, amd_namespace, queues):
                prometheus_rule_group(
                    f"{name}-{group['name']}",
                    group,
                    scopes=[amw_id, args["cluster_id"]],
                    cluster_name=args["cluster_name"],
                    resource_group_name=args["resource_group_name"],
                    location=location,
                    opts=child,
                )
                groups.append(group["name"])

        workspace_id = args.get("log_analytics_workspace_id")
        if workspace_id is not None:
            logs = monitor.DataCollectionRule(
                f"{name}-logs-dcr",
                resource_group_name=args["resource_group_name"],
                location=location,
                kind=DCR_KIND,
                data_sources=monitor.DataCollectionRuleDataSourcesArgs(
                    extensions=[
                        monitor.ExtensionDataSourceArgs(
                            name=CONTAINER_INSIGHTS_DATA_SOURCE,
                            extension_name=CONTAINER_INSIGHTS_EXTENSION,
                            streams=list(CONTAINER_INSIGHTS_STREAMS),
                            extension_settings=container_insights_settings(
                                args.get("log_namespaces") or []
                            ),
                        )
                    ]
                ),
                destinations=monitor.DataCollectionRuleDestinationsArgs(
                    log_analytics=[
                        monitor.LogAnalyticsDestinationArgs(
                            name=LOG_ANALYTICS_DESTINATION, workspace_resource_id=workspace_id
                        )
                    ]
                ),
                data_flows=[
                    monitor.DataFlowArgs(
                        streams=list(CONTAINER_INSIGHTS_STREAMS),
                        destinations=[LOG_ANALYTICS_DESTINATION],
                    )
                ],
                tags=tags,
                opts=child,
            )
            monitor.DataCollectionRuleAssociation(
                f"{name}-logs-dcra",
                resource_uri=args["cluster_id"],
                association_name=CONTAINER_INSIGHTS_ASSOCIATION,
                data_collection_rule_id=logs.id,
                opts=child,
            )
            if args.get("audit", True):
                monitor.DiagnosticSetting(
                    f"{name}-audit",
                    resource_uri=args["cluster_id"],
                    name=f"{name}-audit",
                    workspace_id=workspace_id,
                    log_analytics_destination_type="Dedicated",
                    logs=[
                        monitor.DiagnosticsLogSettingsArgs(category=category, enabled=True)
                        for category in AUDIT_LOG_CATEGORIES
                    ],
                    opts=child,
                )

        self.rule_group_names = pulumi.Output.from_input(groups)
        self.register_outputs({"ruleGroupNames": self.rule_group_names})


def container_insights_settings(namespaces: list[str]) -> dict[str, Any]:
    """The extension's ``dataCollectionSettings``: ContainerLogV2, the namespaces asked for."""
    settings: dict[str, Any] = {
        "interval": COLLECTION_INTERVAL,
        "enableContainerLogV2": True,
        "namespaceFilteringMode": "Include" if namespaces else "Off",
    }
    if namespaces:
        settings["namespaces"] = sorted(namespaces)
    return {"dataCollectionSettings": settings}


def prometheus_rule_group(
    resource_name: str,
    group: dict[str, Any],
    *,
    scopes: list[pulumi.Input[str]],
    cluster_name: pulumi.Input[str],
    resource_group_name: pulumi.Input[str],
    location: str,
    opts: pulumi.ResourceOptions,
) -> alertsmanagement.PrometheusRuleGroup:
    """A Prometheus rule group (``plan.prometheus_rules``' shape) as an Azure one."""
    return alertsmanagement.PrometheusRuleGroup(
        resource_name,
        rule_group_name=group["name"],
        resource_group_name=resource_group_name,
        location=location,
        cluster_name=cluster_name,
        scopes=scopes,
        interval=iso_duration(group["interval"]),
        enabled=True,
        rules=[azure_rule(rule) for rule in group["rules"]],
        opts=opts,
    )


def azure_rule(rule: dict[str, Any]) -> alertsmanagement.PrometheusRuleArgs:
    """One recording rule or alert; Azure takes ISO 8601 durations and a numeric severity."""
    if "record" in rule:
        return alertsmanagement.PrometheusRuleArgs(record=rule["record"], expression=rule["expr"])
    return alertsmanagement.PrometheusRuleArgs(
        alert=rule["alert"],
        expression=rule["expr"],
        for_=iso_duration(rule["for"]),
        labels=rule["labels"],
        annotations=rule["annotations"],
        # Azure's 0 (critical) to 4 (verbose).
        severity=0 if rule["labels"]["severity"] == "critical" else 2,
    )
