"""Rules that span fields or consult the GPU catalog, split by concern. Every rule has one
signature (``Rule``: the config under check in, problems with key paths out), and ``check``
finds every problem at once so one error can name them all. Resolving a valid config is its
own step: ``plan.resolve_platform``."""

from __future__ import annotations

from collections.abc import Sequence

from gpu_platform.plan.pools import PoolFacts, resolve_pool
from gpu_platform.settings import PlatformSettings

from . import ack, aks, clusters, cpu_pools, gpu_layer, limits, observability, pools, workloads
from .base import ConfigUnderCheck, Problem, Rule

POOL_RULES: tuple[Rule, ...] = (*pools.POOL_RULES, *aks.POOL_RULES)
"""Rules of each pool on its own; a pool none of them faults is sound."""
RULES: tuple[Rule, ...] = (
    *clusters.RULES,
    *limits.RULES,
    *aks.RULES,
    *ack.RULES,
    *cpu_pools.RULES,
    pools.duplicate_names,
    *gpu_layer.RULES,
    *workloads.RULES,
    *observability.RULES,
)
"""Rules of the whole config; those that look across pools judge the sound ones."""


def check(settings: PlatformSettings, pool_positions: Sequence[int] | None = None) -> list[Problem]:
    """Every problem of the settings, each once, in rule order.

    ``pool_positions`` gives each pool's position in the user's list when ``settings`` holds
    only the pools that passed structural validation (so paths still point at the right item).
    """
    return check_and_resolve(settings, pool_positions)[0]


def check_and_resolve(
    settings: PlatformSettings, pool_positions: Sequence[int] | None = None
) -> tuple[list[Problem], dict[str, PoolFacts]]:
    """``check``, and the facts of every sound pool (those its own rules find no problem in):
    the rules across pools judge them, and a config without problems is resolved from them
    (``plan.resolve_platform``), so each pool is resolved once."""
    positions = pool_positions if pool_positions is not None else range(len(settings.gpu_pools))
    subject = ConfigUnderCheck(settings, list(zip(positions, settings.gpu_pools, strict=True)))
    problems: list[Problem] = []
    sound: dict[str, PoolFacts] = {}
    for i, pool in subject.pools:
        one = subject.with_pools([(i, pool)])
        pool_problems = [p for rule in POOL_RULES for p in rule(one)]
        problems.extend(pool_problems)
        if not pool_problems:
            sound[pool.name] = resolve_pool(settings.cloud, pool)
    whole = ConfigUnderCheck(settings, subject.pools, sound)
    for rule in RULES:
        problems.extend(rule(whole))
    return list(dict.fromkeys(problems)), sound


__all__ = [
    "POOL_RULES",
    "RULES",
    "ConfigUnderCheck",
    "Problem",
    "Rule",
    "check",
    "check_and_resolve",
]
