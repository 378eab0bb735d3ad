"""What makes a CPU pool: a machine type without GPUs, labels that pull no GPU component onto
its nodes, zones the cloud takes. The stack config's rules and the pool components ask the same
questions here."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from gpu_facts import AZURE_VM_SIZES
from gpu_facts.aks_nodes import AKS_ZONES
from gpu_facts.alibaba_instance_types import has_gpus
from gpu_facts.azure_vm_sizes import GPU_SIZE_PREFIX
from gpu_facts.scheduling import ACK_GPU_SCHEDULE_LABEL, POOL_LABEL

AZURE_SIZE_NAME = re.compile(r"^Standard_[A-Za-z][A-Za-z0-9_-]*$")
"""An Azure VM size as AKS takes it: ``Standard_D4ds_v5``, ``Standard_E8-4ds_v5``."""
ECS_TYPE_NAME = re.compile(r"^ecs\.[a-z0-9-]+\.[a-z0-9]+$")
"""An ECS instance type: ``ecs.g7.xlarge``, ``ecs.c7-x.2xlarge``."""
_GPU_SIZES = frozenset(name.lower() for name in AZURE_VM_SIZES)
RESERVED_LABEL_DOMAINS = ("gpu-platform.io", "kubernetes.azure.com")
"""Our label domain (the pool label is ours) and the one AKS reserves (it refuses the pool)."""
GPU_LABEL_PREFIX = "nvidia.com/"
"""The NVIDIA device plugin, GFD and the driver checks select nodes by these labels."""


def azure_size_problem(vm_size: str) -> str | None:
    """Why ``vm_size`` is no size for a pool without GPUs (system or CPU), or None."""
    lower = vm_size.lower()
    if lower.startswith(GPU_SIZE_PREFIX.lower()) or lower in _GPU_SIZES:
        return f"{vm_size} is a GPU (N-series) size; GPU nodes belong in gpuPools"
    if not AZURE_SIZE_NAME.match(vm_size):
        return f"not an Azure VM size: {vm_size!r} (e.g. Standard_D4ds_v5)"
    return None


def ecs_type_problem(instance_type: str) -> str | None:
    """Why ``instance_type`` is no type for a pool without GPUs (system or CPU), or None."""
    if has_gpus(instance_type):
        return f"{instance_type} is a GPU instance type; GPU nodes belong in gpuPools"
    if not ECS_TYPE_NAME.match(instance_type):
        return f"not an ECS instance type: {instance_type!r} (e.g. ecs.g7.xlarge)"
    return None


def label_problems(labels: Mapping[str, str]) -> Iterator[tuple[str, str]]:
    """(label key, why not) of labels a CPU pool must not carry."""
    for key in labels:
        domain = key.rpartition("/")[0]
        if key == POOL_LABEL or domain.endswith(RESERVED_LABEL_DOMAINS):
            yield key, "set by the platform or AKS (reserved label domain); choose another key"
        elif key.startswith(GPU_LABEL_PREFIX) or key == ACK_GPU_SCHEDULE_LABEL:
            yield key, "GPU components select nodes by it; not on a CPU pool"


def aks_zone_problems(zones: Sequence[str]) -> Iterator[tuple[int, str]]:
    """(index, why not) of zones AKS does not take, or listed twice."""
    for i, zone in enumerate(zones):
        if zone in zones[:i]:
            yield i, f"zone {zone!r} is listed twice"
        elif zone not in AKS_ZONES:
            yield i, f"AKS zones are {', '.join(AKS_ZONES)}, not {zone!r}"


def cpu_node_labels(name: str, labels: Mapping[str, str]) -> dict[str, str]:
    """Labels of a CPU pool's nodes: the configured ones and ours, the pool's name (a gateway
    can select the pool by it)."""
    return {**labels, POOL_LABEL: name}
