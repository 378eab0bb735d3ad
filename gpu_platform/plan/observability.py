"""What the observability settings mean on each cloud: which exporter, how it is scraped,
which namespaces' logs are collected and where, what kube-state-metrics must expose for the
rules, and the Grafana workspace; and the rules of those settings (``metrics_problems``,
``log_store_problems``, ``grafana_problems``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from gpu_facts.ack.addons import LOGSTORE_NAME_MAX, LOGSTORE_NAME_MIN
from gpu_facts.aks.monitor import GRAFANA_NAME_PATTERN, MAX_RETENTION_DAYS, MIN_RETENTION_DAYS
from gpu_facts.name_rules import DNS1123_LABEL
from gpu_facts.nvidia.dcgm_exporter_chart import DRA_ATTRIBUTION_MIN_VERSION
from gpu_facts.scheduling import ALIYUN_GPU_MEM, POOL_LABEL, WORKLOAD_TYPE_LABEL
from gpu_platform.settings import PlatformSettings

from .clouds import cloud_plan
from .metrics import (
    ScrapeMode,
    ack_shared_pools,
    dra_exporter_pools,
    exporter_pools,
    exporter_problems,
    exporter_values,
    reads_resource_slices,
)
from .platform import ResolvedPlatform
from .problems import Problem

KSM_LABELS_ALLOWLIST = f"namespaces=[{WORKLOAD_TYPE_LABEL}],nodes=[{POOL_LABEL}]"
"""kube-state-metrics labels the GPU rules join on: a namespace's workload type, a node's pool
(``--metric-labels-allowlist``; AKS: ``azureMonitorProfile.metrics.kubeStateMetrics``)."""


def retention_days_problems(days: object) -> list[Problem]:
    """A Log Analytics workspace's retention (``retentionDays``): a whole number of days, from
    ``MIN_RETENTION_DAYS`` to ``MAX_RETENTION_DAYS`` (the stack config's ``LogsSettings``
    holds the same bounds); the path is the value's own (``""``)."""
    if isinstance(days, bool) or not isinstance(days, int):
        return [("", f"a whole number of days, not {str(days)[:40]!r}")]
    if not MIN_RETENTION_DAYS <= days <= MAX_RETENTION_DAYS:
        return [("", f"{MIN_RETENTION_DAYS} to {MAX_RETENTION_DAYS}, not {days}")]
    return []


@dataclass(frozen=True, slots=True)
class MetricsPlan:
    """How GPU metrics reach a Prometheus on this platform."""

    our_exporter: bool
    """Install our dcgm-exporter (the GPU Operator brings its own; no plugin pool, no GPUs)."""
    scrape: ScrapeMode
    scraper_namespaces: tuple[str, ...]
    azure_monitor: bool
    """AKS managed Prometheus: workspace, collection rule, GPU rule groups."""
    prometheus_rules: bool
    """A PrometheusRule with the GPU rules for the Prometheus Operator."""
    arms_prometheus: bool = False
    """ACK managed Prometheus: the ``arms-prometheus`` add-on, the GPU alerts as ARMS rules."""


def metrics_plan(platform: ResolvedPlatform) -> MetricsPlan | None:
    """None when metrics are off."""
    settings = platform.settings
    metrics = settings.observability.metrics
    if not metrics.enabled:
        return None
    pools = list(platform.pools.values())
    our_exporter = not settings.gpu_operator.enabled and bool(exporter_pools(pools))
    scrapers = list(metrics.scraper_namespaces)
    managed = cloud_plan(settings.cloud).managed_metrics
    if managed is not None and metrics.scrape == "auto":  # the cloud's managed Prometheus
        if managed.scraper_namespace not in scrapers:
            scrapers.append(managed.scraper_namespace)
        return MetricsPlan(
            our_exporter,
            managed.scrape,
            tuple(scrapers),
            managed.azure_monitor,
            False,
            arms_prometheus=managed.arms_prometheus,
        )
    scrape: ScrapeMode = "serviceMonitor" if metrics.scrape == "serviceMonitor" else "annotations"
    return MetricsPlan(
        our_exporter, scrape, tuple(scrapers), False, prometheus_rules=scrape == "serviceMonitor"
    )


def unattributed_gpu_pools(platform: ResolvedPlatform) -> list[str]:
    """Pools our exporter watches but whose pods it cannot name: ACK's own sharing serves them
    (``aliyun.com/gpu-mem``; ``gpu_facts.nvidia.dcgm_exporter_chart.UNATTRIBUTABLE_RESOURCES``)."""
    plan = metrics_plan(platform)
    if plan is None or not plan.our_exporter:
        return []
    return sorted(pf.name for pf in ack_shared_pools(list(platform.pools.values())))


def unattributed_dra_pools(platform: ResolvedPlatform) -> list[str]:
    """DRA pools our exporter watches but whose claimed devices it does not attribute to pods:
    its version cannot read ``resource.k8s.io/v1`` ResourceSlices and the user's values do not
    turn attribution on either (docs/dra.md, "Observability")."""
    plan = metrics_plan(platform)
    if plan is None or not plan.our_exporter:
        return []
    pools = list(platform.pools.values())
    metrics = platform.settings.observability.metrics
    values = exporter_values(pools, plan.scrape, metrics.values, metrics.exporter_version)
    if reads_resource_slices(values):
        return []
    return sorted(pf.name for pf in dra_exporter_pools(pools))


