"""Node inputs the pool components share: AKS agent pool hardening (pods per node, OS disk,
encryption at host), sizing and upgrades, and ACK system disks. One place, so the system, GPU
and CPU pools of a cluster cannot drift apart (their rules are ``plan.aks.nodes`` and
``plan.ack.cluster``, which the stack config asks too).

No ``from __future__ import annotations``: ``AckSystemDiskArgs`` is part of component args the
component analyzer reads at run time.
"""

from typing import TYPE_CHECKING, NotRequired, TypedDict

from pydantic import ValidationError

from gpu_facts.aks.nodes import CREATION_ONLY_POOL_PROPERTIES
from gpu_platform.plan.ack.cluster import system_disk_problems
from gpu_platform.plan.aks.nodes import aks_node
from gpu_platform.plan.problems import under
from gpu_platform.settings import (
    AckSystemDiskSettings,
    AksNodeSettings,
    AutoscaleSettings,
    UpgradeSettings,
)

from .errors import Problem, property_path, validation_problems

if TYPE_CHECKING:
    from pulumi_azure_native import containerservice as aks

REPLACED_ON_CHANGE: list[str] = list(CREATION_ONLY_POOL_PROPERTIES)
"""AgentPool inputs AKS takes only at creation: a change replaces the pool."""


class AksNodeInputs(TypedDict):
    """The node-hardening keyword args of an ``AgentPool`` or an ``agentPoolProfiles`` entry."""

    max_pods: int
    os_disk_type: str
    os_disk_size_gb: int
    enable_encryption_at_host: bool


def aks_node_inputs(
    vm_size: str, node: AksNodeSettings, *, encryption_at_host: bool, nvme_cache: bool = False
) -> AksNodeInputs:
    """Every hardening input explicit: AKS defaults differ by size and API version."""
    resolved = aks_node(vm_size, node, encryption_at_host=encryption_at_host, nvme_cache=nvme_cache)
    return AksNodeInputs(
        max_pods=resolved.max_pods,
        os_disk_type=resolved.os_disk_type,
        os_disk_size_gb=resolved.os_disk_size_gb,
        enable_encryption_at_host=resolved.encryption_at_host,
    )


class AksSizeInputs(TypedDict):
    """The sizing keyword args of an ``AgentPool``."""

    enable_auto_scaling: bool
    min_count: int | None
    max_count: int | None
    count: int | None


def aks_size_inputs(autoscale: AutoscaleSettings | None, count: int | None) -> AksSizeInputs:
    """Autoscaled from ``autoscale.min`` (the live count is then the autoscaler's: ignore
    ``count`` after creation, ``AKS_AUTOSCALED_IGNORE``), or a fixed ``count``."""
    if autoscale is None:
        return AksSizeInputs(enable_auto_scaling=False, min_count=None, max_count=None, count=count)
    return AksSizeInputs(
        enable_auto_scaling=True,
        min_count=autoscale.min,
        max_count=autoscale.max,
        count=autoscale.min,
    )


AKS_AUTOSCALED_IGNORE = ["count"]
"""What Pulumi ignores on an autoscaled pool: the count the autoscaler owns."""


def aks_upgrade_settings(upgrade: UpgradeSettings) -> "aks.AgentPoolUpgradeSettingsArgs":
    """Surge, drain timeout and soak of a pool's node upgrades."""
    # Imported here: the ACK components import this module too, and never azure-native.
    from pulumi_azure_native import containerservice as aks

    return aks.AgentPoolUpgradeSettingsArgs(
        max_surge=upgrade.max_surge,
        drain_timeout_in_minutes=upgrade.drain_timeout_minutes,
        node_soak_duration_in_minutes=upgrade.node_soak_minutes,
    )


class AckSystemDiskArgs(TypedDict):
    """The system disk of every node of an ACK pool."""

    category: NotRequired[str]
    """ECS disk category: ``cloud_essd`` (default), ``cloud_auto``, ``cloud_ssd`` or
    ``cloud_efficiency``."""
    size_gib: NotRequired[int]
    """Size in GiB, 40 to 2048 (default 120)."""
    encrypted: NotRequired[bool]
    """Encrypt the disk through KMS (default false)."""
    kms_key_id: NotRequired[str]
    """KMS key of the encryption; unset: the region's default service key."""


class AckSystemDiskInputs(TypedDict):
    """The system-disk keyword args of a ``cs.NodePool``."""

    system_disk_category: str
    system_disk_size: int
    system_disk_encrypted: bool
    system_disk_kms_key: str | None


def ack_system_disk(
    args: AckSystemDiskArgs | None, *path: str
) -> tuple[AckSystemDiskInputs | None, list[Problem]]:
    """The system-disk inputs of a pool, or None and the problems under ``path``."""
    try:
        disk = AckSystemDiskSettings.model_validate(args or {})
    except ValidationError as err:
        return None, validation_problems(err, *path)
    problems = under(property_path(*path), system_disk_problems(disk))
    return (None, problems) if problems else (ack_system_disk_inputs(disk), [])


def ack_system_disk_inputs(disk: AckSystemDiskSettings) -> AckSystemDiskInputs:
    """Category, size and encryption, explicit: ACK's default category is the slowest."""
    return AckSystemDiskInputs(
        system_disk_category=disk.category,
        system_disk_size=disk.size_gib,
        system_disk_encrypted=disk.encrypted,
        system_disk_kms_key=disk.kms_key_id,
    )
