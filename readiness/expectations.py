"""What the stack promised, per GPU pool and workload namespace, in terms a live cluster shows.

Everything is derived from the validated stack config and ``gpu_facts``; the checks compare the
cluster against these records and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gpu_facts.scheduling import (
    ACK_GPU_SCHEDULE_LABEL,
    DEVICE_PLUGIN_CONFIG_LABEL,
    GPU_PRESENT_LABEL,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
    GPU_TAINT_VALUE,
)
from stack_config import Platform, PoolFacts
from stack_config.models import Workload

# Labels GPU Feature Discovery writes on every GPU node it has inspected (GFD's label catalog).
# Their absence means GFD never ran there: MPS and per-model scheduling then silently fail.
GFD_LABELS: tuple[str, ...] = ("nvidia.com/gpu.product", "nvidia.com/gpu.count")

GpuDaemon = Literal["device-plugin", "ack-mps-control", "none"]
"""What serves the GPUs of a pool: the NVIDIA device plugin, ACK's MPS control daemon, or
(ACK cGPU/share) ACK's own closed components that this tool does not inspect."""

ANY_VALUE = None
"""A label that must be present with a non-empty value, whatever it is."""


@dataclass(frozen=True, slots=True)
class Taint:
    key: str
    value: str
    effect: str

    def __str__(self) -> str:
        return f"{self.key}={self.value}:{self.effect}"


GPU_TAINT = Taint(GPU_TAINT_KEY, GPU_TAINT_VALUE, GPU_TAINT_EFFECT)


@dataclass(frozen=True, slots=True)
class PoolExpectation:
    name: str
    min_nodes: int
    max_nodes: int
    labels: dict[str, str | None]
    """Label -> required value, or ``ANY_VALUE``."""
    taint: Taint
    allocatable: dict[str, int]
    """Allocatable GPU resources of every node (the capacity model)."""
    daemon: GpuDaemon
    gfd: bool
    """Whether GFD labels must be present."""


@dataclass(frozen=True, slots=True)
class NamespaceExpectation:
    name: str
    gpu_quota: dict[str, int]
    """``requests.<resource>`` -> hard limit of the namespace's GPU ResourceQuota."""
    admission_action: str
    """The validation action the admission binding must carry (``Deny``, ``Warn``, ``Audit``)."""


@dataclass(frozen=True, slots=True)
class Expectations:
    pools: list[PoolExpectation]
    namespaces: list[NamespaceExpectation]
    plugin_namespace: str
    """Namespace of the device plugin DaemonSet (ours, or the GPU Operator's)."""
    min_driver_major: int


def _daemon(pf: PoolFacts) -> GpuDaemon:
    if pf.uses_device_plugin:
        return "device-plugin"
    return "ack-mps-control" if pf.sharing == "ackMps" else "none"


def pool_expectation(platform: Platform, pf: PoolFacts) -> PoolExpectation:
    labels: dict[str, str | None] = {GPU_PRESENT_LABEL: "true", **pf.pool.labels}
    if pf.uses_device_plugin:
        # The config name is the GPU layer's choice; what matters here is that one is selected.
        labels[DEVICE_PLUGIN_CONFIG_LABEL] = ANY_VALUE
    elif pf.pool.sharing is not None:
        labels[ACK_GPU_SCHEDULE_LABEL] = pf.pool.sharing.mode
    cfg = platform.config
    gfd_running = cfg.gpu_operator.enabled or (cfg.device_plugin.enabled and cfg.device_plugin.gfd)
    return PoolExpectation(
        name=pf.name,
        min_nodes=pf.capacity.min_nodes,
        max_nodes=pf.capacity.max_nodes,
        labels=labels,
        taint=GPU_TAINT,
        allocatable=dict(pf.capacity.per_node),
        daemon=_daemon(pf),
        gfd=pf.uses_device_plugin and gfd_running,
    )


def gpu_quota(platform: Platform, workload: Workload) -> dict[str, int]:
    """The namespace's GPU quota as ResourceQuota ``hard`` keys (extended resources only take
    ``requests.``): one number applies to every GPU resource of the namespace's pools."""
    if isinstance(workload.gpu_quota, dict):
        asked = dict(workload.gpu_quota)
    else:
        resources = {r for pf in platform.workload_pools(workload) for r in pf.capacity.per_node}
        asked = dict.fromkeys(sorted(resources), workload.gpu_quota)
    return {f"requests.{resource}": n for resource, n in asked.items()}


def expectations(platform: Platform) -> Expectations:
    cfg = platform.config
    plugin_ns = (
        cfg.gpu_operator.namespace if cfg.gpu_operator.enabled else cfg.device_plugin.namespace
    )
    return Expectations(
        pools=[pool_expectation(platform, pf) for pf in platform.pools.values()],
        namespaces=[
            NamespaceExpectation(wl.name, gpu_quota(platform, wl), cfg.admission.action)
            for wl in cfg.workloads
        ],
        plugin_namespace=plugin_ns,
        min_driver_major=cfg.readiness.min_driver_major,
    )
