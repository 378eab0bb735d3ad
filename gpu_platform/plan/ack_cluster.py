"""What ACK refuses in a cluster's own settings, or what leaves it without nodes or pods: the
VPC's vSwitches and the nodes' system disk. The stack config's rules (under ``cluster``) and the
AckCluster component ask the same questions here; paths are relative to the cluster."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.settings import AckClusterSettings, AckSystemDiskSettings, AckVpcSettings

from .problems import Problem, under

EXISTING_NEED_VPC = "existing vSwitches need the existing vpcId they are in"
NODE_VSWITCHES_REQUIRED = "give node vSwitches: vswitchIds (existing) or vswitches (to create)"
POD_VSWITCHES_REQUIRED = "Terway needs pod vSwitches: podVswitchIds or podVswitches"
KEY_WITHOUT_ENCRYPTION = "a key encrypts only with encrypted: true"


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


def ack_cluster_problems(cluster: AckClusterSettings) -> Iterator[Problem]:
    """The cluster's networking and its nodes' system disk, relative to the cluster."""
    yield from under("vpc", vpc_problems(cluster.vpc))
    yield from under("nodeSystemDisk", system_disk_problems(cluster.node_system_disk))
