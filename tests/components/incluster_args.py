"""Typed args of the in-cluster components, built from a stack's resolved platform the way
``GpuPlatform`` builds them (tests construct components with args, not settings or facts)."""

from typing import Any, cast

from gpu_facts import AKS_MIG_TO_NVIDIA, AZURE_VM_SIZES
from gpu_platform.components.amd.gpu_operator import AmdGpuOperatorArgs
from gpu_platform.components.driver_check import DriverCheckArgs
from gpu_platform.components.gpu_workload_namespace import GpuWorkloadNamespaceArgs
from gpu_platform.components.nvidia.device_plugin import NvidiaDevicePluginArgs
from gpu_platform.components.nvidia.dra_driver import NvidiaDraDriverArgs
from gpu_platform.components.nvidia.gpu_operator import NvidiaGpuOperatorArgs
from gpu_platform.components.pool_args import GpuPoolArgs, gpu_pool_args
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.settings import WorkloadSettings


def pools_args(pools: ResolvedPlatform | list[PoolFacts]) -> list[GpuPoolArgs]:
    facts = list(pools.pools.values()) if isinstance(pools, ResolvedPlatform) else pools
    return [gpu_pool_args(pf) for pf in facts]


def pool_in(cloud: str, pf: PoolFacts) -> GpuPoolArgs:
    """A resolved pool as another cloud's pool args: the same GPUs per node, MIG profile,
    sharing and size, in that cloud's terms (an existing cluster's ``gpu``; an AKS size with
    those GPUs)."""
    if pf.cloud == cloud:
        return gpu_pool_args(pf)
    pool = pf.pool
    args: dict[str, Any] = pool.model_dump(
        exclude_none=True, include={"name", "count", "autoscale", "sharing", "labels"}
    )
    mig = pool.mig.model_dump() if pool.mig is not None else None
    if cloud == "existing":
        args["gpu"] = {"model": pf.gpu_model.name, "count": pf.gpus_per_node}
        if mig is not None:
            mig["profile"] = pf.mig_profile
    else:
        assert cloud == "aks", cloud
        args["vm_size"] = next(
            s.name
            for s in AZURE_VM_SIZES.values()
            if (s.gpu_model, s.gpu_count) == (pf.gpu_model.name, pf.gpus_per_node)
            and (s.mig or mig is None)
        )
        if mig is not None:
            table = AKS_MIG_TO_NVIDIA[pf.gpu_model.name]
            mig["profile"] = next(aks for aks, nvidia in table.items() if nvidia == pf.mig_profile)
    if mig is not None:
        args["mig"] = mig
    return cast(GpuPoolArgs, args)


def pools_in(cloud: str, p: ResolvedPlatform) -> list[GpuPoolArgs]:
    return [pool_in(cloud, pf) for pf in p.pools.values()]


def plugin_args(p: ResolvedPlatform, **fields: Any) -> NvidiaDevicePluginArgs:
    """The stack's ``devicePlugin`` settings, ``fields`` over them."""
    settings = p.settings.device_plugin.model_dump(exclude={"enabled"})
    return {
        "pools": pools_in(fields.get("cloud", p.settings.cloud), p),
        "cloud": p.settings.cloud,
        **settings,
        **fields,
    }  # type: ignore[typeddict-item]


def operator_args(p: ResolvedPlatform, **fields: Any) -> NvidiaGpuOperatorArgs:
    """The stack's ``gpuOperator`` settings, ``fields`` over them."""
    settings = p.settings.gpu_operator.model_dump(exclude={"enabled"})
    return {
        "pools": pools_in(fields.get("cloud", p.settings.cloud), p),
        "cloud": p.settings.cloud,
        **settings,
        **fields,
    }  # type: ignore[typeddict-item]


def amd_operator_args(p: ResolvedPlatform, **fields: Any) -> AmdGpuOperatorArgs:
    """The stack's ``amdGpuOperator`` settings as ``GpuPlatform`` passes them, ``fields`` over
    them."""
    settings = p.settings.amd_gpu_operator.model_dump(
        exclude_none=True, include={"version", "namespace", "driver", "images"}
    )
    return {
        "pools": pools_in(fields.get("cloud", p.settings.cloud), p),
        "cloud": p.settings.cloud,
        **settings,
        **fields,
    }  # type: ignore[typeddict-item]


def check_args(p: ResolvedPlatform, **fields: Any) -> DriverCheckArgs:
    """The stack's ``driverCheck`` settings, ``fields`` over them."""
    settings = p.settings.driver_check.model_dump(exclude_none=True)
    return {
        "pools": pools_in(fields.get("cloud", p.settings.cloud), p),
        "cloud": p.settings.cloud,
        **settings,
        **fields,
    }  # type: ignore[typeddict-item]


def namespace_args(
    workload: WorkloadSettings,
    pools: list[PoolFacts],
    cluster: list[str] | None = None,
    cloud: str | None = None,
) -> GpuWorkloadNamespaceArgs:
    """A workload's settings and its pools as args, as ``GpuPlatform`` maps them; the pools'
    cloud unless ``cloud`` says which (the cloud only decides what ``sharing.mode`` means)."""
    clouds = {pf.cloud for pf in pools} if cloud is None else {cloud}
    assert len(clouds) <= 1, f"pools of one cloud, not {clouds}"
    fields: dict[str, Any] = workload.model_dump(exclude_none=True, exclude={"pools", "gpu_quota"})
    quota = "gpu_quota_per_resource" if isinstance(workload.gpu_quota, dict) else "gpu_quota"
    fields[quota] = workload.gpu_quota
    fields["pools"] = pools_args(pools)
    if clouds:
        fields["cloud"] = clouds.pop()
    if cluster is not None:
        fields["cluster_gpu_resources"] = cluster
    return cast(GpuWorkloadNamespaceArgs, fields)


def dra_driver_args(p: ResolvedPlatform, **fields: Any) -> NvidiaDraDriverArgs:
    """The stack's ``draDriver`` settings and cluster version, ``fields`` over them."""
    settings = p.settings.dra_driver.model_dump()
    version = getattr(p.settings.cluster, "kubernetes_version", None)
    cluster = {"kubernetes_version": version} if version is not None else {}
    return {"pools": pools_args(p), "cloud": p.settings.cloud, **settings, **cluster, **fields}  # type: ignore[typeddict-item]
