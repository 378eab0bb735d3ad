"""An ACK GPU pool: an ECS instance type of the catalogue, no MIG, and ACK's own sharing modes
(the ``ack.node.gpu.schedule`` label's values). Paths are relative to the pool."""

from __future__ import annotations

from collections.abc import Iterator
from typing import get_args

from gpu_facts import GpuModel, UnknownGpuFact, ecs_instance_type
from gpu_facts import gpu_model as catalogue_gpu
from gpu_facts.capacity import ACK_SHARING_MODES, SharingMode
from gpu_facts.cloud_limits import ACK_MAX_AUTOSCALE_SIZE, Limit
from gpu_facts.dra import DRA_GA_MINOR
from gpu_facts.kubernetes_versions import ACK_VERSIONS
from gpu_facts.scheduling import (
    ACK_DEVICE_PLUGIN_DAEMONSET_SINCE,
    ACK_GPU_SCHEDULE_LABEL,
    ACK_GPU_SCHEDULE_VALUES,
)
from gpu_platform.settings import (
    AckClusterSettings,
    AckGpuPoolSettings,
    CpuPoolSettings,
    GpuPoolSettings,
    PlatformSettings,
)

from ..cpu_pools import ecs_type_problem
from ..kubernetes_versions import minor_version
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
NO_MIG_ON_ACK = "MIG pools are supported on AKS (cloud 'aks') and existing clusters"


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


GPU_OPERATOR_ON_ACK = (
    "not on ACK: ACK GPU nodes come with an NVIDIA driver, and the GPU Operator would "
    "install a second one; use the device plugin (devicePlugin.enabled)"
)


def ack_cpu_machine_problems(pool: CpuPoolSettings) -> Iterator[Problem]:
    """An ACK CPU pool's machine: an ECS type without GPUs."""
    if pool.instance_type is None:
        yield "instanceType", "required: an ECS type without GPUs, e.g. ecs.g7.xlarge"
    elif (problem := ecs_type_problem(pool.instance_type)) is not None:
        yield "instanceType", problem
    if pool.vm_size is not None:
        yield "vmSize", "Azure VM sizes are for cloud 'aks'; use instanceType"


def ack_pool_size_limits(
    pool: GpuPoolSettings | CpuPoolSettings,
) -> list[tuple[str, int, Limit]]:
    """ACK documents a range only for autoscaling; a fixed count is bounded by the cluster's
    limit."""
    if pool.autoscale is not None and pool.autoscale.max > ACK_MAX_AUTOSCALE_SIZE.value:
        return [("autoscale.max", pool.autoscale.max, ACK_MAX_AUTOSCALE_SIZE)]
    return []


def newest_version_serves_dra() -> bool:
    """ACK creates a cluster without a version on its newest, which may serve DRA."""
    newest = minor_version(ACK_VERSIONS.newest)
    return newest is not None and newest >= DRA_GA_MINOR


def ack_node_problems(pool: AckGpuPoolSettings) -> Iterator[Problem]:
    return iter(())


def logstore_name_problem(namespace: str) -> str | None:
    """Container logs go to one SLS logstore per namespace, named after it."""
    from ..observability import logstore_name_problem as rule  # the rule lives with its kind

    return rule(namespace)


def ack_plugin_pool_problems(
    settings: PlatformSettings, cluster: AckClusterSettings
) -> Iterator[Problem]:
    """ACK GPU pools (paths from the config's root): the ``ack.node.gpu.schedule`` label is
    ours, and pools served by the NVIDIA device plugin need it, with ACK's own plugin turned
    off by that label (1.32+)."""
    plugin_pools = []
    for i, pool in enumerate(settings.gpu_pools):
        if ACK_GPU_SCHEDULE_LABEL in pool.labels:
            yield (
                f"gpuPools[{i}].labels.{ACK_GPU_SCHEDULE_LABEL}",
                "set by the platform from sharing.mode; remove it",
            )
        mode = None if pool.sharing is None else ack_sharing(pool.sharing.mode)
        if mode not in ACK_SHARING_MODES:
            plugin_pools.append(pool.name)
    if not plugin_pools:
        return
    names = ", ".join(plugin_pools)
    # With the GPU Operator on, its own (ACK) rule says what to do instead.
    if not settings.device_plugin.enabled and not settings.gpu_operator.enabled:
        yield (
            "devicePlugin.enabled",
            f"pools {names} use the NVIDIA device plugin (ACK's own is turned off on them); "
            "enable it, or share those pools the ACK way (sharing.mode mps, cgpu or share)",
        )
    since = minor_version(ACK_DEVICE_PLUGIN_DAEMONSET_SINCE)
    version = cluster.kubernetes_version
    minor = None if version is None else minor_version(version)  # None: malformed, refused
    if minor is not None and since is not None and minor < since:
        yield (
            "cluster.kubernetesVersion",
            f"pools {names} need {ACK_DEVICE_PLUGIN_DAEMONSET_SINCE}+: before it ACK's device "
            "plugin is a static pod on every GPU node and would run next to the NVIDIA plugin",
        )
