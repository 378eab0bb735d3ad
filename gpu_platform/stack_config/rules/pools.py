"""Rules of each GPU pool: machine type, size, MIG, sharing, NVMe, labels."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from gpu_facts import (
    AZURE_VM_SIZES,
    UnknownGpuFact,
    aks_mig_profile,
    azure_vm_size,
    ecs_instance_type,
    gpu_model,
)
from gpu_facts.ack_components import ACK_PRO_PREFIX
from gpu_facts.device_plugin_chart import MIN_VERSION_MPS, at_least
from gpu_facts.scheduling import DEVICE_PLUGIN_CONFIG_LABEL, GPU_PRESENT_LABEL, POOL_LABEL
from gpu_platform.plan.pools import ACK_MODES, PLUGIN_MODES
from gpu_platform.settings import (
    SYSTEM_POOL_NAME,
    AckClusterSettings,
    CpuPoolSettings,
    GpuPoolSettings,
)

from .base import ConfigUnderCheck, Problem, Rule, valid_version

_MIG_SIZES = ", ".join(sorted(n for n, s in AZURE_VM_SIZES.items() if s.mig))


_NVME_SIZES = ", ".join(sorted(n for n, s in AZURE_VM_SIZES.items() if s.has_nvme))


def _pool_machine(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    if pool.name == SYSTEM_POOL_NAME and cfg.cloud in ("azure", "alicloud"):
        yield f"{at}.name", f"{SYSTEM_POOL_NAME!r} is the name of the cluster's system pool"
    if cfg.cloud == "azure" and pool.instance_type is not None:
        yield f"{at}.instanceType", "Alibaba instance types are for cloud 'alicloud'; use vmSize"
    if cfg.cloud == "alicloud" and pool.vm_size is not None:
        yield f"{at}.vmSize", "Azure VM sizes are for cloud 'azure'; use instanceType"
    if pool.vm_size is None and pool.instance_type is None:
        key = "instanceType" if cfg.cloud == "alicloud" else "vmSize"
        yield f"{at}.{key}", "required: the machine type decides GPUs, MIG and NVMe"
    if pool.vm_size is not None and pool.instance_type is not None and cfg.cloud == "existing":
        yield at, "give vmSize or instanceType, not both"
    if pool.vm_size is not None and cfg.cloud != "alicloud":
        try:
            azure_vm_size(pool.vm_size)
        except UnknownGpuFact as err:
            yield f"{at}.vmSize", f"{err} (a GPU pool needs a size with GPUs)"
    if pool.instance_type is not None and cfg.cloud != "azure":
        try:
            ecs_instance_type(pool.instance_type)
        except UnknownGpuFact as err:
            yield f"{at}.instanceType", f"{err} (a GPU pool needs a type with GPUs)"


def _pool_size(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    if (pool.count is None) == (pool.autoscale is None):
        yield at, "give exactly one of count or autoscale"
    if pool.autoscale is not None and pool.autoscale.min > pool.autoscale.max:
        yield f"{at}.autoscale.min", "must not exceed autoscale.max"


def _pool_mig(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    if pool.mig is None:
        return
    if cfg.cloud == "alicloud":
        yield f"{at}.mig", "MIG pools are supported on AKS (cloud 'azure') and existing clusters"
    if pool.autoscale is not None:
        yield (
            f"{at}.autoscale",
            "MIG pools do not support the cluster autoscaler; use count (BP-12)",
        )
    if pool.os_sku.startswith("AzureLinux"):
        yield f"{at}.osSku", "MIG is not supported on Azure Linux; use Ubuntu (BP-12)"
    if pool.sharing is not None and pool.sharing.mode == "mps":
        yield f"{at}.sharing.mode", "MPS cannot share MIG devices (device plugin 0.16+ refuses it)"
    if pool.vm_size is None:
        return
    try:
        size = azure_vm_size(pool.vm_size)
    except UnknownGpuFact:
        return  # reported by the machine rule
    if not size.mig:
        yield (
            f"{at}.mig.profile",
            f"{size.name} ({size.gpu_model}) does not support MIG; MIG sizes: {_MIG_SIZES}",
        )
        return
    try:
        aks_mig_profile(gpu_model(size.gpu_model), pool.mig.profile)
    except UnknownGpuFact as err:
        yield f"{at}.mig.profile", str(err)


def _pool_sharing(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    if pool.sharing is None:
        return
    at = f"{at}.sharing"
    mode = pool.sharing.mode
    ack_native = cfg.cloud == "alicloud" and mode in ACK_MODES
    if mode not in PLUGIN_MODES and cfg.cloud != "alicloud":
        yield f"{at}.mode", f"'{mode}' is an ACK sharing mode (cloud 'alicloud')"
    if ack_native:
        if pool.sharing.replicas is not None:
            yield f"{at}.replicas", "ACK sharing splits GPU memory: pods ask aliyun.com/gpu-mem"
        if isinstance(
            cfg.settings.cluster, AckClusterSettings
        ) and not cfg.settings.cluster.cluster_spec.startswith(ACK_PRO_PREFIX):
            yield (
                "cluster.clusterSpec",
                f"ACK GPU sharing ('{mode}') needs ACK Pro ({ACK_PRO_PREFIX}*)",
            )
        return
    if pool.sharing.replicas is None:
        yield f"{at}.replicas", f"required for {mode}: how many pods share one GPU"
    version = cfg.settings.device_plugin.version
    if mode == "mps" and valid_version(version) and not at_least(version, MIN_VERSION_MPS):
        yield "devicePlugin.version", f"MPS sharing needs device plugin {MIN_VERSION_MPS}+"


def _pool_nvme(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    if not pool.nvme:
        return
    at = f"{at}.nvme"
    if cfg.cloud != "azure":
        yield at, "the NVMe cache uses Azure Container Storage (cloud 'azure')"
        return
    if pool.vm_size is None:
        return
    try:
        size = azure_vm_size(pool.vm_size)
    except UnknownGpuFact:
        return
    if not size.has_nvme:
        yield at, f"{size.name} has no local NVMe data disks; sizes with NVMe: {_NVME_SIZES}"


def pool_labels(
    cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings | CpuPoolSettings
) -> Iterator[Problem]:
    """Labels the platform sets itself (on every cloud), and AKS's own label domain."""
    reserved = {GPU_PRESENT_LABEL, DEVICE_PLUGIN_CONFIG_LABEL, POOL_LABEL}
    for key in pool.labels:
        domain = key.rpartition("/")[0]
        # Our own label domain and AKS's are set by the platform; a user value would fight it.
        if key in reserved or domain.endswith("gpu-platform.io"):
            yield f"{at}.labels.{key}", "set by the platform; choose another key"
        elif cfg.cloud == "azure" and domain.endswith("kubernetes.azure.com"):
            yield f"{at}.labels.{key}", "AKS reserves the kubernetes.azure.com label domain"


