"""Observability settings: metrics, logs, Grafana (settings.observability)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_platform.settings.observability import LogsSettings, MetricsSettings, ObservabilitySettings


def test_defaults_collect_metrics_and_logs_without_grafana() -> None:
    settings = ObservabilitySettings()
    assert settings.metrics.enabled and settings.metrics.scrape == "auto"
    assert settings.logs.enabled and settings.logs.audit and settings.logs.retention_days == 30
    assert not settings.grafana.enabled


@pytest.mark.parametrize("days", [29, 731])
def test_retention_is_what_the_workspaces_take(days: int) -> None:
    with pytest.raises(ValidationError):
        LogsSettings(retention_days=days)


def test_scrape_is_one_of_three() -> None:
    with pytest.raises(ValidationError):
        MetricsSettings.model_validate({"scrape": "pull"})
