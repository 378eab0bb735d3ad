"""What makes a GPU pool sound on its cloud: a machine type of the catalog, a size, MIG and sharing
the machine and the cloud support, NVMe where the size has it, labels the platform does not set
itself, and on AKS an upgrade surge AKS takes.

The stack config's rules (under ``gpuPools[i]``) and every component that takes GPU pools (under
``pool`` or ``pools[i]``) ask the same questions here, and get the same messages; the policy
pack reads the same facts (``gpu_facts``). Paths are relative to the pool (``plan.problems``).
A pool none of ``gpu_pool_problems`` faults resolves (``plan.pools.resolve_pool``).
"""

from __future__ import annotations

from collections.abc import Iterator

from gpu_facts import (
    AZURE_VM_SIZES,
    UnknownGpuFact,
    aks_mig_profile,
    azure_vm_size,
    ecs_instance_type,
    gpu_model,
)
from gpu_facts.aks.mig import MIG_NO_AUTOSCALER, MIG_NOT_ON_AZURE_LINUX
from gpu_facts.aks.nodes import is_azure_linux
from gpu_platform.settings import Cloud, GpuPoolSettings

from .aks.nodes import surge_problems
from .dra_pools import dra_pool_problems
from .node_pools import name_problems, reserved_label_problems, size_problems
from .pools import ACK_MODES, PLUGIN_MODES
from .problems import Problem

MACHINE_REQUIRED = "required: the machine type decides GPUs, MIG and NVMe"
MIG_SIZES = ", ".join(sorted(n for n, s in AZURE_VM_SIZES.items() if s.mig))
NVME_SIZES = ", ".join(sorted(n for n, s in AZURE_VM_SIZES.items() if s.has_nvme))


def machine_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """A name the system pool does not hold, and the cloud's kind of machine type, known to the
    GPU catalog (``existing`` takes either kind, to describe the nodes)."""
    yield from name_problems(cloud, pool.name)
    if cloud == "azure" and pool.vm_size is None:
        yield "vmSize", MACHINE_REQUIRED
    elif cloud == "alicloud" and pool.instance_type is None:
        yield "instanceType", MACHINE_REQUIRED
    elif cloud == "existing" and pool.vm_size is None and pool.instance_type is None:
        yield "vmSize", MACHINE_REQUIRED
    if cloud == "azure" and pool.instance_type is not None:
        yield "instanceType", "Alibaba instance types are for cloud 'alicloud'; use vmSize"
    if cloud == "alicloud" and pool.vm_size is not None:
        yield "vmSize", "Azure VM sizes are for cloud 'azure'; use instanceType"
    if cloud == "existing" and pool.vm_size is not None and pool.instance_type is not None:
        yield "", "give vmSize or instanceType, not both"
    if pool.vm_size is not None and cloud != "alicloud":
        try:
            azure_vm_size(pool.vm_size)
        except UnknownGpuFact as err:
            yield "vmSize", f"{err} (a GPU pool needs a size with GPUs)"
    if pool.instance_type is not None and cloud != "azure":
        try:
            ecs_instance_type(pool.instance_type)
        except UnknownGpuFact as err:
            yield "instanceType", f"{err} (a GPU pool needs a type with GPUs)"


def mig_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """MIG (BP-10, BP-12): on AKS or an existing cluster, a fixed size, Ubuntu, no MPS on top, a
    size whose GPU offers the profile."""
    if pool.mig is None:
        return
    if cloud == "alicloud":
        yield "mig", "MIG pools are supported on AKS (cloud 'azure') and existing clusters"
    if pool.autoscale is not None:
        yield "autoscale", MIG_NO_AUTOSCALER
    if is_azure_linux(pool.os_sku):
        yield "osSku", MIG_NOT_ON_AZURE_LINUX
    if pool.sharing is not None and pool.sharing.mode == "mps":
        yield "sharing.mode", "MPS cannot share MIG devices (device plugin 0.16+ refuses it)"
    try:
        if pool.vm_size is not None:
            size = azure_vm_size(pool.vm_size)
            if not size.mig:
                yield (
                    "mig.profile",
                    f"{size.name} ({size.gpu_model}) does not support MIG; MIG sizes: {MIG_SIZES}",
                )
                return
            model = size.gpu_model
        elif pool.instance_type is not None and cloud == "existing":
            model = ecs_instance_type(pool.instance_type).gpu_model
        else:
            return
    except UnknownGpuFact:
        return  # reported by machine_problems
    try:
        aks_mig_profile(gpu_model(model), pool.mig.profile)
    except UnknownGpuFact as err:
        yield "mig.profile", str(err)


def sharing_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """A sharing mode the cloud offers, with the replicas it needs (ACK's own modes split GPU
    memory and take none). What sharing needs of the cluster (ACK Pro, the plugin's version)
    the stack config judges with the cluster."""
    if pool.sharing is None:
        return
    mode = pool.sharing.mode
    if mode not in PLUGIN_MODES and cloud != "alicloud":
        yield "sharing.mode", f"'{mode}' is an ACK sharing mode (cloud 'alicloud')"
    if cloud == "alicloud" and mode in ACK_MODES:
        if pool.sharing.replicas is not None:
            yield "sharing.replicas", "ACK sharing splits GPU memory: pods ask aliyun.com/gpu-mem"
        return
    if pool.sharing.replicas is None:
        yield "sharing.replicas", f"required for {mode}: how many pods share one GPU"


def nvme_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """The NVMe cache (BP-18): Azure Container Storage on a size with local NVMe disks."""
    if not pool.nvme:
        return
    if cloud != "azure":
        yield "nvme", "the NVMe cache uses Azure Container Storage (cloud 'azure')"
        return
    if pool.vm_size is None:
        return
    try:
        size = azure_vm_size(pool.vm_size)
    except UnknownGpuFact:
        return
    if not size.has_nvme:
        yield "nvme", f"{size.name} has no local NVMe data disks; sizes with NVMe: {NVME_SIZES}"


def label_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """Labels the platform sets itself (on every cloud), and AKS's own label domain."""
    return reserved_label_problems(cloud, pool.labels, gpu_pool=True)


def aks_surge_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """AKS's upgrade surge (other clouds upgrade in place and ignore it)."""
    if cloud == "azure":
        yield from surge_problems(pool.upgrade)


def gpu_pool_problems(cloud: Cloud, pool: GpuPoolSettings) -> list[Problem]:
    """Every problem of one GPU pool on its own, in the order the stack config reports them."""
    return [
        *machine_problems(cloud, pool),
        *size_problems(pool.count, pool.autoscale),
        *mig_problems(cloud, pool),
        *sharing_problems(cloud, pool),
        *nvme_problems(cloud, pool),
        *label_problems(cloud, pool),
        *aks_surge_problems(cloud, pool),
        *dra_pool_problems(cloud, pool),
    ]
