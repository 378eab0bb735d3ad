"""Observability settings: GPU metrics per workload, container logs and control-plane audit."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt

from gpu_facts.aks.monitor import MAX_RETENTION_DAYS, MIN_RETENTION_DAYS
from gpu_facts.nvidia.dcgm_exporter_chart import DEFAULT_NAMESPACE, DEFAULT_VERSION

from .base import DnsLabel, SettingsModel


class MetricsSettings(SettingsModel):
    enabled: StrictBool = True
    """GPU metrics: NVIDIA's dcgm-exporter on every GPU node the device plugin serves (with
    the GPU Operator on, the operator's own exporter), every GPU attributed to its pod."""
    exporter_version: str = DEFAULT_VERSION
    """dcgm-exporter chart version, 4.0.0 or newer."""
    namespace: DnsLabel = DEFAULT_NAMESPACE
    """Namespace of the exporter (deny-all but the scrape)."""
    scrape: Literal["auto", "annotations", "serviceMonitor"] = "auto"
    """How the exporter is scraped. ``auto``: on AKS, Azure Monitor managed Prometheus (an
    Azure Monitor workspace and an ``azmonitoring.coreos.com`` PodMonitor); on ACK, Managed
    Service for Prometheus (the ``arms-prometheus`` add-on, a PodMonitor it discovers, the GPU
    alerts as ARMS alert rules); on an existing cluster, ``prometheus.io/*`` pod annotations.
    ``annotations`` anywhere: your own Prometheus. ``serviceMonitor``: the Prometheus
    Operator's ServiceMonitor and a PrometheusRule with the GPU rules (existing clusters that
    run it)."""
    scraper_namespaces: list[DnsLabel] = Field(default_factory=list)
    """Namespaces whose pods may scrape the exporter (on AKS, ``kube-system`` is always let in)."""
    values: dict[str, object] = Field(default_factory=dict)
    """Extra dcgm-exporter chart values, merged over ours."""


class LogsSettings(SettingsModel):
    enabled: StrictBool = True
    """Container stdout and stderr of the chosen namespaces: on AKS to a Log Analytics workspace
    (ContainerLogV2); on ACK to Simple Log Service, one logstore per namespace (the
    ``logtail-ds`` add-on and an ``AliyunLogConfig`` per namespace)."""
    retention_days: Annotated[StrictInt, Field(ge=MIN_RETENTION_DAYS, le=MAX_RETENTION_DAYS)] = (
        MIN_RETENTION_DAYS
    )
    """How long logs are kept, 30 to 730 days: the Log Analytics workspace (logs and audit;
    past 30 costs extra), or each SLS logstore on ACK."""
    namespaces: list[DnsLabel] | None = None
    """Namespaces whose container logs are collected; unset: the workload namespaces."""
    audit: StrictBool = True
    """AKS: control-plane audit logs (writes and Entra ID decisions) to the same workspace.
    (ACK: ``cluster.auditLog`` sends API-server audit to SLS.)"""


class GrafanaSettings(SettingsModel):
    enabled: StrictBool = False
    """AKS: an Azure Managed Grafana (Standard) reading the Azure Monitor workspace, its
    identity a "Monitoring Data Reader" there, and "Grafana Admin" for the cluster's
    ``entraId.adminGroupObjectIds``. Billed per instance-hour and active user
    (docs/observability.md); needs metrics through Azure Monitor."""
    name: str | None = None
    """Grafana workspace name, 2 to 23 letters, digits and hyphens; unset:
    ``<cluster name>-grafana``."""


class ObservabilitySettings(SettingsModel):
    metrics: MetricsSettings = Field(default_factory=MetricsSettings)
    """GPU metrics, rules, alerts and the dashboard."""
    logs: LogsSettings = Field(default_factory=LogsSettings)
    """Container logs and control-plane audit."""
    grafana: GrafanaSettings = Field(default_factory=GrafanaSettings)
    """Dashboards: Azure Managed Grafana linked to the metrics (AKS, optional)."""
