"""Rules of ACK clusters: edition, VPC and vSwitches, upgrades, GPU pools' device plugin,
pinned GPU-sharing charts (``plan.ack``)."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.ack.cluster import ack_cluster_problems
from gpu_platform.plan.ack.gpu_sharing import pin_problems
from gpu_platform.plan.ack.pools import ack_plugin_pool_problems
from gpu_platform.plan.pools import cloud_sharing
from gpu_platform.plan.problems import join_path, under
from gpu_platform.settings import AckClusterSettings

from .base import ConfigUnderRules, Problem, Rule


def _ack_cluster(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """ACK: the cluster's own rules (``plan.ack.cluster``, which the AckCluster component asks
    too), its GPU pools' device plugin, pinned GPU-sharing components."""
    cluster = cfg.settings.cluster
    if not isinstance(cluster, AckClusterSettings):
        return
    # One by one, not ``under``'s list: follow_on records what each problem had read.
    for path, message in ack_cluster_problems(cluster, "cluster"):
        yield join_path("cluster", path), message
    yield from ack_plugin_pool_problems(cfg.settings, cluster)
    modes = [cloud_sharing("ack", pool) for pool in cfg.settings.gpu_pools]
    yield from under("ackGpuSharing", pin_problems(cfg.settings.ack_gpu_sharing, modes))


RULES: tuple[Rule, ...] = (_ack_cluster,)
