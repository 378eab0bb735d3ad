"""Rules of ACK clusters: edition, VPC and vSwitches, upgrades, GPU pools' device plugin,
pinned GPU-sharing charts."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_facts.capacity import ACK_SHARING_MODES
from gpu_facts.scheduling import ACK_DEVICE_PLUGIN_DAEMONSET_SINCE, ACK_GPU_SCHEDULE_LABEL
from gpu_platform.plan.ack.cluster import ack_cluster_problems
from gpu_platform.plan.ack.gpu_sharing import pin_problems
from gpu_platform.plan.kubernetes_versions import minor_version
from gpu_platform.plan.pools import cloud_sharing
from gpu_platform.plan.problems import join_path, under
from gpu_platform.settings import AckClusterSettings

from .base import ConfigUnderCheck, Problem, Rule


def _ack_cluster(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """ACK: the cluster's own rules (``plan.ack.cluster``, which the AckCluster component asks
    too), its GPU pools' device plugin, pinned GPU-sharing components."""
    cluster = cfg.settings.cluster
    if not isinstance(cluster, AckClusterSettings):
        return
    # One by one, not ``under``'s list: follow_on records what each problem had read.
    for path, message in ack_cluster_problems(cluster, "cluster"):
        yield join_path("cluster", path), message
    yield from _ack_gpu_pools(cfg, cluster)
    modes = [cloud_sharing("ack", pool) for pool in cfg.settings.gpu_pools]
    yield from under("ackGpuSharing", pin_problems(cfg.settings.ack_gpu_sharing, modes))


def _ack_gpu_pools(cfg: ConfigUnderCheck, cluster: AckClusterSettings) -> Iterator[Problem]:
    """ACK GPU pools: the ``ack.node.gpu.schedule`` label is ours, and pools served by the
    NVIDIA device plugin need it, with ACK's own plugin turned off by that label (1.32+)."""
    plugin_pools = []
    for i, pool in enumerate(cfg.settings.gpu_pools):
        if ACK_GPU_SCHEDULE_LABEL in pool.labels:
            yield (
                f"gpuPools[{i}].labels.{ACK_GPU_SCHEDULE_LABEL}",
                "set by the platform from sharing.mode; remove it",
            )
        if cloud_sharing("ack", pool) not in ACK_SHARING_MODES:
            plugin_pools.append(pool.name)
    if not plugin_pools:
        return
    names = ", ".join(plugin_pools)
    # With the GPU Operator on, its own (ACK) rule says what to do instead.
    if not cfg.settings.device_plugin.enabled and not cfg.settings.gpu_operator.enabled:
        yield (
            "devicePlugin.enabled",
            f"pools {names} use the NVIDIA device plugin (ACK's own is turned off on them); "
            "enable it, or share those pools the ACK way (sharing.mode mps, cgpu or share)",
        )
    since = minor_version(ACK_DEVICE_PLUGIN_DAEMONSET_SINCE)
    version = cluster.kubernetes_version
    minor = None if version is None else minor_version(version)  # None: malformed, refused
    if minor is not None and since is not None and minor < since:
        yield (
            "cluster.kubernetesVersion",
            f"pools {names} need {ACK_DEVICE_PLUGIN_DAEMONSET_SINCE}+: before it ACK's device "
            "plugin is a static pod on every GPU node and would run next to the NVIDIA plugin",
        )


RULES: tuple[Rule, ...] = (_ack_cluster,)
