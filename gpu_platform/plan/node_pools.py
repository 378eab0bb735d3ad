"""Rules every node pool the platform creates shares, GPU or CPU: a name the system pool does not
hold, a size (a fixed count or an autoscaling range), and no label the platform or the cloud
sets itself. Paths are relative to the pool (``plan.problems``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping

from gpu_facts.aks.nodes import AKS_LABEL_DOMAIN
from gpu_facts.kubernetes_syntax import RESERVED_LABEL_DOMAINS
from gpu_facts.scheduling import (
    ACK_GPU_SCHEDULE_LABEL,
    DEVICE_PLUGIN_CONFIG_LABEL,
    GPU_PRESENT_LABEL,
    PLATFORM_LABEL_DOMAIN,
    POOL_LABEL,
)
from gpu_platform.settings import SYSTEM_POOL_NAME, AutoscaleSettings, Cloud, PlatformSettings

from .clouds import cloud_plan
from .kubernetes_values import in_domain, kubernetes_label_problems
from .problems import Problem, under

SYSTEM_NAME_TAKEN = f"{SYSTEM_POOL_NAME!r} is the name of the cluster's system pool"
SIZE_EXACTLY_ONE = "give exactly one of count or autoscale"
AUTOSCALE_MIN_OVER_MAX = "must not exceed autoscale.max"
GPU_POOL_LABELS = frozenset({GPU_PRESENT_LABEL, DEVICE_PLUGIN_CONFIG_LABEL, POOL_LABEL})
"""Node labels a GPU pool sets itself; a CPU pool sets ``POOL_LABEL``."""
GPU_LABEL_PREFIX = "nvidia.com/"
"""The NVIDIA device plugin, GFD and the driver checks select nodes by these labels."""
SET_BY_THE_PLATFORM = "set by the platform; choose another key"
AKS_RESERVES_ITS_DOMAIN = f"AKS reserves the {AKS_LABEL_DOMAIN} label domain"
GPU_COMPONENTS_SELECT_IT = "GPU components select nodes by it; not on a CPU pool"


def name_problems(cloud: Cloud, name: str) -> Iterator[Problem]:
    """A pool must not take the name of the system pool the platform creates."""
    if name == SYSTEM_POOL_NAME and cloud_plan(cloud).creates_nodes:  # and so a system pool
        yield "name", SYSTEM_NAME_TAKEN


def size_problems(count: int | None, autoscale: AutoscaleSettings | None) -> Iterator[Problem]:
    """A fixed count or an autoscaling range, not both and not neither; a range that is one."""
    if (count is None) == (autoscale is None):
        yield "", SIZE_EXACTLY_ONE
    if autoscale is not None and autoscale.min > autoscale.max:
        yield "autoscale.min", AUTOSCALE_MIN_OVER_MAX


def reserved_label_problems(
    cloud: Cloud, labels: Mapping[str, str], *, gpu_pool: bool
) -> Iterator[Problem]:
    """Labels a pool must not carry: those the platform sets (and its whole label domain),
    AKS's reserved domain on AKS, and on a CPU pool the labels GPU components select nodes by
    (they would pull them onto a node without GPUs)."""
    plan = cloud_plan(cloud)
    for key in labels:
        at = f"labels.{key}"
        if key in (GPU_POOL_LABELS if gpu_pool else {POOL_LABEL}) or in_domain(
            key, (PLATFORM_LABEL_DOMAIN,)
        ):
            yield at, SET_BY_THE_PLATFORM
        elif in_domain(key, reserved := plan.reserved_label_domains):
            yield at, f"{plan.title} reserves the {' and '.join(reserved)} label domain"
        elif not gpu_pool and (key.startswith(GPU_LABEL_PREFIX) or key == ACK_GPU_SCHEDULE_LABEL):
            yield at, GPU_COMPONENTS_SELECT_IT


def pool_name_problems(settings: PlatformSettings) -> Iterator[Problem]:
    """Pool names are unique across GPU and CPU pools: AKS and ACK name pools per cluster
    (paths from the config's root)."""
    gpu = Counter(p.name for p in settings.gpu_pools)
    for name, n in gpu.items():
        if n > 1:
            yield "gpuPools", f"duplicate name {name!r}"
    cpu = Counter(p.name for p in settings.cpu_pools)
    for i, pool in enumerate(settings.cpu_pools):
        if pool.name in gpu:
            yield f"cpuPools[{i}].name", f"{pool.name!r} is also the name of a GPU pool"
    for name, n in cpu.items():
        if n > 1:
            yield "cpuPools", f"duplicate name {name!r}"


def label_syntax_problems(cloud: Cloud, labels: Mapping[str, str]) -> list[Problem]:
    """A GPU or CPU pool's node labels by Kubernetes' syntax, relative to the pool; on the pools
    we create, not in Kubernetes' own domains (the kubelet refuses them). An existing cluster's
    nodes are labelled by hand, with whatever labels its operators use."""
    reserved = RESERVED_LABEL_DOMAINS if cloud_plan(cloud).creates_nodes else ()
    return under("labels", kubernetes_label_problems(labels, reserved))
