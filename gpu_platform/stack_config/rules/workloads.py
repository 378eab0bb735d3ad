"""Rules of workload namespaces: names, pools, GPU quota keys, and each namespace's own
settings next to its pools (``plan.namespaces``)."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.namespaces import (
    workload_duplicate_problems,
    workload_isolation_problems,
    workload_name_problems,
)

from .base import ConfigUnderRules, Problem, Rule


def duplicate_names(cfg: ConfigUnderRules) -> Iterator[Problem]:
    yield from workload_duplicate_problems(cfg.settings)


def workloads(cfg: ConfigUnderRules) -> Iterator[Problem]:
    # Claims of what no pool has read the pools missing from sound_pools (follow_on).
    yield from workload_name_problems(cfg.settings, cfg.sound_pools)


def workload_isolation(cfg: ConfigUnderRules) -> Iterator[Problem]:
    yield from workload_isolation_problems(cfg.settings, cfg.sound_pools)


RULES: tuple[Rule, ...] = (duplicate_names, workloads, workload_isolation)
