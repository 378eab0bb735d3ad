"""Rules of each GPU pool: machine type, size, MIG, sharing, NVMe, labels (``plan.gpu_pools``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from gpu_platform.plan.dra_pools import dra_cluster_problems, dra_pool_problems
from gpu_platform.plan.gpu_pools import (
    cluster_sharing_problems,
    label_problems,
    machine_problems,
    mig_problems,
    nvme_problems,
    sharing_problems,
)
from gpu_platform.plan.node_pools import pool_name_problems, size_problems
from gpu_platform.plan.problems import under
from gpu_platform.settings import GpuPoolSettings

from .base import ConfigUnderRules, Problem, Rule

# Each pool rule asks plan.gpu_pools (the components ask the same) and puts the paths under the
# pool's place in the config.


def _pool_machine(cfg: ConfigUnderRules, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    yield from under(at, machine_problems(cfg.cloud, pool))


def _pool_size(cfg: ConfigUnderRules, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    yield from under(at, size_problems(pool.count, pool.autoscale))


def _pool_mig(cfg: ConfigUnderRules, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    yield from under(at, mig_problems(cfg.cloud, pool))


def _pool_sharing(cfg: ConfigUnderRules, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    """The pool's own sharing rules, then what sharing needs of the cluster (ACK Pro for ACK's
    own modes, the device plugin's version for MPS)."""
    yield from under(at, sharing_problems(cfg.cloud, pool))
    yield from cluster_sharing_problems(cfg.settings, pool)


def _pool_nvme(cfg: ConfigUnderRules, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    yield from under(at, nvme_problems(cfg.cloud, pool))


def pool_labels(cfg: ConfigUnderRules, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    """Labels the platform sets itself (on every cloud), and AKS's own label domain."""
    yield from under(at, label_problems(cfg.cloud, pool))


def _pool_dra(cfg: ConfigUnderRules, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    yield from under(at, dra_pool_problems(cfg.cloud, pool))


def dra_cluster(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """What DRA pools need of the cluster and the GPU layer (``plan.dra_pools``)."""
    yield from dra_cluster_problems(cfg.settings)


PoolRule = Callable[[ConfigUnderRules, str, GpuPoolSettings], Iterator[Problem]]
"""A rule of one pool: the config, the pool's key path and its settings."""


def per_pool(pool_rule: PoolRule) -> Rule:
    """A rule that runs a one-pool rule on each pool under the rules."""

    def rule(cfg: ConfigUnderRules) -> Iterator[Problem]:
        for i, pool in cfg.pools:
            yield from pool_rule(cfg, f"gpuPools[{i}]", pool)

    rule.__name__ = rule.__qualname__ = pool_rule.__name__.lstrip("_")
    rule.__module__ = pool_rule.__module__  # named where its pool rule is
    return rule


def duplicate_names(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """Pool names are unique across GPU and CPU pools."""
    yield from pool_name_problems(cfg.settings)


POOL_RULES: tuple[Rule, ...] = tuple(
    per_pool(pool_rule)
    for pool_rule in (
        _pool_machine,
        _pool_size,
        _pool_mig,
        _pool_sharing,
        _pool_nvme,
        pool_labels,
        _pool_dra,
    )
)
"""Rules of one pool each: a pool they find no problem in is sound, and resolved."""
