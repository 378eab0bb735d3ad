"""Everything the checks look at, read from the cluster once (read-only list/get calls)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gpu_facts.scheduling import ACK_GPU_SCHEDULE_LABEL, POOL_LABEL

from .amd.expectations import AmdExpectation
from .cluster import ClusterReader, Obj
from .daemons import is_ack_daemon, is_device_plugin, is_exporter
from .dra_expectations import DraExpectation
from .expectations import Expectations, GpuDaemon
from .objects import text
from .selectors import equality

Step = Callable[[str], None]
"""Reports what is being read (for the progress indicator)."""


@dataclass
class Snapshot:
    pool_nodes: dict[str, list[Obj]] = field(default_factory=dict)
    """Pool name -> nodes carrying ``POOL_LABEL=<pool>``, for every GPU pool (NVIDIA's, then
    AMD's: the seed checks that are the cloud's, node images and NVMe disks, read both)."""
    pool_daemons: dict[str, list[Obj]] = field(default_factory=dict)
    """Pool name -> DaemonSets that must serve its GPUs (device plugin or ACK MPS daemon)."""
    pods: dict[str, list[Obj]] = field(default_factory=dict)
    """Namespace -> pods, for the namespaces of those DaemonSets."""
    namespaces: dict[str, Obj | None] = field(default_factory=dict)
    network_policies: dict[str, list[Obj]] = field(default_factory=dict)
    quotas: dict[str, list[Obj]] = field(default_factory=dict)
    limit_ranges: dict[str, list[Obj]] = field(default_factory=dict)
    """Workload namespace -> its LimitRanges, where the container defaults are checked."""
    bindings: list[Obj] = field(default_factory=list)
    exporter_sets: list[Obj] = field(default_factory=list)
    """The GPU metrics exporter's DaemonSets (its pods are in ``pods``)."""
    workload_pods: dict[str, list[Obj]] = field(default_factory=dict)
    """Workload namespace -> its pods, when dcgm-exporter is checked (GPU attribution): the
    namespaces that may use an NVIDIA pool."""


def read_snapshot(
    reader: ClusterReader,
    exp: Expectations,
    step: Step,
    amd: AmdExpectation | None = None,
    dra: DraExpectation | None = None,
) -> Snapshot:
    """What NVIDIA's checks and the seed checks read; of ``amd``'s and ``dra``'s pools only their
    nodes (AMD's operands are read by ``amd_verify``, NVIDIA's DRA driver by ``dra_verify``)."""
    snap = Snapshot()
    pools = [pool.name for pool in exp.pools]
    pools += [pool.pool.name for pool in amd.pools] if amd is not None else []
    pools += [pool.pool.name for pool in dra.pools] if dra is not None else []
    for pool in pools:
        step(f"nodes of pool {pool}")
        snap.pool_nodes[pool] = reader.nodes(equality({POOL_LABEL: pool}))

    plugin_sets: list[Obj] | None = None
    all_sets: list[Obj] | None = None
    for pool in exp.pools:
        if pool.daemon is GpuDaemon.DEVICE_PLUGIN:
            if plugin_sets is None:
                step(f"daemonsets in {exp.plugin_namespace}")
                plugin_sets = [
                    d for d in reader.daemonsets(exp.plugin_namespace) if is_device_plugin(d)
                ]
            snap.pool_daemons[pool.name] = plugin_sets
        elif pool.daemon is GpuDaemon.ACK_MPS_CONTROL:
            if all_sets is None:
                step("daemonsets in all namespaces")
                all_sets = reader.daemonsets()
            mode = pool.labels.get(ACK_GPU_SCHEDULE_LABEL) or ""
            snap.pool_daemons[pool.name] = [d for d in all_sets if is_ack_daemon(d, mode)]

    wanted = {text(d, "metadata", "namespace") for sets in snap.pool_daemons.values() for d in sets}
    if exp.exporter is not None:
        step(f"daemonsets in {exp.exporter.namespace}")
        snap.exporter_sets = [
            d for d in reader.daemonsets(exp.exporter.namespace) if is_exporter(d)
        ]
        wanted |= {text(d, "metadata", "namespace") for d in snap.exporter_sets}
    wanted.discard("")
    for ns in sorted(wanted):
        step(f"pods in {ns}")
        snap.pods[ns] = reader.pods(ns)

    for wl in exp.namespaces:
        step(f"namespace {wl.name}")
        snap.namespaces[wl.name] = reader.namespace(wl.name)
        if snap.namespaces[wl.name] is None:
            continue
        snap.network_policies[wl.name] = reader.network_policies(wl.name)
        snap.quotas[wl.name] = reader.resource_quotas(wl.name)
        if wl.container_defaults is not None:
            snap.limit_ranges[wl.name] = reader.limit_ranges(wl.name)
    if exp.namespaces:
        step("admission policy bindings")
        snap.bindings = reader.admission_bindings()
    if exp.exporter is not None:
        for wl in exp.namespaces:
            if not wl.amd_only and snap.namespaces.get(wl.name) is not None:
                step(f"pods in {wl.name}")
                snap.workload_pods[wl.name] = snap.pods.get(wl.name) or reader.pods(wl.name)
    return snap
