"""What makes a CPU pool: a machine type without GPUs, a size, labels that pull no GPU component
onto its nodes (zones: ``plan.zones``, label syntax: ``plan.kubernetes_values``). The stack
config's rules (under ``cpuPools[i]``) and the CPU pool components (under ``pool``) ask the same
questions here; paths are relative to the pool (``plan.problems``)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from gpu_facts import AZURE_VM_SIZES
from gpu_facts.ack.machine_types import has_gpus
from gpu_facts.aks.machine_types import GPU_SIZE_PREFIX
from gpu_facts.scheduling import POOL_LABEL
from gpu_platform.settings import Cloud, CpuPoolSettings

from .clouds import cloud_plan
from .node_pools import name_problems, reserved_label_problems, size_problems
from .problems import Problem, under

AZURE_SIZE_NAME = re.compile(r"^Standard_[A-Za-z][A-Za-z0-9_-]*$")
"""An Azure VM size as AKS takes it: ``Standard_D4ds_v5``, ``Standard_E8-4ds_v5``."""
ECS_TYPE_NAME = re.compile(r"^ecs\.[a-z0-9-]+\.[a-z0-9]+$")
"""An ECS instance type: ``ecs.g7.xlarge``, ``ecs.c7-x.2xlarge``."""
_GPU_SIZES = frozenset(name.lower() for name in AZURE_VM_SIZES)


def azure_size_problem(vm_size: str) -> str | None:
    """Why ``vm_size`` is no size for a pool without GPUs (system or CPU), or None."""
    lower = vm_size.lower()
    if lower.startswith(GPU_SIZE_PREFIX.lower()) or lower in _GPU_SIZES:
        return f"{vm_size} is a GPU (N-series) size; GPU nodes belong in a GPU pool"
    if not AZURE_SIZE_NAME.match(vm_size):
        return f"not an Azure VM size: {vm_size!r} (e.g. Standard_D4ds_v5)"
    return None


def ecs_type_problem(instance_type: str) -> str | None:
    """Why ``instance_type`` is no type for a pool without GPUs (system or CPU), or None."""
    if has_gpus(instance_type):
        return f"{instance_type} is a GPU instance type; GPU nodes belong in a GPU pool"
    if not ECS_TYPE_NAME.match(instance_type):
        return f"not an ECS instance type: {instance_type!r} (e.g. ecs.g7.xlarge)"
    return None


def machine_problems(cloud: Cloud, pool: CpuPoolSettings) -> Iterator[Problem]:
    """The cloud's kind of machine type (AKS: a VM size, ACK: an ECS type), without GPUs: its
    cloud's rule (``plan.clouds``)."""
    yield from cloud_plan(cloud).cpu_machine_problems(pool)


def cpu_pool_problems(cloud: Cloud, pool: CpuPoolSettings) -> list[Problem]:
    """Every problem of one CPU pool on its own: name, machine type, size, reserved labels.
    Zones and label syntax depend on where the pool goes (the region, the vSwitches): callers
    ask ``plan.zones`` and ``plan.kubernetes_values`` with what they know."""
    return [
        *name_problems(cloud, pool.name),
        *machine_problems(cloud, pool),
        *size_problems(pool.count, pool.autoscale),
        *reserved_label_problems(cloud, pool.labels, gpu_pool=False),
    ]


NO_CPU_POOLS_HERE = (
    "CPU pools are created on AKS and ACK; an existing cluster's nodes are its own "
    "(remove cpuPools)"
)


def cpu_pools_problems(cloud: Cloud, pools: Sequence[CpuPoolSettings]) -> Iterator[Problem]:
    """The config's CPU pools (paths under ``cpuPools``): none where the platform creates no
    nodes, else each pool's own problems (``cpu_pool_problems``) under its index."""
    if pools and not cloud_plan(cloud).creates_nodes:
        yield "", NO_CPU_POOLS_HERE
        return
    for i, pool in enumerate(pools):
        yield from under(f"[{i}]", cpu_pool_problems(cloud, pool))


def cpu_node_labels(name: str, labels: Mapping[str, str]) -> dict[str, str]:
    """Labels of a CPU pool's nodes: the configured ones and ours, the pool's name (a gateway
    can select the pool by it)."""
    return {**labels, POOL_LABEL: name}
