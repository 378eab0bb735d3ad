"""Azure Monitor facts for an AKS cluster's metrics, logs and audit (sources beside each).

Managed Prometheus: Microsoft's onboarding template for an existing cluster
(https://aka.ms/azureprometheus-enable-arm-template, as described in
https://learn.microsoft.com/azure/azure-monitor/containers/prometheus-metrics-enable):
a Linux data collection endpoint and rule in the Azure Monitor workspace's region, the
``Microsoft-PrometheusMetrics`` stream from a ``prometheusForwarder`` data source to the
workspace as a monitoring account, and the rule associated with the cluster; the cluster's
``azureMonitorProfile.metrics`` turns the collector on. Its ``kubeStateMetrics`` allow-lists
decide which Kubernetes labels reach ``kube_<resource>_labels``.

Container insights (https://learn.microsoft.com/azure/azure-monitor/containers/container-insights-data-collection-configure):
the ``ContainerInsights`` extension data source in a data collection rule, ContainerLogV2,
namespace filtering in its ``dataCollectionSettings``, to a Log Analytics workspace.

Control-plane logs: diagnostic settings on the managed cluster
(https://learn.microsoft.com/azure/aks/monitor-aks-reference#resource-logs).
"""

from __future__ import annotations

PROMETHEUS_STREAM = "Microsoft-PrometheusMetrics"
PROMETHEUS_DATA_SOURCE = "PrometheusDataSource"
MONITORING_ACCOUNT = "MonitoringAccount1"
"""The destination name the onboarding template gives the Azure Monitor workspace."""
DCR_KIND = "Linux"

CONTAINER_INSIGHTS_EXTENSION = "ContainerInsights"
CONTAINER_INSIGHTS_DATA_SOURCE = "ContainerInsightsExtension"
CONTAINER_INSIGHTS_ASSOCIATION = "ContainerInsightsExtension"
"""The association name Container insights looks for on the cluster."""
CONTAINER_INSIGHTS_STREAMS: tuple[str, ...] = (
    "Microsoft-ContainerLogV2",
    "Microsoft-KubeEvents",
    "Microsoft-KubePodInventory",
)
"""Container stdout/stderr with pod and namespace (ContainerLogV2), Kubernetes events, pods."""
LOG_ANALYTICS_DESTINATION = "ciworkspace"
MONITORING_ADDON = "omsagent"
"""The AKS add-on that runs the Container insights agent (``addonProfiles.omsagent``; checkov
CKV_AZURE_4 reads it as "AKS logging to Azure Monitoring")."""
COLLECTION_INTERVAL = "1m"

AUDIT_LOG_CATEGORIES: tuple[str, ...] = ("kube-audit-admin", "guard")
"""Control-plane audit: every write to the API server (``kube-audit-admin``; ``kube-audit``
adds every read, at many times the volume and cost) and Entra ID / Azure RBAC decisions
(``guard``)."""
CONTROL_PLANE_LOG_CATEGORIES: tuple[str, ...] = ("kube-apiserver", "kube-controller-manager")
LOG_ANALYTICS_SKU = "PerGB2018"
MIN_RETENTION_DAYS = 30
"""Log Analytics keeps 30 days at no retention charge on the analytics plan."""
MAX_RETENTION_DAYS = 730


def iso_duration(prometheus_duration: str) -> str:
    """A Prometheus duration (``1m``, ``10m``, ``1h``, ``0m``) as the ISO 8601 one Azure
    Prometheus rule groups take (``PT1M``)."""
    value, unit = prometheus_duration[:-1], prometheus_duration[-1]
    if not value.isdigit() or unit not in "smh":
        raise ValueError(f"not a Prometheus duration of s, m or h: {prometheus_duration!r}")
    return f"PT{int(value)}{unit.upper()}"


# Azure Managed Grafana (Microsoft.Dashboard/grafana, API 2024-10-01 in pulumi-azure-native 3):
# Microsoft's managed-Prometheus onboarding links Grafana to the Azure Monitor workspace through
# ``grafanaIntegrations.azureMonitorWorkspaceIntegrations`` and gives Grafana's system-assigned
# identity "Monitoring Data Reader" on the workspace
# (https://learn.microsoft.com/azure/azure-monitor/containers/kubernetes-monitoring-enable).
GRAFANA_SKU = "Standard"
"""The tier with an SLA and Entra ID team sync; ``Essential`` has neither (pricing: Azure
Managed Grafana, per instance-hour plus per active user)."""
MONITORING_DATA_READER_ROLE = "b0d8363b-8ddd-447d-831f-62ca05bff136"
"""Built-in role "Monitoring Data Reader": read an Azure Monitor workspace's metrics. Source:
Microsoft Learn, Azure built-in roles for Monitor
(learn.microsoft.com/azure/role-based-access-control/built-in-roles/monitor)."""
GRAFANA_ADMIN_ROLE = "22926164-76b3-42b3-bc55-97df8dab3e41"
"""Built-in role "Grafana Admin": every Grafana operation in the instance (data sources,
dashboards, Grafana role assignments). Same source."""
GRAFANA_NAME_PATTERN = r"^[a-zA-Z][a-zA-Z0-9-]{0,21}[a-zA-Z0-9]$"
"""An Azure Managed Grafana workspace name: 2 to 23 letters, digits and hyphens, starting with
a letter and ending with a letter or digit (Azure resource naming rules, Microsoft.Dashboard)."""


def role_definition_id(subscription_id: str, role: str) -> str:
    """A built-in role's definition ID in a subscription, the form Azure returns on read (a
    tenant-level ``/providers/...`` ID would show as a change on every refresh)."""
    return (
        f"/subscriptions/{subscription_id}/providers/Microsoft.Authorization/roleDefinitions/{role}"
    )


AZURE_MONITOR_SCRAPER_NAMESPACE = "kube-system"
"""Where AKS runs the managed-Prometheus collector (``ama-metrics``)."""
AZURE_MONITOR_SERVICE_ACCOUNT = f"{AZURE_MONITOR_SCRAPER_NAMESPACE}/ama-metrics-serviceaccount"
"""The collector's service account (Azure/prometheus-collector: its chart's
``ama-metrics-serviceAccount.yaml``), the token it scrapes with."""
