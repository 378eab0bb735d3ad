"""An ACK GPU pool: an ECS instance type of the catalogue, no MIG, and ACK's own sharing modes
(the ``ack.node.gpu.schedule`` label's values). Paths are relative to the pool."""

from __future__ import annotations

from collections.abc import Iterator
from typing import get_args

from gpu_facts import GpuModel, UnknownGpuFact, ecs_instance_type
from gpu_facts import gpu_model as catalogue_gpu
from gpu_facts.capacity import ACK_SHARING_MODES, SharingMode
from gpu_facts.scheduling import ACK_GPU_SCHEDULE_VALUES
from gpu_platform.settings import AckGpuPoolSettings

from ..machines import PoolMachine
from ..problems import Problem

ACK_MPS_MODE: SharingMode = "ackMps"
"""ACK's MPS sharing mode, as the capacity model names it."""
ACK_MODES: dict[str, SharingMode] = {
    ACK_GPU_SCHEDULE_VALUES[mode]: mode
    for mode in get_args(SharingMode)
    if mode in ACK_SHARING_MODES
}
"""``sharing.mode`` on ACK -> ACK's sharing mode: the config takes the ``ack.node.gpu.schedule``
label value (``mps``, ``cgpu``, ``share``)."""
NO_MIG_ON_ACK = "MIG pools are supported on AKS (cloud 'azure') and existing clusters"


def ack_machine(pool: AckGpuPoolSettings) -> PoolMachine:
    it = ecs_instance_type(pool.instance_type)
    return PoolMachine(catalogue_gpu(it.gpu_model), it.gpu_count)


def ack_mig(pool: AckGpuPoolSettings, model: GpuModel) -> str | None:
    return None  # refused by ack_mig_problems


def ack_sharing(mode: str) -> SharingMode:
    """What ACK does with ``sharing.mode``: its own modes, else time-slicing."""
    return ACK_MODES.get(mode, "timeSlicing")


def ack_machine_problems(pool: AckGpuPoolSettings) -> Iterator[Problem]:
    try:
        ecs_instance_type(pool.instance_type)
    except UnknownGpuFact as err:
        yield "instanceType", f"{err} (a GPU pool needs a type with GPUs)"


def ack_mig_problems(pool: AckGpuPoolSettings) -> Iterator[Problem]:
    if pool.mig is not None:
        yield "mig", NO_MIG_ON_ACK


def ack_node_problems(pool: AckGpuPoolSettings) -> Iterator[Problem]:
    return iter(())
