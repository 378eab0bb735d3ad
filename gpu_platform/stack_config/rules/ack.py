"""Rules of ACK clusters: edition, VPC and vSwitches, upgrades, GPU pools' device plugin,
pinned GPU-sharing charts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from ipaddress import IPv4Network

from gpu_facts.ack_components import ACK_PRO_PREFIX
from gpu_facts.capacity import ACK_SHARING_MODES
from gpu_facts.device_plugin_chart import version_tuple
from gpu_facts.scheduling import ACK_DEVICE_PLUGIN_DAEMONSET_SINCE, ACK_GPU_SCHEDULE_LABEL
from gpu_platform.plan.ack_cluster import system_disk_problems, vpc_problems
from gpu_platform.plan.ack_gpu_sharing import pin_problems
from gpu_platform.plan.pools import cloud_sharing
from gpu_platform.plan.problems import under
from gpu_platform.settings import AckClusterSettings

from .base import ConfigUnderCheck, Problem, Rule

_ACK_SPEC = re.compile(rf"^(ack\.standard|{re.escape(ACK_PRO_PREFIX)}[a-z0-9]+)$")


def _networks(cidrs: list[tuple[str, str]]) -> tuple[list[IPv4Network], list[Problem]]:
    """Parse ``(path, cidr)`` pairs; the problems name the ones that are not CIDRs."""
    nets, problems = [], []
    for at, cidr in cidrs:
        try:
            nets.append(IPv4Network(cidr))
        except ValueError:
            problems.append((at, f"not an IPv4 CIDR (host bits must be zero): {cidr!r}"))
    return nets, problems


def _ack_cluster(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """ACK: edition, networking (VPC, node and Terway pod vSwitches), upgrades, pinned
    GPU-sharing components."""
    cluster = cfg.settings.cluster
    if not isinstance(cluster, AckClusterSettings):
        return
    if not _ACK_SPEC.match(cluster.cluster_spec):
        yield (
            "cluster.clusterSpec",
            f"must be ack.standard or {ACK_PRO_PREFIX}<size> (e.g. {ACK_PRO_PREFIX}small)",
        )
    vpc = cluster.vpc
    yield from under("cluster.vpc", vpc_problems(vpc))
    created = [
        (f"cluster.vpc.{key}[{i}].cidr", sw.cidr)
        for key, switches in (("vswitches", vpc.vswitches), ("podVswitches", vpc.pod_vswitches))
        for i, sw in enumerate(switches)
    ]
    nets, problems = _networks([("cluster.vpc.cidr", vpc.cidr), *created])
    service, service_problems = _networks([("cluster.serviceCidr", cluster.service_cidr)])
    yield from problems + service_problems
    if not problems and vpc.vpc_id is None:
        vpc_net, switch_nets = nets[0], nets[1:]
        for (at, cidr), net in zip(created, switch_nets, strict=True):
            if not net.subnet_of(vpc_net):
                yield at, f"{cidr} is not inside the VPC CIDR {vpc.cidr}"
        if service and service[0].overlaps(vpc_net):
            yield "cluster.serviceCidr", f"overlaps the VPC CIDR {vpc.cidr}"
    if not problems:
        for i, (at, cidr) in enumerate(created):
            for other_at, other in created[:i]:
                if IPv4Network(cidr).overlaps(IPv4Network(other)):
                    yield at, f"{cidr} overlaps {other_at}"
    if cluster.auto_upgrade_channel != "none" and cluster.kubernetes_version is not None:
        # pulumi-alicloud ManagedKubernetes.version: "Do not specify if cluster auto upgrade is
        # enabled": ACK moves the version itself, and a pinned one would fight it.
        yield (
            "cluster.kubernetesVersion",
            f"not with auto-upgrade ({cluster.auto_upgrade_channel}): ACK picks the version; "
            "remove kubernetesVersion, or set autoUpgradeChannel: none to pin it",
        )
    yield from _ack_gpu_pools(cfg, cluster)
    yield from under("cluster.nodeSystemDisk", system_disk_problems(cluster.node_system_disk))
    if cluster.auto_upgrade_channel != "none" and cluster.maintenance_window is None:
        yield (
            "cluster.maintenanceWindow",
            f"auto-upgrade ({cluster.auto_upgrade_channel}) runs inside the maintenance window: "
            "set one, or autoUpgradeChannel: none",
        )
    modes = [cloud_sharing("alicloud", pool) for pool in cfg.settings.gpu_pools]
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
        if cloud_sharing("alicloud", pool) not in ACK_SHARING_MODES:
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
    version = cluster.kubernetes_version
    if version is not None and version_tuple(version) < version_tuple(
        ACK_DEVICE_PLUGIN_DAEMONSET_SINCE
    ):
        yield (
            "cluster.kubernetesVersion",
            f"pools {names} need {ACK_DEVICE_PLUGIN_DAEMONSET_SINCE}+: before it ACK's device "
            "plugin is a static pod on every GPU node and would run next to the NVIDIA plugin",
        )


RULES: tuple[Rule, ...] = (_ack_cluster,)
