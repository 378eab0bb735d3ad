"""Rules of the observability settings: the exporter chart, its values, the scrape path."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_facts.dcgm_exporter_chart import MIN_VERSION
from gpu_facts.device_plugin_chart import at_least
from plan.metrics import value_problems

from .base import ConfigUnderCheck, Problem, Rule, valid_version


def metrics(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    settings = cfg.settings.observability.metrics
    at = "observability.metrics"
    version = settings.exporter_version
    if not valid_version(version):
        yield f"{at}.exporterVersion", f"not a chart version: {version!r}"
    elif not at_least(version, MIN_VERSION):
        yield f"{at}.exporterVersion", f"{version} is older than {MIN_VERSION}"
    for path, message in value_problems(settings.values):
        yield f"{at}.values.{path}", message
    if settings.scrape == "serviceMonitor" and cfg.cloud != "existing":
        yield (
            f"{at}.scrape",
            "serviceMonitor is for an existing cluster running the Prometheus Operator; on "
            f"cloud '{cfg.cloud}' leave it at auto (the cloud's managed Prometheus)",
        )


RULES: tuple[Rule, ...] = (metrics,)
