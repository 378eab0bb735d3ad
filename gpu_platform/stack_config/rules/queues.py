"""Rules of the queues section: Kueue's chart version, the types it names, and what one
ClusterQueue can cover (``plan.queues.queue_problems``), under ``queues``."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.problems import under

from .base import ConfigUnderRules, Problem, Rule


def queues(cfg: ConfigUnderRules) -> Iterator[Problem]:
    settings = cfg.settings.queues
    if settings is None:
        return
    # A stack without queues does not import them.
    from gpu_platform.plan.queues import queue_problems

    problems = queue_problems(settings, cfg.sound_pools.values(), cfg.settings.workloads)
    yield from under("queues", problems)


RULES: tuple[Rule, ...] = (queues,)
