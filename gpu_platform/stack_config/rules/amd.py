"""Rules of AMD GPU pools and the AMD GPU layer; the rules themselves are ``plan.amd.pools``."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.amd.pools import amd_layer_problems, amd_pool_problems
from gpu_platform.plan.problems import join_path
from gpu_platform.settings import GpuPoolSettings

from .base import ConfigUnderRules, Problem, Rule
from .pools import per_pool


def _pool_amd(cfg: ConfigUnderRules, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    for path, message in amd_pool_problems(cfg.cloud, pool):
        yield join_path(at, path), message


def amd_layer(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """The operator's driver image and namespaces, once a pool has an AMD size."""
    settings = cfg.settings
    pools = [pool for _, pool in cfg.pools]
    for path, message in amd_layer_problems(cfg.cloud, settings.amd_gpu_operator, pools):
        yield join_path("amdGpuOperator", path), message


POOL_RULES: tuple[Rule, ...] = (per_pool(_pool_amd),)
RULES: tuple[Rule, ...] = (amd_layer,)