def unattributed_dra_warning(pools: list[str], version: str) -> str:
    return (
        f"GPU metrics: DRA pools {', '.join(pools)}: dcgm-exporter {version} exports each claimed "
        f"GPU and MIG device, but names no pod holding one: it reads ResourceSlices as "
        f"resource.k8s.io/v1beta1, which Kubernetes 1.34+ does not serve; from exporter "
        f"{DRA_ATTRIBUTION_MIN_VERSION} the platform turns attribution on (docs/dra.md)"
    )


def unattributed_warning(pools: list[str]) -> str:
    return (
        f"GPU metrics: pools {', '.join(pools)} use ACK's GPU sharing; our exporter watches their "
        f"GPUs (health, temperature, XID, utilization), but cannot name the pods holding "
        f"{ALIYUN_GPU_MEM} there: their GPU use counts in no namespace (docs/observability.md)"
    )


def log_namespaces(platform: ResolvedPlatform) -> list[str]:
    """The namespaces whose container logs are collected: configured, else the workloads'."""
    configured = platform.settings.observability.logs.namespaces
    if configured is not None:
        return sorted(configured)
    return sorted(w.name for w in platform.settings.workloads)


LOGSTORE_SUFFIX = "-stdout"


def logstore_name(namespace: str) -> str:
    """The SLS logstore of one namespace's container stdout and stderr (ACK)."""
    return f"{namespace}{LOGSTORE_SUFFIX}"


def logstore_name_problem(namespace: str) -> str | None:
    """Why a namespace's logstore name would be refused by SLS, or None. A namespace name (an
    RFC 1123 label) is a valid logstore name but for its length."""
    if not DNS1123_LABEL.matches(namespace):
        return f"{namespace!r} is not a namespace name (lowercase letters, digits, hyphens)"
    name = logstore_name(namespace)
    if not LOGSTORE_NAME_MIN <= len(name) <= LOGSTORE_NAME_MAX:
        return (
            f"its logstore {name!r} must be {LOGSTORE_NAME_MIN} to {LOGSTORE_NAME_MAX} "
            f"characters: use a namespace of at most {LOGSTORE_NAME_MAX - len(LOGSTORE_SUFFIX)}"
        )
    return None


GRAFANA_SUFFIX = "-grafana"


def grafana_name(settings: PlatformSettings) -> str:
    """The Azure Managed Grafana workspace name: configured, else ``<cluster name>-grafana``."""
    configured = settings.observability.grafana.name
    return configured if configured is not None else settings.cluster.name + GRAFANA_SUFFIX


def metrics_problems(settings: PlatformSettings) -> Iterator[Problem]:
    """The exporter's chart version and values, and the scrape path the cloud takes (paths from
    the config's root)."""
    metrics = settings.observability.metrics
    at = "observability.metrics"
    for key, message in exporter_problems(metrics.exporter_version, metrics.values):
        yield f"{at}.{'exporterVersion' if key == 'version' else key}", message
    if (
        metrics.scrape == "serviceMonitor"
        and cloud_plan(settings.cloud).managed_metrics is not None
    ):
        yield (
            f"{at}.scrape",
            "serviceMonitor is for an existing cluster running the Prometheus Operator; on "
            f"cloud '{settings.cloud}' leave it at auto (the cloud's managed Prometheus)",
        )


def log_store_problems(settings: PlatformSettings) -> Iterator[Problem]:
    """Where each collected namespace gets a log store of its own, named after it (ACK's SLS
    logstores), a name the store takes; paths from the config's root."""
    logs = settings.observability.logs
    store_problem = cloud_plan(settings.cloud).logstore_name_problem
    if store_problem is None or not logs.enabled:
        return
    if logs.namespaces is not None:
        named = [
            (f"observability.logs.namespaces[{i}]", ns) for i, ns in enumerate(logs.namespaces)
        ]
    else:
        named = [(f"workloads[{i}].name", w.name) for i, w in enumerate(settings.workloads)]
    for at, namespace in named:
        problem = store_problem(namespace)
        if problem is not None:
            yield at, f"container logs go to SLS: {problem}"


def grafana_problems(settings: PlatformSettings) -> Iterator[Problem]:
    """Azure Managed Grafana reads the AKS cluster's Azure Monitor workspace; paths from the
    config's root."""
    observability = settings.observability
    if not observability.grafana.enabled:
        return
    at = "observability.grafana"
    plan = cloud_plan(settings.cloud)
    if not plan.managed_grafana:
        other = plan.own_grafana
        yield (
            f"{at}.enabled",
            f"Azure Managed Grafana is for AKS, not cloud '{settings.cloud}': {other}",
        )
        return
    metrics = observability.metrics
    if not metrics.enabled or metrics.scrape != "auto":
        yield (
            f"{at}.enabled",
            "Grafana reads the Azure Monitor workspace, which exists only with "
            "observability.metrics.enabled and scrape auto",
        )
    name = grafana_name(settings)
    if not re.match(GRAFANA_NAME_PATTERN, name):
        yield (
            f"{at}.name",
            f"{name!r} is not a Grafana workspace name (2 to 23 letters, digits and hyphens, "
            "starting with a letter): set observability.grafana.name",
        )
