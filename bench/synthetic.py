"""Synthetic but valid platform configs of any size, built from the GPU catalog.

Pools cycle through four shapes (whole GPUs at a fixed count, autoscaled, MIG, time-sliced;
on ACK the MIG slot is ACK's MPS sharing instead) so every code path that depends on the pool
shape runs; machine types and MIG profiles come from ``gpu_facts`` rather than being written
here. Each workload namespace lists one or two pools, except every tenth, which leaves
``pools`` unset and so may use every unshared pool. What the platform has to create still
grows linearly: a namespace's quota has one entry per GPU resource name, not per pool. Any
per-resource cost that grows with size is therefore work that could be avoided.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml

from gpu_facts import AKS_MIG_TO_NVIDIA, AZURE_VM_SIZES, ECS_INSTANCE_TYPES, GPU_MODELS
from gpu_facts.vendors import NVIDIA_NAME
from gpu_platform.plan.pools import resolve_pool
from gpu_platform.settings import gpu_pool_settings

BenchCloud = Literal["existing", "aks", "ack"]
"""``existing`` and ``aks`` pools use Azure VM sizes, ``ack`` pools ECS instance types."""

SHAPES = ("fixed", "autoscale", "mig", "timeSlicing")


@dataclass(frozen=True, slots=True)
class Size:
    """How big a synthetic platform is."""

    pools: int
    namespaces: int

    @property
    def label(self) -> str:
        return f"{self.pools}p/{self.namespaces}ns"


SIZES: tuple[Size, ...] = (Size(1, 2), Size(10, 20), Size(100, 200))
"""The scale points of the issue: 1, 10, 100 GPU pools with 2, 20, 200 namespaces."""


def _mig_sizes() -> list[tuple[str, str]]:
    """(VM size, AKS MIG profile) pairs the catalog says are valid together."""
    pairs = []
    for name in sorted(AZURE_VM_SIZES):
        size = AZURE_VM_SIZES[name]
        profiles = AKS_MIG_TO_NVIDIA.get(size.gpu_model)
        if size.mig and profiles:
            pairs.append((name, sorted(profiles)[0]))
    return pairs


def _whole_gpu_sizes() -> list[str]:
    """NVIDIA's sizes without MIG (time-slicing takes some of them; AMD's GPUs share none)."""
    return sorted(
        name
        for name, size in AZURE_VM_SIZES.items()
        if not size.mig and GPU_MODELS[size.gpu_model].vendor == NVIDIA_NAME
    )


def _ack_pool(index: int, shape: str) -> dict[str, Any]:
    types = sorted(ECS_INSTANCE_TYPES)
    pool: dict[str, Any] = {"name": f"gpu{index}", "instanceType": types[index % len(types)]}
    if shape == "autoscale":
        pool["autoscale"] = {"min": 0, "max": 4}
    else:
        pool["count"] = 2
    if shape == "mig":  # no MIG on ACK: its own MPS sharing takes this slot
        pool["sharing"] = {"mode": "mps"}
    elif shape == "timeSlicing":
        pool["sharing"] = {"mode": "timeSlicing", "replicas": 4}
    return pool


def synthetic_pool(cloud: BenchCloud, index: int) -> dict[str, Any]:
    """The raw config of pool ``index``: its shape and machine type cycle deterministically."""
    shape = SHAPES[index % len(SHAPES)]
    if cloud == "ack":
        return _ack_pool(index, shape)
    whole = _whole_gpu_sizes()
    pool: dict[str, Any] = {"name": f"gpu{index}"}
    # An existing cluster's pool names the same machine in its own terms: machineType, and
    # NVIDIA's MIG profile names.
    machine = "vmSize" if cloud == "aks" else "machineType"
    if shape == "mig":
        mig = _mig_sizes()
        vm_size, profile = mig[index % len(mig)]
        if cloud != "aks":
            profile = AKS_MIG_TO_NVIDIA[AZURE_VM_SIZES[vm_size].gpu_model][profile]
        pool |= {machine: vm_size, "count": 2, "mig": {"profile": profile, "strategy": "mixed"}}
        return pool
    vm_size = whole[index % len(whole)]
    pool[machine] = vm_size
    if shape == "autoscale":
        pool["autoscale"] = {"min": 0, "max": 4}
    else:
        pool["count"] = 2
    if shape == "timeSlicing":
        pool["sharing"] = {"mode": "timeSlicing", "replicas": 4}
    if cloud == "aks" and AZURE_VM_SIZES[vm_size].has_nvme:
        pool["nvme"] = True
    pool["labels"] = {"team": f"team{index % 7}"}
    return pool


def _cluster(cloud: BenchCloud) -> dict[str, Any]:
    if cloud == "ack":
        return {
            "name": "bench-ack",
            "region": "cn-hangzhou",
            "vpc": {
                "vswitches": [{"zone": "cn-hangzhou-i", "cidr": "10.1.0.0/16"}],
                "podVswitches": [{"zone": "cn-hangzhou-i", "cidr": "10.11.0.0/16"}],
            },
            "maintenanceWindow": {"day": "Saturday", "startHour": 18},
        }
    if cloud == "aks":
        return {
            "name": "bench-aks",
            "location": "westeurope",
            "resourceGroup": {"name": "rg-bench"},
        }
    return {"name": "bench-existing"}


ACK_STACK = Path(__file__).resolve().parent.parent / "Pulumi.ack-dev.yaml"
"""The ACK sample stack: its pinned ack-ai-installer/ack-mps-control versions are reused."""


def _ack_sharing_pins() -> dict[str, Any]:
    config = (yaml.safe_load(ACK_STACK.read_text()) or {}).get("config") or {}
    pins = config.get("gpu-platform:ackGpuSharing")
    if not isinstance(pins, dict):
        raise ValueError(f"{ACK_STACK.name} pins no gpu-platform:ackGpuSharing versions")
    return pins


def synthetic_raw(cloud: BenchCloud, size: Size) -> dict[str, Any]:
    """The ``gpu-platform:`` keys of a valid platform with ``size`` pools and namespaces."""
    if size.pools < 1 or size.namespaces < 0:
        raise ValueError(f"a synthetic platform needs at least one pool, got {size}")
    pools = [synthetic_pool(cloud, i) for i in range(size.pools)]
    # The resource names each pool exposes, for per-resource quotas (resolved by our own code).
    exposed = [
        sorted(resolve_pool(cloud, gpu_pool_settings(cloud, p)).capacity.per_node) for p in pools
    ]
    workloads = []
    for i in range(size.namespaces):
        first, second = i % size.pools, (i + 1) % size.pools
        chosen = sorted({first, second})
        inference = i % 2 == 1
        workload: dict[str, Any] = {
            "name": f"{'serve' if inference else 'train'}-{i}",
            "type": "inference" if inference else "training",
            "pools": [pools[j]["name"] for j in chosen],
            "gpuQuota": 1,
            "traffic": {"egressCidrs": ["10.20.0.0/16"]},
        }
        if i % 4 == 3:
            workload["gpuQuota"] = {exposed[first][0]: 1}
        if i % 10 == 0:
            # The default, as the dev stack's training namespace has it: every unshared pool.
            del workload["pools"]
        if inference:
            workload["traffic"]["ingressNamespaces"] = ["gateway"]
        workloads.append(workload)
    raw = {"cloud": cloud, "cluster": _cluster(cloud), "gpuPools": pools, "workloads": workloads}
    if cloud == "ack":
        raw["ackGpuSharing"] = _ack_sharing_pins()
    return raw
