"""The capacity model: what a GPU pool exposes to the scheduler, per node and in total.

A node of a pool advertises one extended resource; its count per node is:

- no MIG, no sharing: ``nvidia.com/gpu`` = GPUs (``amd.com/gpu`` for AMD GPUs, which are always
  modelled as whole GPUs: partitioning an MI300X from inside an AKS VM is unconfirmed, and AMD's
  device plugin runs with its ``single`` naming strategy);
- MIG, strategy ``single``: ``nvidia.com/gpu`` = GPUs × instances of the profile per GPU
  (every GPU carries the same profile, as AKS applies one profile to the whole pool);
- MIG, strategy ``mixed``: ``nvidia.com/mig-<profile>`` = GPUs × instances per GPU;
- time-slicing or device-plugin MPS: the devices above × replicas, under
  ``<resource>.shared`` when the device plugin renames shared resources (``renameByDefault``);
- ACK sharing (MPS, cGPU, share): ``aliyun.com/gpu-mem`` = GiB per GPU × GPUs. The model
  counts the marketed memory; the ACK device plugin reports whole GiB of what the driver
  sees, which can be a little less, so this figure is an upper bound.

A pool whose GPUs are served through Dynamic Resource Allocation advertises no extended
resource: its node publishes devices in ResourceSlices, counted per DeviceClass
(``Capacity.devices``): ``gpu.nvidia.com`` = GPUs, or ``mig.nvidia.com`` = GPUs × instances
per GPU (``gpu_facts.dra``).

The total is per node × the most nodes the pool can have: what a quota can ever use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from .dra import NVIDIA_GPU_CLASS, NVIDIA_MIG_CLASS
from .models import GpuModel
from .scheduling import ALIYUN_GPU_MEM, NVIDIA_GPU, SHARED_SUFFIX, mig_resource
from .vendors import NVIDIA, vendor_named

MigStrategy = Literal["single", "mixed"]
NO_MIG_STRATEGY = "none"
"""The device plugin's ``migStrategy`` that does not enumerate MIG devices."""
MIG_STRATEGIES: tuple[str, ...] = (NO_MIG_STRATEGY, *get_args(MigStrategy))
"""Every ``migStrategy`` the device plugin accepts."""
SharingMode = Literal["timeSlicing", "mps", "ackMps", "ackCgpu", "ackShare"]
Allocation = Literal["devicePlugin", "dra"]
"""How a pool's GPUs reach pods: a device plugin's extended resources (NVIDIA's, ACK's or AMD's),
or Dynamic Resource Allocation (claims on DeviceClasses)."""
DEVICE_PLUGIN: Allocation = "devicePlugin"
DRA: Allocation = "dra"
ACK_SHARING_MODES: frozenset[str] = frozenset({"ackMps", "ackCgpu", "ackShare"})
"""Sharing that ACK's own device plugin does, in GiB of GPU memory."""
DEVICE_PLUGIN_SHARING_MODES: frozenset[str] = frozenset({"timeSlicing", "mps"})
"""Sharing that the NVIDIA device plugin does, in replicas of each device."""

SHARING_ISOLATION: dict[SharingMode, str] = {
    "timeSlicing": "no memory or fault isolation",
    "mps": "memory and compute limits, no fault isolation",
    "ackMps": "memory isolation, no fault isolation",
    "ackCgpu": "memory isolation, one shared GPU",
    "ackShare": "scheduling by GPU memory only, no isolation",
}
"""What a shared GPU does and does not isolate, per sharing mode (device-plugin chart README:
"Shared Access to GPUs"; ACK GPU sharing docs). Only MIG isolates faults (BP-15)."""


@dataclass(frozen=True, slots=True)
class PoolShape:
    """The facts about a pool that decide its capacity. Inconsistent shapes raise ValueError."""

    gpu_model: GpuModel
    """The GPU model of every GPU in the pool."""
    gpus_per_node: int
    """Whole GPUs per node."""
    min_nodes: int
    """Fewest nodes (the autoscaler's minimum, or the fixed count)."""
    max_nodes: int
    """Most nodes (the autoscaler's maximum, or the fixed count)."""
    mig_profile: str | None = None
    """NVIDIA profile name applied to every GPU (``1g.5gb``), or None."""
    mig_strategy: MigStrategy | None = None
    """Device-plugin MIG strategy; required with a MIG profile."""
    sharing: SharingMode | None = None
    """How pods share a device, or None for exclusive devices."""
    replicas: int = 1
    """Replicas per device for time-slicing and device-plugin MPS."""
    rename_shared: bool = True
    """Device-plugin ``renameByDefault``: shared resources get the ``.shared`` suffix."""
    allocation: Allocation = DEVICE_PLUGIN
    """Device plugin (extended resources) or DRA (devices per DeviceClass)."""

    def __post_init__(self) -> None:
        problems = _shape_problems(self)
        if problems:
            raise ValueError("invalid GPU pool shape: " + "; ".join(problems))


