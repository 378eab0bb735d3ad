"""Node pool settings every cloud shares: a GPU pool's name, size, MIG, sharing and labels (each
cloud's GPU pool model adds its machines: ``aks``, ``ack``, ``existing``), CPU pools, and the AKS
node hardening every AKS pool the platform creates shares."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt

from gpu_facts.aks.nodes import AKS_MAX_PODS, AKS_MIN_MAX_PODS, OS_DISK_MAX_GIB, OS_DISK_MIN_GIB
from gpu_facts.capacity import DEVICE_PLUGIN, Allocation, MigStrategy
from gpu_facts.name_rules import AKS_POOL_NAME

from .base import PositiveWhole, SettingsModel, WholeNumber, following

OsDiskType = Literal["Ephemeral", "Managed"]
AksOsSku = Literal["Ubuntu", "Ubuntu2204", "AzureLinux", "AzureLinux3"]
PoolName = Annotated[str, following(AKS_POOL_NAME)]
DEFAULT_MAX_PODS = 110
"""Kubernetes' own default: AKS reserves kubelet memory per possible pod
(``gpu_facts.aks.nodes.AKS_KUBE_RESERVED_MB_PER_POD``), and Azure CNI Overlay's default of 250
would reserve it for pods a GPU or system node never runs."""
DEFAULT_OS_DISK_GIB = 128
"""OS disk size when a pool sets none: room for the GPU driver and CUDA images, and small
enough for the temp disk of the default system size (Standard_D4ds_v5, 150 GiB) to hold it
as an ephemeral OS disk."""


class AutoscaleSettings(SettingsModel):
    min: WholeNumber = 0
    """Fewest nodes; 0 lets the pool scale to zero when no GPU pod waits."""
    max: PositiveWhole
    """Most nodes."""


class MigSettings(SettingsModel):
    profile: str
    """GPU instance profile of every GPU of the pool, as the pool's cloud names it: on AKS
    ``MIG1g``, ``MIG2g``, ``MIG3g``, ``MIG4g`` or ``MIG7g``; on an existing cluster NVIDIA's name
    (``1g.10gb``), any profile the GPU offers."""
    strategy: MigStrategy = "mixed"
    """Device-plugin MIG strategy: ``single`` exposes ``nvidia.com/gpu``, ``mixed`` (default)
    exposes ``nvidia.com/mig-<profile>``."""


class SharingSettings(SettingsModel):
    mode: Literal["timeSlicing", "mps", "cgpu", "share"]
    """``timeSlicing`` or ``mps`` (NVIDIA device plugin; on ACK ``mps`` is ACK's MPS with GPU-memory
    isolation), ``cgpu`` or ``share`` (ACK only)."""
    replicas: Annotated[StrictInt, Field(ge=2, le=64)] | None = None
    """Pods per GPU (2 to 64) for ``timeSlicing`` and device-plugin ``mps``."""
    rename_by_default: StrictBool = True
    """Advertise shared GPUs as ``<resource>.shared`` so pods opt in knowingly (default true)."""
    fail_requests_greater_than_one: StrictBool = True
    """Refuse pods that ask for more than one shared replica, which would get no more GPU (default
    true)."""


class UpgradeSettings(SettingsModel):
    max_surge: str = "1"
    """Extra nodes during an upgrade, a count or a percentage (default ``1``: GPU capacity is
    scarce)."""
    drain_timeout_minutes: Annotated[StrictInt, Field(ge=1, le=1440)] = 60
    """How long a node drain waits for pods (training jobs) to finish, 1 to 1440 minutes (default
    60)."""
    node_soak_minutes: Annotated[StrictInt, Field(ge=0, le=30)] = 0
    """Wait after draining a node before upgrading the next one, 0 to 30 minutes (default 0)."""


class AksNodeSettings(SettingsModel):
    """Node hardening of an AKS pool (system, GPU or CPU): AKS fixes it when the pool is created,
    so a change replaces the pool (``docs/aks.md``). Not for other clouds."""

    max_pods: Annotated[StrictInt, Field(ge=AKS_MIN_MAX_PODS, le=AKS_MAX_PODS)] = DEFAULT_MAX_PODS
    """AKS: most pods per node, 10 to 250 (default 110; system pools 30 or more). AKS reserves
    kubelet memory per possible pod, so fewer leaves pods more."""
    os_disk_type: OsDiskType | None = None
    """AKS: ``Ephemeral`` (on the VM's cache or temp disk: faster, nothing to pay, gone on reimage)
    or ``Managed``. Unset: ``Ephemeral`` when the size's cache or temp disk holds ``osDiskSizeGb``,
    else ``Managed``; always sent explicitly."""
    os_disk_size_gb: Annotated[StrictInt, Field(ge=OS_DISK_MIN_GIB, le=OS_DISK_MAX_GIB)] = (
        DEFAULT_OS_DISK_GIB
    )
    """AKS: OS disk size in GiB, 30 to 2048 (default 128); an ephemeral disk must fit the size's
    cache or temp disk."""


class GpuPoolSettingsBase(SettingsModel):
    """What a GPU pool says on every cloud: its name, size, MIG, sharing and labels. Each cloud's
    pool adds how it describes its machines (``settings.aks``, ``settings.ack``,
    ``settings.existing``); the top-level ``cloud`` picks the model."""

    name: PoolName
    """Pool name: lowercase letters and digits, at most 12 characters (the AKS limit)."""
    count: WholeNumber | None = None
    """Fixed node count; give this or ``autoscale``."""
    autoscale: AutoscaleSettings | None = None
    """Autoscaling range (not with MIG)."""
    mig: MigSettings | None = None
    """MIG partitioning of every GPU of the pool."""
    sharing: SharingSettings | None = None
    """GPU sharing (time-slicing or MPS); one trust domain per shared GPU."""
    labels: dict[str, str] = Field(default_factory=dict)
    """Extra node labels."""
    allocation: Allocation = DEVICE_PLUGIN
    """How pods get the pool's GPUs: ``devicePlugin`` (default: extended resources such as
    ``nvidia.com/gpu``) or ``dra`` (ResourceClaims on NVIDIA's DeviceClasses through NVIDIA's DRA
    driver; Kubernetes 1.34 or newer, NVIDIA GPUs, no ``sharing``: docs/dra.md)."""


class ManagedGpuPoolSettings(GpuPoolSettingsBase):
    """A GPU pool whose nodes the platform creates (AKS, ACK): where they go and how they are
    upgraded."""

    zones: list[str] = Field(default_factory=list)
    """Availability zones."""
    upgrade: UpgradeSettings = Field(default_factory=UpgradeSettings)
    """Node upgrade behaviour."""


class CpuPoolSettings(AksNodeSettings):
    name: PoolName
    """Pool name: lowercase letters and digits, at most 12 characters, unique across GPU and CPU
    pools."""
    vm_size: str | None = None
    """Azure VM size without GPUs (``cloud: aks``), e.g. ``Standard_D4ds_v5``."""
    instance_type: str | None = None
    """Alibaba ECS instance type without GPUs (``cloud: ack``), e.g. ``ecs.g7.xlarge``."""
    count: WholeNumber | None = None
    """Fixed node count; give this or ``autoscale``."""
    autoscale: AutoscaleSettings | None = None
    """Autoscaling range: nodes come when pods wait for CPU or memory."""
    labels: dict[str, str] = Field(default_factory=dict)
    """Extra node labels (e.g. for a gateway's nodeSelector)."""
    zones: list[str] = Field(default_factory=list)
    """Availability zones: on AKS ``1``, ``2``, ``3``; on ACK zones of the cluster's node vSwitches
    (``cluster.vpc.vswitches``), whose vSwitches the pool then uses."""
    os_sku: AksOsSku = "Ubuntu"
    """Node OS on AKS: ``Ubuntu`` (default), ``Ubuntu2204``, ``AzureLinux``, ``AzureLinux3``."""
    upgrade: UpgradeSettings = Field(default_factory=UpgradeSettings)
    """Node upgrade behaviour (AKS surge, drain timeout and soak)."""
