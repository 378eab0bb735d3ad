"""What a GPU pool's nodes are, whichever way its cloud describes them: the answer each cloud's
``pools`` module gives (``plan.clouds``) and the capacity model starts from."""

from __future__ import annotations

from dataclasses import dataclass

from gpu_facts import GpuModel


@dataclass(frozen=True, slots=True)
class PoolMachine:
    """A pool's nodes: the GPU model and how many per node, their local NVMe disks."""

    gpu_model: GpuModel
    gpus_per_node: int
    nvme_disk_count: int = 0
    nvme_disk_gib: int = 0
    nvme_cache: bool = False
    """Whether the pool offers its NVMe disks as the ephemeral cache (AKS's ``nvme``)."""
    virtual_function_gpus: bool = False
    """Whether the nodes are Azure VMs, whose GPUs are virtual functions (AMD's driver needs
    parameters for them)."""
