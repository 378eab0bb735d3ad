"""Rules of AKS clusters and their pools: Entra ID, the API server, upgrade surge, and the node
hardening every pool the platform creates shares (pods per node, OS disk): ``plan.aks``."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.aks.cluster import aks_cluster_problems
from gpu_platform.plan.aks.nodes import node_hardening_problems
from gpu_platform.plan.problems import under
from gpu_platform.settings import AksClusterSettings

from .base import ConfigUnderRules, Problem, Rule


def cluster(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """The AKS cluster's own settings and its system pool (``plan.aks.cluster``, which the
    AksCluster component asks too)."""
    aks = cfg.settings.cluster
    if isinstance(aks, AksClusterSettings):
        yield from under("cluster", aks_cluster_problems(aks))


def node_hardening(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """An ephemeral OS disk that fits, CPU pools' surge; AKS node settings refused elsewhere."""
    yield from node_hardening_problems(cfg.settings, cfg.pools)


POOL_RULES: tuple[Rule, ...] = ()
"""A GPU pool's surge is AKS's own pool rule (``plan.aks.pools``), asked with the others."""
RULES: tuple[Rule, ...] = (cluster, node_hardening)
