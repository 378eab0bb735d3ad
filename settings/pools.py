"""GPU pool settings: machine type, size, MIG, sharing, labels, upgrades."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt

from gpu_facts.azure_mig import AksMigProfile
from gpu_facts.capacity import MigStrategy

from .base import PositiveWhole, SettingsModel, WholeNumber


class AutoscaleSettings(SettingsModel):
    min: WholeNumber = 0
    """Fewest nodes; 0 lets the pool scale to zero when no GPU pod waits."""
    max: PositiveWhole
    """Most nodes."""


class MigSettings(SettingsModel):
    profile: AksMigProfile
    """GPU instance profile as AKS names it; applied to every GPU of the pool."""
    strategy: MigStrategy = "mixed"
    """Device-plugin MIG strategy: ``single`` exposes ``nvidia.com/gpu``, ``mixed``
    exposes ``nvidia.com/mig-<profile>``."""


class SharingSettings(SettingsModel):
    mode: Literal["timeSlicing", "mps", "cgpu", "share"]
    """``timeSlicing`` and ``mps`` (NVIDIA device plugin; on ACK ``mps`` is ACK's MPS with
    GPU-memory isolation), ``cgpu`` and ``share`` (ACK only)."""
    replicas: Annotated[StrictInt, Field(ge=2, le=64)] | None = None
    """Pods per GPU for ``timeSlicing`` and device-plugin ``mps``."""
    rename_by_default: StrictBool = True
    """Advertise shared GPUs as ``<resource>.shared`` so pods opt in knowingly."""
    fail_requests_greater_than_one: StrictBool = True
    """Refuse pods that ask for more than one shared replica (they would get no more GPU)."""


class UpgradeSettings(SettingsModel):
    max_surge: str = "1"
    """Extra nodes during an upgrade (count or percentage); GPU capacity is scarce."""
    drain_timeout_minutes: Annotated[StrictInt, Field(ge=1, le=1440)] = 60
    """How long a node drain waits for pods (training jobs) to finish."""
    node_soak_minutes: Annotated[StrictInt, Field(ge=0, le=30)] = 0
    """Wait after draining a node before upgrading the next one."""


class GpuPoolSettings(SettingsModel):
    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9]{0,11}$")]
    """Pool name: lowercase letters and digits, at most 12 characters (the AKS limit)."""
    vm_size: str | None = None
    """Azure VM size (``cloud: azure``, or ``existing`` to describe the nodes)."""
    instance_type: str | None = None
    """Alibaba ECS instance type (``cloud: alicloud``, or ``existing``)."""
    count: WholeNumber | None = None
    """Fixed node count. Give this or ``autoscale``."""
    autoscale: AutoscaleSettings | None = None
    """Autoscaling range (not with MIG)."""
    mig: MigSettings | None = None
    """MIG partitioning of every GPU in the pool."""
    sharing: SharingSettings | None = None
    """GPU sharing (time-slicing or MPS); one trust domain per shared GPU."""
    labels: dict[str, str] = Field(default_factory=dict)
    """Extra node labels."""
    nvme: StrictBool = False
    """Offer the VM's local NVMe disks as an ephemeral cache StorageClass."""
    os_sku: Literal["Ubuntu", "Ubuntu2204", "AzureLinux", "AzureLinux3"] = "Ubuntu"
    """Node OS on AKS; MIG needs Ubuntu."""
    zones: list[str] = Field(default_factory=list)
    """Availability zones."""
    upgrade: UpgradeSettings = Field(default_factory=UpgradeSettings)
    """Node upgrade behaviour."""
