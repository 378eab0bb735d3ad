"""An AKS GPU pool: an Azure VM size of the catalogue, MIG by AKS's profile names on a size AKS
supports it on, Ubuntu under MIG, the NVMe cache on a size with NVMe disks, and a surge AKS
takes. Paths are relative to the pool (``plan.problems``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gpu_facts import AZURE_VM_SIZES, GpuModel, UnknownGpuFact, aks_mig_profile, azure_vm_size
from gpu_facts import gpu_model as catalogue_gpu
from gpu_facts.aks.mig import MIG_NOT_ON_AZURE_LINUX
from gpu_facts.aks.nodes import (
    AKS_AMD_GPUS_SOURCE,
    AKS_CDI_SOURCE,
    AMD_POOL_OS_SKUS,
    aks_runs_cdi,
    is_azure_linux,
)
from gpu_facts.cloud_limits import AKS_MAX_NODES_PER_POOL, Limit
from gpu_platform.settings import (
    AksGpuPoolSettings,
    AmdGpuOperatorSettings,
    CpuPoolSettings,
    GpuPoolSettings,
)

from ..cpu_pools import azure_size_problem
from ..machines import PoolMachine
from ..problems import Problem, join_path
from .nodes import surge_problems

MIG_SIZES = ", ".join(sorted(n for n, s in AZURE_VM_SIZES.items() if s.mig))
NVME_SIZES = ", ".join(sorted(n for n, s in AZURE_VM_SIZES.items() if s.has_nvme))


def aks_machine(pool: AksGpuPoolSettings) -> PoolMachine:
    """The pool's VM size as the catalogue has it (a pool the rules passed)."""
    size = azure_vm_size(pool.vm_size)
    return PoolMachine(
        catalogue_gpu(size.gpu_model),
        size.gpu_count,
        size.nvme_disk_count,
        size.nvme_disk_gib,
        nvme_cache=pool.nvme,
        virtual_function_gpus=True,
    )


def aks_mig(pool: AksGpuPoolSettings, model: GpuModel) -> str | None:
    """NVIDIA's name of the profile AKS names in ``mig.profile``."""
    return aks_mig_profile(model, pool.mig.profile) if pool.mig is not None else None


def aks_machine_problems(pool: AksGpuPoolSettings) -> Iterator[Problem]:
    try:
        azure_vm_size(pool.vm_size)
    except UnknownGpuFact as err:
        yield "vmSize", f"{err} (a GPU pool needs a size with GPUs)"


def aks_mig_problems(pool: AksGpuPoolSettings) -> Iterator[Problem]:
    """MIG on AKS: Ubuntu, a size AKS supports MIG on, a profile AKS names (BP-10, BP-12)."""
    if pool.mig is None:
        return
    if is_azure_linux(pool.os_sku):
        yield "osSku", MIG_NOT_ON_AZURE_LINUX
    try:
        size = azure_vm_size(pool.vm_size)
    except UnknownGpuFact:
        return  # reported by the machine rule
    if not size.mig:
        yield (
            "mig.profile",
            f"{size.name} ({size.gpu_model}) does not support MIG; MIG sizes: {MIG_SIZES}",
        )
        return
    try:
        aks_mig_profile(catalogue_gpu(size.gpu_model), pool.mig.profile)
    except UnknownGpuFact as err:
        yield "mig.profile", str(err)


def aks_amd_problems(pool: AksGpuPoolSettings) -> Iterator[Problem]:
    """What AKS refuses of a pool of AMD GPUs: an OS AKS does not support them on."""
    if pool.os_sku not in AMD_POOL_OS_SKUS:
        yield (
            "osSku",
            f'AKS does not support {pool.os_sku} with AMD GPUs ("AzureLinux and Windows are '
            f'not yet supported with AMD GPU", {AKS_AMD_GPUS_SOURCE}); use '
            f"{' or '.join(AMD_POOL_OS_SKUS)}",
        )


def aks_amd_layer_problems(settings: AmdGpuOperatorSettings) -> Iterator[Problem]:
    """AKS creates AMD pools without a driver: AMD's operator must install it (paths under
    ``amdGpuOperator``)."""
    if not settings.driver.enabled:
        yield (
            "driver.enabled",
            f"AKS creates AMD pools without a GPU driver (gpuProfile.driver None is enforced, "
            f"{AKS_AMD_GPUS_SOURCE}): the operator must install it",
        )


def aks_cpu_machine_problems(pool: CpuPoolSettings) -> Iterator[Problem]:
    """An AKS CPU pool's machine: an Azure VM size without GPUs."""
    if pool.vm_size is None:
        yield "vmSize", "required: an Azure VM size without GPUs, e.g. Standard_D4ds_v5"
    elif (problem := azure_size_problem(pool.vm_size)) is not None:
        yield "vmSize", problem
    if pool.instance_type is not None:
        yield "instanceType", "Alibaba instance types are for cloud 'ack'; use vmSize"


def aks_pool_size_limits(
    pool: GpuPoolSettings | CpuPoolSettings,
) -> list[tuple[str, int, Limit]]:
    """AKS bounds a pool's count and its autoscale range."""
    sizes: list[tuple[str, int, Limit]] = []
    if pool.count is not None:
        sizes.append(("count", pool.count, AKS_MAX_NODES_PER_POOL))
    if pool.autoscale is not None:
        sizes.append(("autoscale.max", pool.autoscale.max, AKS_MAX_NODES_PER_POOL))
    return [size for size in sizes if size[1] > size[2].value]


def aks_dra_node_problems(
    version: str, minor: tuple[int, int], dra: Sequence[tuple[str, GpuPoolSettings]]
) -> Iterator[Problem]:
    """AKS's nodes hand GPUs to DRA's containers only through CDI: a node image whose
    containerd turns it on (paths under each DRA pool's)."""
    for path, pool in dra:
        os_sku = getattr(pool, "os_sku", "Ubuntu")
        if not aks_runs_cdi(os_sku, minor):
            yield (
                join_path(path, "allocation"),
                f"AKS {version} nodes of osSku {os_sku} run containerd 1.7, which leaves "
                "CDI off, and NVIDIA's DRA driver hands GPUs to containers only through CDI "
                f"({AKS_CDI_SOURCE}): use Kubernetes 1.36 or newer, or (without MIG) osSku "
                "AzureLinux3 on 1.35",
            )


def aks_node_problems(pool: AksGpuPoolSettings) -> Iterator[Problem]:
    """The NVMe cache (BP-18) on a size with local NVMe disks, and a surge AKS takes."""
    if pool.nvme:
        try:
            size = azure_vm_size(pool.vm_size)
        except UnknownGpuFact:
            size = None
        if size is not None and not size.has_nvme:
            yield "nvme", f"{size.name} has no local NVMe data disks; sizes with NVMe: {NVME_SIZES}"
    yield from surge_problems(pool.upgrade)
