"""A GPU pool of an existing cluster, in its own terms: the GPU model and count per node, or a
machine type of the catalogue of the cloud it runs on (EKS, GKE, AKS, ACK); MIG by NVIDIA's
profile names, any profile the GPU offers. Paths are relative to the pool."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_facts import GpuModel, UnknownGpuFact, catalogue_machine, mig_profile
from gpu_facts import gpu_model as catalogue_gpu
from gpu_platform.settings import ExistingGpuPoolSettings

from ..machines import PoolMachine
from ..problems import Problem

GPU_OR_MACHINE = "give gpu ({model, count} per node) or machineType, not both"
NODES_REQUIRED = "required: gpu ({model, count} per node) or machineType says what the nodes have"


def existing_machine(pool: ExistingGpuPoolSettings) -> PoolMachine:
    """What the nodes have (a pool the rules passed)."""
    if pool.gpu is not None:
        return PoolMachine(catalogue_gpu(pool.gpu.model), pool.gpu.count)
    assert pool.machine_type is not None, "the rules require gpu or machineType"
    machine = catalogue_machine(pool.machine_type)
    return PoolMachine(
        catalogue_gpu(machine.gpu_model),
        machine.gpu_count,
        machine.nvme_disk_count,
        machine.nvme_disk_gib,
        virtual_function_gpus=machine.service == "aks",
    )


def existing_mig(pool: ExistingGpuPoolSettings, model: GpuModel) -> str | None:
    """The profile is NVIDIA's name already."""
    return pool.mig.profile if pool.mig is not None else None


def _model(pool: ExistingGpuPoolSettings) -> GpuModel | None:
    try:
        return existing_machine(pool).gpu_model
    except (UnknownGpuFact, AssertionError):
        return None


def existing_machine_problems(pool: ExistingGpuPoolSettings) -> Iterator[Problem]:
    if pool.gpu is None and pool.machine_type is None:
        yield "gpu", NODES_REQUIRED
    elif pool.gpu is not None and pool.machine_type is not None:
        yield "", GPU_OR_MACHINE
    elif pool.gpu is not None:
        try:
            catalogue_gpu(pool.gpu.model)
        except UnknownGpuFact as err:
            yield "gpu.model", str(err)
    elif pool.machine_type is not None:
        try:
            catalogue_machine(pool.machine_type)
        except UnknownGpuFact as err:
            yield "machineType", str(err)


def existing_mig_problems(pool: ExistingGpuPoolSettings) -> Iterator[Problem]:
    """A profile the nodes' GPU offers, by NVIDIA's name (``1g.10gb``)."""
    if pool.mig is None:
        return
    model = _model(pool)
    if model is None:
        return  # reported by the machine rule
    try:
        mig_profile(model, pool.mig.profile)
    except UnknownGpuFact as err:
        yield "mig.profile", str(err)


def existing_node_problems(pool: ExistingGpuPoolSettings) -> Iterator[Problem]:
    return iter(())
