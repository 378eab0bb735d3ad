"""The capacity model: what a GPU pool exposes to the scheduler, per node and in total."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .models import GpuModel
from .scheduling import ALIYUN_GPU_MEM, NVIDIA_GPU, SHARED_SUFFIX, mig_resource

MigStrategy = Literal["single", "mixed"]
SharingMode = Literal["timeSlicing", "mps", "ackMps", "ackCgpu", "ackShare"]
ACK_SHARING_MODES: frozenset[str] = frozenset({"ackMps", "ackCgpu", "ackShare"})


@dataclass(frozen=True, slots=True)
class PoolShape:
    """The facts about a pool that decide its capacity."""

    gpu_model: GpuModel
    gpus_per_node: int
    min_nodes: int
    max_nodes: int
    mig_profile: str | None = None
    """NVIDIA profile name applied to every GPU (``1g.5gb``), or None."""
    mig_strategy: MigStrategy | None = None
    sharing: SharingMode | None = None
    replicas: int = 1
    """Replicas per device for time-slicing and device-plugin MPS."""
    rename_shared: bool = True
    """Device-plugin ``renameByDefault``: shared resources get the ``.shared`` suffix."""


@dataclass(frozen=True, slots=True)
class Capacity:
    """Allocatable GPU resources of a pool."""

    per_node: dict[str, int]
    min_nodes: int
    max_nodes: int

    @property
    def total(self) -> dict[str, int]:
        """What the pool offers at its largest size (what a quota can ever use)."""
        return {name: count * self.max_nodes for name, count in self.per_node.items()}

    def as_output(self) -> dict[str, object]:
        """The ``gpuCapacity`` stack-output shape of one pool."""
        nodes: object = (
            self.max_nodes
            if self.min_nodes == self.max_nodes
            else {"min": self.min_nodes, "max": self.max_nodes}
        )
        return {"perNode": dict(self.per_node), "nodes": nodes, "total": self.total}


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
    if shape.sharing in ACK_SHARING_MODES:
        per_node = {ALIYUN_GPU_MEM: shape.gpu_model.memory_gib * gpus}
    else:
        if shape.mig_profile is not None:
            devices = gpus * mig_instances_per_gpu(shape.gpu_model, shape.mig_profile)
            resource = (
                mig_resource(shape.mig_profile) if shape.mig_strategy == "mixed" else NVIDIA_GPU
            )
        else:
            devices, resource = gpus, NVIDIA_GPU
        if shape.sharing in ("timeSlicing", "mps"):
            devices *= shape.replicas
            if shape.rename_shared:
                resource += SHARED_SUFFIX
        per_node = {resource: devices}
    return Capacity(per_node, shape.min_nodes, shape.max_nodes)
