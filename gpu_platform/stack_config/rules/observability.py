"""Rules of the observability settings: the exporter chart, its values, the scrape path, the
SLS logstores on ACK, Azure Managed Grafana."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpu_facts.aks.monitor import GRAFANA_NAME_PATTERN
from gpu_platform.plan.clouds import cloud_plan
from gpu_platform.plan.metrics import exporter_problems
from gpu_platform.plan.observability import grafana_name

from .base import ConfigUnderCheck, Problem, Rule


def metrics(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    settings = cfg.settings.observability.metrics
    at = "observability.metrics"
    for key, message in exporter_problems(settings.exporter_version, settings.values):
        yield f"{at}.{'exporterVersion' if key == 'version' else key}", message
    if settings.scrape == "serviceMonitor" and cloud_plan(cfg.cloud).managed_metrics is not None:
        yield (
            f"{at}.scrape",
            "serviceMonitor is for an existing cluster running the Prometheus Operator; on "
            f"cloud '{cfg.cloud}' leave it at auto (the cloud's managed Prometheus)",
        )


def ack_logs(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """On ACK each collected namespace gets its own SLS logstore, named after it."""
    logs = cfg.settings.observability.logs
    logstore_name_problem = cloud_plan(cfg.cloud).logstore_name_problem
    if logstore_name_problem is None or not logs.enabled:
        return
    if logs.namespaces is not None:
        named = [
            (f"observability.logs.namespaces[{i}]", ns) for i, ns in enumerate(logs.namespaces)
        ]
    else:
        named = [(f"workloads[{i}].name", w.name) for i, w in enumerate(cfg.settings.workloads)]
    for at, namespace in named:
        problem = logstore_name_problem(namespace)
        if problem is not None:
            yield at, f"container logs go to SLS: {problem}"


def grafana(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """Azure Managed Grafana reads the AKS cluster's Azure Monitor workspace."""
    observability = cfg.settings.observability
    if not observability.grafana.enabled:
        return
    at = "observability.grafana"
    plan = cloud_plan(cfg.cloud)
    if not plan.managed_grafana:
        other = plan.own_grafana
        yield f"{at}.enabled", f"Azure Managed Grafana is for AKS, not cloud '{cfg.cloud}': {other}"
        return
    metrics = observability.metrics
    if not metrics.enabled or metrics.scrape != "auto":
        yield (
            f"{at}.enabled",
            "Grafana reads the Azure Monitor workspace, which exists only with "
            "observability.metrics.enabled and scrape auto",
        )
    name = grafana_name(cfg.settings)
    if not re.match(GRAFANA_NAME_PATTERN, name):
        yield (
            f"{at}.name",
            f"{name!r} is not a Grafana workspace name (2 to 23 letters, digits and hyphens, "
            "starting with a letter): set observability.grafana.name",
        )


RULES: tuple[Rule, ...] = (metrics, ack_logs, grafana)
