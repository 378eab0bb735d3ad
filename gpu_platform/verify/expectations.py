"""What the stack promised, per GPU pool and workload namespace, in terms a live cluster shows.

Derived from the validated stack config, ``gpu_facts`` and the same ``plan`` functions the
components provision from (node labels, quota keys), so the check cannot drift from what was built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from gpu_facts.ack.addons import MPS_CONTROL_CHART
from gpu_facts.amd.gpu_operator import CHART_NAME as AMD_CHART_NAME
from gpu_facts.nvidia.dcgm_exporter_chart import METRICS_PORT
from gpu_facts.nvidia.device_plugin_chart import CHART_NAME
from gpu_facts.nvidia.dra_driver_chart import CHART_NAME as DRA_CHART_NAME
from gpu_facts.scheduling import POOL_LABEL, Taint
from gpu_platform.plan.amd.pools import nvidia_pools
from gpu_platform.plan.clouds import ContainerLogs, cloud_plan
from gpu_platform.plan.metrics import NodeSeries, node_series
from gpu_platform.plan.namespaces import gpu_quota as provisioned_gpu_quota
from gpu_platform.plan.node_labels import node_labels
from gpu_platform.plan.observability import log_namespaces, metrics_plan
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.settings import WorkloadSettings

from .seed_expectations import SeedExpectations, seed_expectations


class GpuDaemon(StrEnum):
    """What serves the GPUs of a pool, named by the chart that installs it."""

    DEVICE_PLUGIN = CHART_NAME
    """The NVIDIA device plugin (ours or the GPU Operator's)."""
    ACK_MPS_CONTROL = MPS_CONTROL_CHART
    """ACK's MPS control daemon."""
    NONE = "none"
    """ACK cGPU/share: ACK's own closed components, which this tool does not inspect."""
    AMD_DEVICE_PLUGIN = AMD_CHART_NAME
    """AMD's device plugin, run by AMD's GPU Operator (checked by ``verify.amd.checks``)."""
    DRA_KUBELET_PLUGIN = DRA_CHART_NAME
    """NVIDIA's DRA driver's kubelet plugin (checked by ``verify.dra_checks``)."""

    @property
    def report_name(self) -> str:
        """How the report names it."""
        return _DAEMON_TITLES[self]


_DAEMON_TITLES = {
    GpuDaemon.DEVICE_PLUGIN: "device plugin",
    GpuDaemon.ACK_MPS_CONTROL: "ACK MPS control daemon",
    GpuDaemon.NONE: "no inspected GPU daemon",
    GpuDaemon.AMD_DEVICE_PLUGIN: "AMD device plugin",
    GpuDaemon.DRA_KUBELET_PLUGIN: "DRA kubelet plugin",
}


@dataclass(frozen=True, slots=True)
class PoolExpectation:
    name: str
    min_nodes: int
    max_nodes: int
    labels: dict[str, str]
    """Node labels the pool's nodes must carry, with their values."""
    taint: Taint
    allocatable: dict[str, int]
    """Allocatable GPU resources of every node (the capacity model)."""
    daemon: GpuDaemon
    gfd: bool
    """Whether GFD labels must be present."""
    shares: bool = False
    """Its GPUs are shared: MIG slices, time-slicing or MPS replicas, ACK's GPU sharing."""


@dataclass(frozen=True, slots=True)
class NamespaceExpectation:
    name: str
    gpu_quota: dict[str, int]
    """``requests.<resource>`` -> hard limit of the namespace's GPU ResourceQuota."""
    admission_action: str
    """The validation action the admission binding must carry (``Deny``, ``Warn``, ``Audit``);
    ``""``: nothing provisions an admission policy (a plan without ``GpuAdmissionPolicy``)."""
    container_defaults: tuple[str, str] | None = None
    """The LimitRange's container defaults (CPU, memory) the namespace must carry; None: not
    checked."""
    amd_only: bool = False
    """Only AMD pools serve the namespace: dcgm-exporter's attribution (``gpu-attribution``)
    does not apply to it; AMD's exporter's does (``amd-gpu-attribution``)."""


@dataclass(frozen=True, slots=True)
class ExporterExpectation:
    """The GPU metrics exporter: where it runs, and what it shows on each node of each pool."""

    title: str
    """How the report names it: ``dcgm-exporter`` or ``GPU Operator's dcgm-exporter``."""
    namespace: str
    """Namespace of its DaemonSet (ours, or the GPU Operator's)."""
    pools: dict[str, NodeSeries]
    """The pools it watches (every GPU pool), with the series one node of each shows."""
    port: int = METRICS_PORT


@dataclass(frozen=True, slots=True)
class LogExpectation:
    """Whose container logs the cloud's pipeline collects (``verify/log_collection.py``)."""

    collector: ContainerLogs
    """The cloud's pipeline that collects them (``plan.clouds``)."""
    namespaces: tuple[str, ...]
    """The namespaces whose container logs are collected (AKS: none listed means all)."""


@dataclass(frozen=True, slots=True)
class Expectations:
    pools: list[PoolExpectation]
    namespaces: list[NamespaceExpectation]
    plugin_namespace: str
    """Namespace of the device plugin DaemonSet (ours, or the GPU Operator's)."""
    min_driver_major: int
    exporter: ExporterExpectation | None = None
    exporter_skipped: str = ""
    """Why the exporter is not checked, when ``exporter`` is None."""
    seeds: SeedExpectations = field(default_factory=SeedExpectations)
    """What the seeds' own commands should show (``verify/seed_checks.py``)."""
    logs: LogExpectation | None = None
    """Whose container logs the cloud's pipeline collects (``verify/log_collection.py``)."""


def _daemon(pf: PoolFacts) -> GpuDaemon:
    if pf.is_amd:
        return GpuDaemon.AMD_DEVICE_PLUGIN
    if pf.uses_dra:
        return GpuDaemon.DRA_KUBELET_PLUGIN
    if pf.uses_device_plugin:
        return GpuDaemon.DEVICE_PLUGIN
    return GpuDaemon.ACK_MPS_CONTROL if pf.is_ack_mps else GpuDaemon.NONE


def pool_expectation(platform: ResolvedPlatform, pf: PoolFacts) -> PoolExpectation:
    """A GPU pool's nodes as the stack makes them, NVIDIA's or AMD's (its vendor's taint and
    device plugin; GPU Feature Discovery on NVIDIA's device plugin only)."""
    cfg = platform.settings
    gfd_running = cfg.gpu_operator.enabled or (cfg.device_plugin.enabled and cfg.device_plugin.gfd)
    return pool_nodes_expectation(pf, node_labels(platform, pf), gfd_running)


def pool_nodes_expectation(
    pf: PoolFacts, labels: dict[str, str], gfd_running: bool
) -> PoolExpectation:
    """A pool's nodes with the labels its pool component (or an existing cluster) gives them;
    ``gfd_running``: GPU Feature Discovery labels the nodes NVIDIA's device plugin serves. The
    stack config's path and a plan's (``plan_expectations``) both build pools here."""
    labels = dict(labels)
    labels.pop(POOL_LABEL, None)  # nodes are found by it
    return PoolExpectation(
        name=pf.name,
        min_nodes=pf.capacity.min_nodes,
        max_nodes=pf.capacity.max_nodes,
        labels=labels,
        taint=pf.vendor.taint,
        allocatable=dict(pf.capacity.per_node),
        daemon=_daemon(pf),
        gfd=pf.uses_device_plugin and gfd_running,
        shares=pf.is_shared or pf.mig_profile is not None,
    )


def namespace_gpu_quota(workload: WorkloadSettings, pools: list[PoolFacts]) -> dict[str, int]:
    """The namespace's GPU quota as ResourceQuota ``hard`` keys, as the component writes it."""
    hard = provisioned_gpu_quota(workload, pools)
    return {key: int(value) for key, value in hard.items()}


def only_amd(pools: list[PoolFacts]) -> bool:
    """Whether every pool a namespace may use is an AMD pool (and it may use one)."""
    return bool(pools) and all(pf.is_amd for pf in pools)


def gpu_quota(platform: ResolvedPlatform, workload: WorkloadSettings) -> dict[str, int]:
    """The namespace's GPU quota as ResourceQuota ``hard`` keys, as the component writes it."""
    return namespace_gpu_quota(workload, platform.workload_pools(workload))


def amd_only(platform: ResolvedPlatform, workload: WorkloadSettings) -> bool:
    """Whether every pool the namespace may use is an AMD pool (and it may use one)."""
    return only_amd(platform.workload_pools(workload))


def exporter_expectation(platform: ResolvedPlatform) -> tuple[ExporterExpectation | None, str]:
    """The exporter the stack runs (ours, or the GPU Operator's), or why there is none."""
    cfg = platform.settings
    if metrics_plan(platform) is None:
        return None, "observability.metrics.enabled is false: GPU metrics are not checked"
    # Every NVIDIA GPU pool, ACK's shared ones included: one series per physical GPU there too.
    # AMD pools have AMD's exporter (verify.amd.checks).
    watched = {pf.name: node_series(pf) for pf in nvidia_pools(platform.pools.values())}
    if not watched:
        amd = ", ".join(pf.name for pf in platform.pools.values() if pf.is_amd)
        why = "no NVIDIA GPU pool in the stack: no dcgm-exporter to check"
        return None, f"{why} (AMD's exporter on {amd}: its exporter rows per node)" if amd else why
    if cfg.gpu_operator.enabled:
        title, namespace = "GPU Operator's dcgm-exporter", cfg.gpu_operator.namespace
    else:
        title, namespace = "dcgm-exporter", cfg.observability.metrics.namespace
    return ExporterExpectation(title, namespace, watched), ""


def expectations(platform: ResolvedPlatform) -> Expectations:
    cfg = platform.settings
    plugin_ns = (
        cfg.gpu_operator.namespace if cfg.gpu_operator.enabled else cfg.device_plugin.namespace
    )
    exporter, skipped = exporter_expectation(platform)
    return Expectations(
        # AMD pools: verify.amd.expectations; DRA pools: verify.dra_expectations.
        pools=[
            pool_expectation(platform, pf)
            for pf in nvidia_pools(platform.pools.values())
            if not pf.uses_dra
        ],
        namespaces=[
            NamespaceExpectation(
                wl.name,
                gpu_quota(platform, wl),
                cfg.admission.action,
                (wl.defaults.cpu, wl.defaults.memory),
                amd_only(platform, wl),
            )
            for wl in cfg.workloads
        ],
        plugin_namespace=plugin_ns,
        min_driver_major=cfg.driver_check.min_driver_major,
        exporter=exporter,
        exporter_skipped=skipped,
        seeds=seed_expectations(platform),
        logs=log_expectation(platform),
    )


def log_expectation(platform: ResolvedPlatform) -> LogExpectation | None:
    """The namespaces whose logs the stack collects: AKS's data collection rule (every one
    when none is listed), ACK's one log config per namespace."""
    cfg = platform.settings
    namespaces = tuple(log_namespaces(platform))
    collector = cloud_plan(cfg.cloud).container_logs
    if not cfg.observability.logs.enabled or collector is None:
        return None
    if not namespaces and not collector.every_namespace_when_none_named:
        return None
    return LogExpectation(collector, namespaces)