def _shape_problems(shape: PoolShape) -> list[str]:
    problems: list[str] = []
    if shape.gpus_per_node < 1:
        problems.append(f"gpus_per_node must be at least 1, got {shape.gpus_per_node}")
    if not 0 <= shape.min_nodes <= shape.max_nodes:
        problems.append(
            f"need 0 <= min_nodes <= max_nodes, got {shape.min_nodes} and {shape.max_nodes}"
        )
    if shape.replicas < 1:
        problems.append(f"replicas must be at least 1, got {shape.replicas}")
    if shape.replicas > 1 and shape.sharing not in DEVICE_PLUGIN_SHARING_MODES:
        problems.append("replicas apply to timeSlicing and mps sharing only")
    if vendor_named(shape.gpu_model.vendor) is not NVIDIA and (
        shape.mig_profile is not None or shape.sharing is not None
    ):
        problems.append(
            f"{shape.gpu_model.name} is an {shape.gpu_model.vendor} GPU: MIG and GPU sharing are "
            "NVIDIA's (the model counts whole GPUs)"
        )
    if shape.allocation == DRA and (
        vendor_named(shape.gpu_model.vendor) is not NVIDIA or shape.sharing is not None
    ):
        problems.append("DRA pools are NVIDIA pools without device-plugin or ACK sharing")
    if (shape.mig_profile is None) != (shape.mig_strategy is None):
        problems.append("give a MIG profile and a MIG strategy together")
    if shape.mig_profile is not None:
        offered = [p.name for p in shape.gpu_model.mig_profiles]
        if shape.mig_profile not in offered:
            problems.append(
                f"{shape.gpu_model.name} has no MIG profile {shape.mig_profile!r}"
                f" (offered: {', '.join(offered) or 'none'})"
            )
        if shape.sharing == "mps":
            problems.append("MPS cannot share MIG devices")
        if shape.sharing in ACK_SHARING_MODES:
            problems.append(f"{shape.sharing} shares whole GPUs, not MIG devices")
    return problems


@dataclass(frozen=True, slots=True)
class Capacity:
    """Allocatable GPU resources of a pool."""

    per_node: dict[str, int]
    """Extended resource name → count on one node."""
    min_nodes: int
    """Fewest nodes of the pool."""
    max_nodes: int
    """Most nodes of the pool."""
    devices: dict[str, int] = field(default_factory=dict)
    """DRA pools: DeviceClass → devices one node publishes (``per_node`` is empty)."""

    def total_at(self, nodes: int) -> dict[str, int]:
        """What the pool offers with ``nodes`` nodes."""
        return {name: count * nodes for name, count in self.per_node.items()}

    @property
    def total(self) -> dict[str, int]:
        """What the pool offers at its largest size (what a quota can ever use)."""
        return self.total_at(self.max_nodes)

    @property
    def total_devices(self) -> dict[str, int]:
        """DRA pools: devices per DeviceClass at the pool's largest size."""
        return {name: count * self.max_nodes for name, count in self.devices.items()}

    def as_output(self) -> dict[str, object]:
        """The ``gpuCapacity`` stack-output shape of one pool."""
        nodes: object = (
            self.max_nodes
            if self.min_nodes == self.max_nodes
            else {"min": self.min_nodes, "max": self.max_nodes}
        )
        shown: dict[str, object] = {"perNode": dict(self.per_node), "nodes": nodes}
        shown["total"] = self.total
        if self.devices:
            shown["devicesPerNode"] = dict(self.devices)
            shown["totalDevices"] = self.total_devices
        return shown


def mig_instances_per_gpu(model: GpuModel, profile: str) -> int:
    """How many instances of ``profile`` one GPU of ``model`` holds."""
    for mig in model.mig_profiles:
        if mig.name == profile:
            return mig.max_per_gpu
    offered = ", ".join(p.name for p in model.mig_profiles) or "none"
    raise ValueError(f"{model.name} has no MIG profile {profile!r} (offered: {offered})")


def pool_capacity(shape: PoolShape) -> Capacity:
    """Expected allocatable extended resources of one node of the pool, and the node range."""
    gpus = shape.gpus_per_node
    vendor = vendor_named(shape.gpu_model.vendor)
    if vendor is not NVIDIA:
        return Capacity({vendor.gpu_resource: gpus}, shape.min_nodes, shape.max_nodes)
    if shape.sharing in ACK_SHARING_MODES:
        per_node = {ALIYUN_GPU_MEM: shape.gpu_model.memory_gib * gpus}
        return Capacity(per_node, shape.min_nodes, shape.max_nodes)
    if shape.allocation == DRA:
        return Capacity({}, shape.min_nodes, shape.max_nodes, dra_devices(shape))
    if shape.mig_profile is not None:
        devices = gpus * mig_instances_per_gpu(shape.gpu_model, shape.mig_profile)
        resource = mig_resource(shape.mig_profile) if shape.mig_strategy == "mixed" else NVIDIA_GPU
    else:
        devices, resource = gpus, NVIDIA_GPU
    if shape.sharing in DEVICE_PLUGIN_SHARING_MODES:
        devices *= shape.replicas
        if shape.rename_shared:
            resource += SHARED_SUFFIX
    return Capacity({resource: devices}, shape.min_nodes, shape.max_nodes)


DRA_COUNTED_CLASSES = (NVIDIA_GPU_CLASS, NVIDIA_MIG_CLASS)
"""The DeviceClasses whose devices ``dra_devices`` counts. NVIDIA's VFIO passthrough class
publishes only with the alpha ``PassthroughSupport`` gate on: not counted."""


def dra_devices(shape: PoolShape) -> dict[str, int]:
    """What one node of a DRA pool publishes, per DeviceClass of NVIDIA's driver: its MIG
    devices (``mig.nvidia.com``; a GPU in MIG mode publishes no ``gpu`` device: NVIDIA's
    ``cmd/gpu-kubelet-plugin/nvlib.go`` ``enumerateGpusAndMigDevices``), else its GPUs
    (``gpu.nvidia.com``)."""
    if shape.mig_profile is not None:
        per_gpu = mig_instances_per_gpu(shape.gpu_model, shape.mig_profile)
        return {NVIDIA_MIG_CLASS: shape.gpus_per_node * per_gpu}
    return {NVIDIA_GPU_CLASS: shape.gpus_per_node}
