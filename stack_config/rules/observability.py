"""Rules of the observability settings: the exporter chart, its values, the scrape path."""

from __future__ import annotations

from collections.abc import Iterator

from plan.metrics import exporter_problems

from .base import ConfigUnderCheck, Problem, Rule


def metrics(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    settings = cfg.settings.observability.metrics
    at = "observability.metrics"
    for key, message in exporter_problems(settings.exporter_version, settings.values):
        yield f"{at}.{'exporterVersion' if key == 'version' else key}", message
    if settings.scrape == "serviceMonitor" and cfg.cloud != "existing":
        yield (
            f"{at}.scrape",
            "serviceMonitor is for an existing cluster running the Prometheus Operator; on "
            f"cloud '{cfg.cloud}' leave it at auto (the cloud's managed Prometheus)",
        )


RULES: tuple[Rule, ...] = (metrics,)
