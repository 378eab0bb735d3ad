"""``make verify`` on the AMD GPU pools: read AMD's operands once (read-only list calls, and
``/metrics`` of each exporter pod through the pod proxy), then run ``amd.checks`` on the pools'
nodes (read with every pool's in the snapshot, which the seed checks share). No exec: the driver
version is the node labeller's label.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

from gpu_facts.amd.gpu_operator import METRICS_PORT_NAME
from gpu_facts.amd.metrics_exporter import GFX_ACTIVITY
from gpu_platform.plan.metrics import NodeSeries

from ..checks import pool_size, ready_pod_on_node
from ..cluster import ClusterReader, Obj
from ..daemons import DaemonPods, daemon_pods
from ..driver import ExecFactory, ExecTarget
from ..exporter import MetricsReader, NodeWatch, gpu_attribution, metrics_port, read_pages, targets
from ..objects import name_of, text
from ..progress import Progress, run_each
from ..results import CheckResult
from .checks import READ_METRICS, amd_gpu_series, amd_node_rows, operand_status
from .expectations import DEVICE_PLUGIN_TITLE, AmdExpectation
from .smi import STATIC_DRIVER, amd_smi_driver

Step = Callable[[str], None]

ATTRIBUTION_CHECK = "amd-gpu-attribution"
"""Its own name: a namespace on NVIDIA and AMD pools has a row for each exporter."""


def _amd_smi_rows(
    amd: AmdExpectation,
    nodes: Mapping[str, list[Obj]],
    sets: dict[str, Obj],
    pods: DaemonPods,
    node_rows: dict[str, list[CheckResult]],
    *,
    run_in_pod: ExecFactory | None,
    parallel: int,
    progress: Progress,
) -> None:
    """Each node's ``driver`` row from ``amd-smi`` in its plugin pod where that runs
    (``verify.amd.smi``), the label's otherwise; none is run without exec (``--skip-driver``)."""
    if run_in_pod is None:
        return
    targets: list[tuple[Obj, ExecTarget | None]] = []
    for pool in amd.pools:
        plugin = [sets[pool.device_plugin]] if pool.device_plugin in sets else []
        for node in nodes[pool.pool.name]:
            _, pod = ready_pod_on_node("gpu-daemon", DEVICE_PLUGIN_TITLE, plugin, pods, node)
            target = None
            if pod is not None:
                target = ExecTarget(
                    name_of(node), text(pod, "metadata", "namespace"), name_of(pod), None
                )
            targets.append((node, target))
    read = run_in_pod(STATIC_DRIVER)
    done = run_each(
        targets,
        lambda found: amd_smi_driver(found[0], found[1], read),
        parallel,
        progress,
        phase="amd-smi",
        node_of=lambda found: name_of(found[0]),
    )
    for (node, _), row in done:
        rows = node_rows[name_of(node)]
        rows[[r.check for r in rows].index("driver")] = row


def exporter_port(pod: Obj, default: int) -> int:
    """The exporter container's ``exporter-port``, else ``default``."""
    return metrics_port(pod, default, METRICS_PORT_NAME)


def verify_amd(
    reader: ClusterReader,
    amd: AmdExpectation,
    step: Step,
    read_metrics: MetricsReader | None,
    *,
    pool_nodes: Mapping[str, list[Obj]],
    known_pods: Mapping[str, list[Obj]],
    parallel: int,
    progress: Progress,
    run_in_pod: ExecFactory | None = None,
) -> list[CheckResult]:
    """Every AMD row: per pool its size, per node its checks, its operand DaemonSets; then the
    GPU pods of the namespaces allowed on AMD pools. ``pool_nodes``: each pool's nodes, as the
    snapshot read them; ``known_pods``: namespaces' pods already read (not read again)."""
    nodes = {
        pool.pool.name: sorted(pool_nodes.get(pool.pool.name, []), key=name_of)
        for pool in amd.pools
    }
    step(f"daemonsets in {amd.namespace}")
    sets = {name_of(ds): ds for ds in reader.daemonsets(amd.namespace)}
    step(f"pods in {amd.namespace}")
    pods = daemon_pods(reader.pods(amd.namespace))

    node_rows: dict[str, list[CheckResult]] = {}
    watches: dict[str, NodeWatch] = {}
    for pool in amd.pools:
        series = NodeSeries(GFX_ACTIVITY, pool.gpus, None)
        for node in nodes[pool.pool.name]:
            rows, exporter = amd_node_rows(pool, node, sets, pods)
            node_rows[name_of(node)] = rows
            watches[name_of(node)] = NodeWatch(name_of(node), series, rows[-1], exporter)

    _amd_smi_rows(
        amd,
        nodes,
        sets,
        pods,
        node_rows,
        run_in_pod=run_in_pod,
        parallel=parallel,
        progress=progress,
    )
    skipped = "not checked (--skip-metrics)" if read_metrics is None else ""
    found = targets(watches.values(), amd.port, METRICS_PORT_NAME, lambda _: READ_METRICS)
    pages = {} if read_metrics is None else read_pages(found, read_metrics, parallel, progress)

    results: list[CheckResult] = []
    for pool in amd.pools:
        results.append(pool_size(pool.pool, nodes[pool.pool.name]))
        for node in nodes[pool.pool.name]:
            name = name_of(node)
            results += node_rows[name]
            results.append(amd_gpu_series(name, pool.gpus, pages.get(name), skipped))
        for ds_name, title in pool.operands():
            results.append(operand_status(amd.namespace, ds_name, title, sets.get(ds_name)))

    for namespace in amd.workload_namespaces:
        if namespace in known_pods:
            workload_pods = known_pods[namespace]
        else:
            step(f"pods in {namespace}")
            workload_pods = reader.pods(namespace)
        row = gpu_attribution(namespace, workload_pods, watches, pages, skipped)
        results.append(dataclasses.replace(row, check=ATTRIBUTION_CHECK))
    return results
