"""Typed records for GPU facts. Data only: the catalog modules fill them in."""

from __future__ import annotations

from dataclasses import dataclass

MIG_COMPUTE_SLICES = 7
"""Compute slices (``g``) of a MIG-capable GPU of the A100/H100/H200 class."""
MIG_MEMORY_SLICES = 8
"""Memory slices of those GPUs: NVIDIA's tables give memory as eighths of the GPU's."""


@dataclass(frozen=True, slots=True)
class MigProfile:
    """One MIG GPU-instance profile as NVIDIA names it (``1g.5gb``)."""

    name: str
    """NVIDIA profile name, e.g. ``1g.5gb``; the resource is ``nvidia.com/mig-<name>``."""
    compute_slices: int
    """Compute slices (``g``) out of ``MIG_COMPUTE_SLICES``."""
    memory_gb: int
    """Memory of one instance in GB as the profile name states it (rounded by NVIDIA)."""
    max_per_gpu: int
    """How many instances of this profile fit on one GPU when the whole GPU uses it."""
    memory_eighths: int
    """Exact memory of one instance as a fraction of the GPU's: eighths (NVIDIA's table)."""

    @property
    def media_extensions(self) -> bool:
        """``+me`` profiles carry the GPU's media engines; only one fits on a GPU."""
        return self.name.endswith("+me")


@dataclass(frozen=True, slots=True)
class GpuModel:
    """A GPU model as it appears on cloud GPU VMs."""

    name: str
    """Catalog key, e.g. ``A100-40GB``."""
    memory_gib: int
    """Device memory as marketed (GB). ACK's ``aliyun.com/gpu-mem`` counts it in GiB; the
    driver reports slightly less, so capacities derived from it are upper bounds."""
    mig_profiles: tuple[MigProfile, ...] = ()
    """Every MIG profile the GPU offers (empty: no MIG)."""
    source: str = ""
    """Public source of these numbers."""
    vendor: str = "NVIDIA"
    """``NVIDIA`` or ``AMD`` (``gpu_facts.vendors``): decides resources, taint and driver tool."""

    @property
    def mig_capable(self) -> bool:
        return bool(self.mig_profiles)


@dataclass(frozen=True, slots=True)
class AzureVmSize:
    """An Azure VM size with GPUs."""

    name: str
    """Canonical size name, e.g. ``Standard_ND96asr_v4``."""
    family: str
    """Azure series name, e.g. ``ND A100 v4``."""
    gpu_model: str
    """Key into the GPU model table."""
    gpu_count: int
    """Whole GPUs per VM."""
    nvme_disk_count: int = 0
    """Local NVMe disks (not the temp disk unless Microsoft Learn lists it as NVMe)."""
    nvme_disk_gib: int = 0
    """Size of one local NVMe disk in GiB."""
    mig: bool = False
    """Whether AKS supports ``gpuInstanceProfile`` (MIG) on this size."""
    source: str = ""
    """Public source of these numbers."""
    temp_disk_gib: int = 0
    """Size of the local temp (resource) disk in GiB, as the size page lists it."""
    cache_disk_gib: int = 0
    """Size of the OS cache in GiB (0: the size page lists none)."""
    vcpus: int = 0
    """vCPUs, where the catalog records them (0: not recorded)."""
    memory_gib: int = 0
    """Memory in GiB, where the catalog records it (0: not recorded)."""

    @property
    def has_nvme(self) -> bool:
        return self.nvme_disk_count > 0

    @property
    def ephemeral_os_disk_gib(self) -> int:
        """The largest ephemeral OS disk the size holds: its cache or temp disk, the bigger."""
        return max(self.temp_disk_gib, self.cache_disk_gib)


@dataclass(frozen=True, slots=True)
class AzureCpuVmSize:
    """An Azure VM size without GPUs, for system and CPU node pools: its local disks."""

    name: str
    """Canonical size name, e.g. ``Standard_D4ds_v5``."""
    family: str
    """Azure series name, e.g. ``Ddsv5``."""
    vcpus: int
    memory_gib: int
    temp_disk_gib: int = 0
    """Size of the local temp (resource) disk in GiB (0: none)."""
    cache_disk_gib: int = 0
    """Size of the OS cache in GiB (0: the size page lists none)."""
    source: str = ""
    """Public source of these numbers."""

    @property
    def ephemeral_os_disk_gib(self) -> int:
        """The largest ephemeral OS disk the size holds: its cache or temp disk, the bigger."""
        return max(self.temp_disk_gib, self.cache_disk_gib)


@dataclass(frozen=True, slots=True)
class EcsInstanceType:
    """An Alibaba Cloud ECS GPU instance type used for ACK GPU node pools."""

    name: str
    """Instance type, e.g. ``ecs.gn7i-c8g1.2xlarge``."""
    family: str
    """Instance family, e.g. ``gn7i``."""
    gpu_model: str
    """Key into the GPU model table."""
    gpu_count: int
    """Whole GPUs per instance."""
    gpu_memory_gb: int = 0
    """GPU memory per GPU as Alibaba lists it for the type (``24 GB × 1``)."""
    source: str = ""
    """Public source of these numbers."""


@dataclass(frozen=True, slots=True)
class AwsInstanceType:
    """An Amazon EC2 instance type with GPUs (NVIDIA or AMD), as EKS node groups use them."""

    name: str
    """Instance type, e.g. ``g5.xlarge``."""
    family: str
    """Instance family, e.g. ``g5``."""
    gpu_model: str
    """Key into the GPU model table."""
    gpu_count: int
    """Whole GPUs per instance."""
    source: str = ""
    """Public source of these numbers."""


@dataclass(frozen=True, slots=True)
class GcpAccelerator:
    """A GPU as Google Cloud names it: a GKE node pool's ``guestAccelerators[].type``, or
    the GPUs a machine type of the accelerator-optimized families comes with."""

    name: str
    """Accelerator type (``nvidia-tesla-t4``) or machine type (``a2-highgpu-1g``)."""
    gpu_model: str
    """Key into the GPU model table."""
    gpu_count: int = 1
    """GPUs a machine type comes with (1 for an accelerator type: its count is separate)."""
    source: str = ""
    """Public source of these numbers."""
