"""What ACK refuses in a cluster's own settings, or what leaves it without nodes or pods: its
edition, the VPC's vSwitches and CIDRs, upgrades against a pinned version or without a window,
the nodes' system disk; and the values Alibaba Cloud validates (names, tags,
vSwitch IDs: ``ack_cluster_value_problems``). The stack config's rules (under ``cluster``) and the
AckCluster component ask the same questions here; paths are relative to the cluster."""

from __future__ import annotations

import re
from collections.abc import Iterator
from ipaddress import IPv4Network

from gpu_facts.ack.addons import ACK_PRO_PREFIX
from gpu_platform.settings import AckClusterSettings, AckSystemDiskSettings, AckVpcSettings

from ..cloud_tags import ack_tag_problems
from ..names import ack_cluster_name_problem, sls_project_problem, vswitch_id_problems
from ..problems import Problem, join_path, under

EXISTING_NEED_VPC = "existing vSwitches need the existing vpcId they are in"
NODE_VSWITCHES_REQUIRED = "give node vSwitches: vswitchIds (existing) or vswitches (to create)"
POD_VSWITCHES_REQUIRED = "Terway needs pod vSwitches: podVswitchIds or podVswitches"
KEY_WITHOUT_ENCRYPTION = "a key encrypts only with encrypted: true"
_ACK_SPEC = re.compile(rf"^(ack\.standard|{re.escape(ACK_PRO_PREFIX)}[a-z0-9]+)$")


def vpc_problems(vpc: AckVpcSettings) -> Iterator[Problem]:
    """Existing vSwitches inside an existing VPC; node vSwitches and Terway pod vSwitches, given
    or created. Relative to the VPC."""
    if vpc.vpc_id is None:
        for key, existing in (
            ("vswitchIds", vpc.vswitch_ids),
            ("podVswitchIds", vpc.pod_vswitch_ids),
        ):
            if existing:
                yield key, EXISTING_NEED_VPC
    if not vpc.vswitch_ids and not vpc.vswitches:
        yield "", NODE_VSWITCHES_REQUIRED
    if not vpc.pod_vswitch_ids and not vpc.pod_vswitches:
        yield "", POD_VSWITCHES_REQUIRED


def system_disk_problems(disk: AckSystemDiskSettings) -> Iterator[Problem]:
    """A KMS key only on an encrypted disk. Relative to the disk."""
    if disk.kms_key_id is not None and not disk.encrypted:
        yield "kmsKeyId", KEY_WITHOUT_ENCRYPTION


def _networks(cidrs: list[tuple[str, str]]) -> tuple[list[IPv4Network], list[Problem]]:
    """Parse ``(path, cidr)`` pairs; the problems name the ones that are not CIDRs."""
    nets, problems = [], []
    for at, cidr in cidrs:
        try:
            nets.append(IPv4Network(cidr))
        except ValueError:
            problems.append((at, f"not an IPv4 CIDR (host bits must be zero): {cidr!r}"))
    return nets, problems


def network_problems(cluster: AckClusterSettings, root: str = "") -> Iterator[Problem]:
    """The CIDRs: each one a CIDR, created vSwitches inside a created VPC and apart from each
    other, the service CIDR outside the VPC. Relative to the cluster; a message naming another
    vSwitch names it under ``root``, the cluster's own path where the caller has one."""
    vpc = cluster.vpc
    created = [
        (f"vpc.{key}[{i}].cidr", sw.cidr)
        for key, switches in (("vswitches", vpc.vswitches), ("podVswitches", vpc.pod_vswitches))
        for i, sw in enumerate(switches)
    ]
    nets, problems = _networks([("vpc.cidr", vpc.cidr), *created])
    service, service_problems = _networks([("serviceCidr", cluster.service_cidr)])
    yield from problems + service_problems
    if not problems and vpc.vpc_id is None:
        vpc_net, switch_nets = nets[0], nets[1:]
        for (at, cidr), net in zip(created, switch_nets, strict=True):
            if not net.subnet_of(vpc_net):
                yield at, f"{cidr} is not inside the VPC CIDR {vpc.cidr}"
        if service and service[0].overlaps(vpc_net):
            yield "serviceCidr", f"overlaps the VPC CIDR {vpc.cidr}"
    if not problems:
        for i, (at, cidr) in enumerate(created):
            for other_at, other in created[:i]:
                if IPv4Network(cidr).overlaps(IPv4Network(other)):
                    yield at, f"{cidr} overlaps {join_path(root, other_at)}"


def ack_cluster_problems(cluster: AckClusterSettings, root: str = "") -> Iterator[Problem]:
    """The cluster's edition, networking, upgrades and its nodes' system disk, relative to the
    cluster (``root``: its path, for messages that name another key). Lazy: the stack config's
    follow-on logic reads what each problem rests on as it is yielded."""
    if not _ACK_SPEC.match(cluster.cluster_spec):
        yield (
            "clusterSpec",
            f"must be ack.standard or {ACK_PRO_PREFIX}<size> (e.g. {ACK_PRO_PREFIX}small)",
        )
    yield from under("vpc", vpc_problems(cluster.vpc))
    yield from network_problems(cluster, root)
    auto_upgrade = cluster.auto_upgrade_channel
    if auto_upgrade != "none" and cluster.kubernetes_version is not None:
        # pulumi-alicloud ManagedKubernetes.version: "Do not specify if cluster auto upgrade is
        # enabled": ACK moves the version itself, and a pinned one would fight it.
        yield (
            "kubernetesVersion",
            f"not with auto-upgrade ({auto_upgrade}): ACK picks the version; "
            "remove kubernetesVersion, or set autoUpgradeChannel: none to pin it",
        )
    yield from under("nodeSystemDisk", system_disk_problems(cluster.node_system_disk))
    if auto_upgrade != "none" and cluster.maintenance_window is None:
        yield (
            "maintenanceWindow",
            f"auto-upgrade ({auto_upgrade}) runs inside the maintenance window: "
            "set one, or autoUpgradeChannel: none",
        )


def ack_cluster_value_problems(cluster: AckClusterSettings) -> Iterator[Problem]:
    """The cluster's values Alibaba Cloud validates, by its rules (``plan.names``,
    ``plan.cloud_tags``): its name, audit log project, tags and existing vSwitch IDs."""
    if (problem := ack_cluster_name_problem(cluster.name)) is not None:
        yield "name", problem
    project = cluster.audit_log_project
    if project is not None and (problem := sls_project_problem(project)) is not None:
        yield "auditLogProject", problem
    yield from under("tags", ack_tag_problems(cluster.tags))
    for key, ids in (
        ("vswitchIds", cluster.vpc.vswitch_ids),
        ("podVswitchIds", cluster.vpc.pod_vswitch_ids),
    ):
        yield from under(f"vpc.{key}", vswitch_id_problems(ids))
