"""Look-ups into the catalog with errors that list the valid choices."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .ack.machine_types import ECS_INSTANCE_TYPES
from .aks.machine_types import AZURE_CPU_VM_SIZES, AZURE_VM_SIZES
from .aks.mig import AKS_MIG_TO_NVIDIA
from .eks.machine_types import AWS_INSTANCE_TYPES
from .gke.machine_types import GCP_ACCELERATORS, GCP_GPU_MACHINE_TYPES
from .gpu_models import GPU_MODELS
from .models import (
    AwsInstanceType,
    AzureCpuVmSize,
    AzureVmSize,
    EcsInstanceType,
    GcpAccelerator,
    GpuModel,
    MigProfile,
)

# Azure treats VM size names case-insensitively; so do we.
_AZURE_BY_LOWER = {name.lower(): size for name, size in AZURE_VM_SIZES.items()}
_AZURE_CPU_BY_LOWER = {name.lower(): size for name, size in AZURE_CPU_VM_SIZES.items()}


class UnknownGpuFact(LookupError):
    """A name the catalog does not know; the message lists the valid names."""


def _choices(names: object) -> str:
    return ", ".join(sorted(names))  # type: ignore[call-overload]


def azure_vm_size(name: str) -> AzureVmSize:
    size = _AZURE_BY_LOWER.get(name.lower())
    if size is None:
        raise UnknownGpuFact(
            f"unknown GPU VM size {name!r}; known sizes: {_choices(AZURE_VM_SIZES)}"
        )
    return size


def azure_node_size(name: str) -> AzureVmSize | AzureCpuVmSize | None:
    """Any catalogued Azure size, GPU or not (for its local disks); None when unknown."""
    key = name.lower()
    return _AZURE_BY_LOWER.get(key) or _AZURE_CPU_BY_LOWER.get(key)


def ecs_instance_type(name: str) -> EcsInstanceType:
    it = ECS_INSTANCE_TYPES.get(name)
    if it is None:
        raise UnknownGpuFact(
            f"unknown GPU instance type {name!r}; known types: {_choices(ECS_INSTANCE_TYPES)}"
        )
    return it


def aws_instance_type(name: str) -> AwsInstanceType:
    it = AWS_INSTANCE_TYPES.get(name)
    if it is None:
        raise UnknownGpuFact(
            f"unknown GPU instance type {name!r}; known types: {_choices(AWS_INSTANCE_TYPES)}"
        )
    return it


def gcp_accelerator(name: str) -> GcpAccelerator:
    """A GKE accelerator type (``nvidia-l4``) or GPU machine type (``a2-highgpu-1g``)."""
    found = GCP_ACCELERATORS.get(name) or GCP_GPU_MACHINE_TYPES.get(name)
    if found is None:
        known = [*GCP_ACCELERATORS, *GCP_GPU_MACHINE_TYPES]
        raise UnknownGpuFact(f"unknown GCP GPU {name!r}; known: {_choices(known)}")
    return found


def gpu_model(name: str) -> GpuModel:
    model = GPU_MODELS.get(name)
    if model is None:
        raise UnknownGpuFact(f"unknown GPU model {name!r}; known models: {_choices(GPU_MODELS)}")
    return model


def aks_mig_profile(model: GpuModel, aks_profile: str) -> str:
    """The NVIDIA profile an AKS ``gpuInstanceProfile`` means on ``model``."""
    table = AKS_MIG_TO_NVIDIA.get(model.name)
    if table is None:
        raise UnknownGpuFact(f"{model.name} GPUs do not support MIG")
    profile = table.get(aks_profile)
    if profile is None:
        raise UnknownGpuFact(
            f"unknown MIG profile {aks_profile!r} on {model.name}; valid: {_choices(table)}"
        )
    return profile


def mig_profile(model: GpuModel, name: str) -> MigProfile:
    """The MIG profile ``name`` (NVIDIA's name, ``1g.5gb``) of ``model``."""
    for profile in model.mig_profiles:
        if profile.name == name:
            return profile
    if not model.mig_profiles:
        raise UnknownGpuFact(f"{model.name} GPUs do not support MIG")
    offered = ", ".join(p.name for p in model.mig_profiles)
    raise UnknownGpuFact(f"{model.name} has no MIG profile {name!r}; offered: {offered}")


@dataclass(frozen=True, slots=True)
class CatalogueMachine:
    """A machine type of some cloud's catalogue, as an existing cluster's pool names it."""

    name: str
    """The name as its catalogue spells it."""
    service: str
    """The catalogue it is in: ``aks``, ``ack``, ``eks`` or ``gke``."""
    gpu_model: str
    gpu_count: int
    nvme_disk_count: int = 0
    nvme_disk_gib: int = 0


@cache
def catalogue_machines() -> dict[str, CatalogueMachine]:
    """Every GPU machine type of every catalogue by name (the names never collide:
    ``tests/unit/test_gpu_facts.py``); GKE's accelerator types are not machines."""
    machines = [
        *(
            CatalogueMachine(
                s.name, "aks", s.gpu_model, s.gpu_count, s.nvme_disk_count, s.nvme_disk_gib
            )
            for s in AZURE_VM_SIZES.values()
        ),
        *(
            CatalogueMachine(t.name, "ack", t.gpu_model, t.gpu_count)
            for t in ECS_INSTANCE_TYPES.values()
        ),
        *(
            CatalogueMachine(t.name, "eks", t.gpu_model, t.gpu_count)
            for t in AWS_INSTANCE_TYPES.values()
        ),
        *(
            CatalogueMachine(m.name, "gke", m.gpu_model, m.gpu_count)
            for m in GCP_GPU_MACHINE_TYPES.values()
        ),
    ]
    return {m.name: m for m in machines}


def catalogue_machine(name: str) -> CatalogueMachine:
    """The machine type ``name`` of whichever cloud's catalogue has it (Azure's names in any
    case, as Azure takes them)."""
    machines = catalogue_machines()
    found = machines.get(name)
    if found is None and (size := _AZURE_BY_LOWER.get(name.lower())) is not None:
        found = machines[size.name]
    if found is None:
        raise UnknownGpuFact(
            f"unknown GPU machine type {name!r}: not an EKS instance type, GKE machine type, "
            "Azure VM size or ECS instance type of the catalogue (docs/gpu-facts.md); or give "
            "gpu: {model, count}"
        )
    return found
