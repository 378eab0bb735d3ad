"""Rules of the observability settings: the exporter chart, its values, the scrape path, the
SLS logstores on ACK, Azure Managed Grafana (``plan.observability``)."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.observability import grafana_problems, log_store_problems, metrics_problems

from .base import ConfigUnderRules, Problem, Rule


def metrics(cfg: ConfigUnderRules) -> Iterator[Problem]:
    yield from metrics_problems(cfg.settings)


def ack_logs(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """On ACK each collected namespace gets its own SLS logstore, named after it."""
    yield from log_store_problems(cfg.settings)


def grafana(cfg: ConfigUnderRules) -> Iterator[Problem]:
    yield from grafana_problems(cfg.settings)


RULES: tuple[Rule, ...] = (metrics, ack_logs, grafana)