PoolCheck = Callable[[ConfigUnderCheck, str, GpuPoolSettings], Iterator[Problem]]
"""A check of one pool: the config, the pool's key path and its settings."""


def per_pool(pool_check: PoolCheck) -> Rule:
    """A rule that runs a one-pool check on each pool under check."""

    def rule(cfg: ConfigUnderCheck) -> Iterator[Problem]:
        for i, pool in cfg.pools:
            yield from pool_check(cfg, f"gpuPools[{i}]", pool)

    rule.__name__ = pool_check.__name__.lstrip("_")
    return rule


def duplicate_names(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """Pool names are unique across GPU and CPU pools: AKS and ACK name pools per cluster."""
    gpu = Counter(p.name for p in cfg.settings.gpu_pools)
    for name, n in gpu.items():
        if n > 1:
            yield "gpuPools", f"duplicate name {name!r}"
    cpu = Counter(p.name for p in cfg.settings.cpu_pools)
    for i, pool in enumerate(cfg.settings.cpu_pools):
        if pool.name in gpu:
            yield f"cpuPools[{i}].name", f"{pool.name!r} is also the name of a GPU pool"
    for name, n in cpu.items():
        if n > 1:
            yield "cpuPools", f"duplicate name {name!r}"


POOL_RULES: tuple[Rule, ...] = tuple(
    per_pool(check)
    for check in (_pool_machine, _pool_size, _pool_mig, _pool_sharing, _pool_nvme, pool_labels)
)
"""Rules of one pool each: a pool they find no problem in is sound, and resolved."""
