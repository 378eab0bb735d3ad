"""Rules that span fields or consult the GPU catalog, split by concern. Every rule has one
signature (``Rule``: the config under the rules in, problems with key paths out), and ``validate``
finds every problem at once so one error can name them all, less the ones that follow from
another (``follow_on``). Resolving a valid config is its own step: ``plan.resolve_platform``."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import cast

from gpu_platform.plan.pools import PoolFacts, resolve_pool
from gpu_platform.settings import GpuPoolSettings, PlatformSettings

from . import (
    ack,
    aks,
    amd,
    cloud_values,
    clusters,
    cpu_pools,
    gpu_layer,
    limits,
    observability,
    pools,
    queues,
    workloads,
)
from .base import ConfigUnderRules, Problem, Rule
from .follow_on import (
    Found,
    ReadLog,
    Recorded,
    RecordedMapping,
    UnsoundPart,
    run_recorded,
    without_consequences,
)

POOL_RULES: tuple[Rule, ...] = (*pools.POOL_RULES, *aks.POOL_RULES, *amd.POOL_RULES)
"""Rules of each pool on its own; a pool none of them faults is sound."""
RULES: tuple[Rule, ...] = (
    *clusters.RULES,
    *limits.RULES,
    *aks.RULES,
    *ack.RULES,
    *cpu_pools.RULES,
    *cloud_values.RULES,
    pools.duplicate_names,
    pools.dra_cluster,
    *gpu_layer.RULES,
    *amd.RULES,
    *workloads.RULES,
    *observability.RULES,
    *queues.RULES,
)
"""Rules of the whole config; those that look across pools judge the sound ones."""


def validate(
    settings: PlatformSettings,
    pool_positions: Sequence[int] | None = None,
    *,
    refused: Collection[str] = (),
    refused_pools: Sequence[int] = (),
) -> list[Problem]:
    """Every problem of the settings, each once, in rule order, less the consequences of
    another problem (``follow_on``).

    When the schema refused parts of the config, ``settings`` holds the rest: ``refused`` names
    the top-level fields it refused (a rule that reads one stops there), ``pool_positions`` gives
    each GPU pool's position in the user's list and ``refused_pools`` the positions of the pools
    it refused.
    """
    return validate_and_resolve(
        settings, pool_positions, refused=refused, refused_pools=refused_pools
    )[0]


def validate_and_resolve(
    settings: PlatformSettings,
    pool_positions: Sequence[int] | None = None,
    *,
    refused: Collection[str] = (),
    refused_pools: Sequence[int] = (),
) -> tuple[list[Problem], dict[str, PoolFacts]]:
    """``validate``, and the facts of every sound pool (those its own rules find no problem in):
    the rules across pools judge them, and a config without problems is resolved from them
    (``plan.resolve_platform``), so each pool is resolved once."""
    default = range(len(settings.gpu_pools))
    positions = list(pool_positions if pool_positions is not None else default)
    if not refused and not refused_pools:
        found, sound = _run(settings, positions, (), None)
        if not found:
            return [], sound  # the common case, validated without recording reads
    missing = [f"gpuPools[{i}]" for i in refused_pools]
    found, sound = _run(settings, positions, missing, ReadLog(), refused)
    return without_consequences(found), sound


def _run(
    settings: PlatformSettings,
    positions: Sequence[int],
    missing: Sequence[str],
    log: ReadLog | None,
    refused: Collection[str] = (),
) -> tuple[list[Found], dict[str, PoolFacts]]:
    """Run the pool rules on each pool, then the rules of the whole config; with a ``log``,
    over recorded views, each problem with what its rule had read. A pool its rules fault, or
    whose rules could not all run (they read a part the schema refused), is not sound; each
    sound pool is resolved here, once."""
    pool_paths = [f"gpuPools[{i}]" for i in positions]

    def view(model: GpuPoolSettings, path: str) -> GpuPoolSettings:
        return model if log is None else cast(GpuPoolSettings, Recorded(model, path, log))

    root = settings
    if log is not None:
        items = {"gpu_pools": (pool_paths, missing)}
        root = cast(PlatformSettings, Recorded(settings, "", log, refused, items))
    pairs = [
        (i, view(pool, path))
        for i, pool, path in zip(positions, settings.gpu_pools, pool_paths, strict=True)
    ]
    subject = ConfigUnderRules(root, pairs)
    found: list[Found] = []
    sound: dict[str, PoolFacts] = {}
    unsound = list(missing)
    for pair, pool, path in zip(pairs, settings.gpu_pools, pool_paths, strict=True):
        pool_found, judged = _apply(POOL_RULES, subject.with_pools([pair]), log)
        found.extend(pool_found)
        if pool_found or not judged:
            unsound.append(path)
        else:
            sound[pool.name] = resolve_pool(settings.cloud, pool)
    facts = sound if log is None else RecordedMapping(sound, unsound, log)
    whole = ConfigUnderRules(root, pairs, facts, all_pools_sound=not unsound)
    whole_found, _ = _apply(RULES, whole, log, len(POOL_RULES))
    return found + whole_found, sound


def _apply(
    rules: Sequence[Rule], cfg: ConfigUnderRules, log: ReadLog | None, first_id: int = 0
) -> tuple[list[Found], bool]:
    """Every rule on ``cfg`` (numbered from ``first_id``); False when one of them read a part
    the schema refused."""
    found: list[Found] = []
    judged = True
    for rule_id, rule in enumerate(rules, first_id):
        if log is None:
            found.extend(Found(problem) for problem in rule(cfg))
            continue
        rule_found, complete = run_recorded(lambda rule=rule: rule(cfg), log, rule_id)
        found.extend(rule_found)
        judged = judged and complete
    return found, judged


__all__ = [
    "POOL_RULES",
    "RULES",
    "ConfigUnderRules",
    "Problem",
    "Rule",
    "UnsoundPart",
    "validate",
    "validate_and_resolve",
]
