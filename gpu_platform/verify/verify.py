"""Run every check against one cluster: read a snapshot, compare, then read each node's driver."""

from __future__ import annotations

from dataclasses import dataclass

from .amd.expectations import AmdExpectation
from .amd.verify import verify_amd
from .bad_answers import Feeds, with_bad_answers
from .checks import daemonset_status, namespace_checks, pool_checks
from .cluster import ClusterReader
from .daemons import DaemonPods, daemon_pods, uid_of
from .dra_expectations import DraExpectation
from .dra_verify import verify_dra
from .driver import NVIDIA_SMI, DriverReader, ExecError, ExecTarget, unexpected_answer
from .expectations import Expectations
from .exporter import (
    MetricsReader,
    exporter_rows,
    gpu_attribution,
    read_pages,
    targets,
    watched_nodes,
)
from .log_collection import log_rows
from .mig_devices import LIST_GPUS
from .nvidia_smi import NvidiaSmiError, parse_driver_version
from .objects import name_of, text
from .pod_commands import Command, SharedExecs
from .progress import Progress, run_each
from .queue_expectations import QueueExpectation
from .queue_verify import queue_reads, verify_queues
from .results import STATUSES, CheckResult, failed, outcome
from .seed_checks import ExecFactory, seed_checks
from .snapshot import Snapshot, read_snapshot


@dataclass(frozen=True)
class Report:
    results: list[CheckResult]

    @property
    def ok(self) -> bool:
        return not failed(self.results)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = dict.fromkeys(STATUSES, 0)
        for r in self.results:
            out[r.status] += 1
        return out


def driver_check(target: ExecTarget, min_major: int, read: DriverReader) -> CheckResult:
    expected = f"driver major ≥ {min_major}"
    subject = f"node/{target.node}"
    try:
        info = parse_driver_version(read(target))
    except (ExecError, NvidiaSmiError) as err:
        return outcome("driver", subject, expected, str(err), False)
    except Exception as err:  # an answer of a shape nothing expected: this row fails, alone
        return outcome("driver", subject, expected, unexpected_answer(err), False)
    found = f"{info.version} (nvidia-smi in {target.pod})"
    if not info.at_least(min_major):
        found = f"{info.version} is older than {min_major}: upgrade the node image or driver"
    return outcome("driver", subject, expected, found, info.at_least(min_major))


def _driver_checks(
    targets: list[ExecTarget], min_major: int, read: DriverReader, parallel: int, progress: Progress
) -> dict[str, CheckResult]:
    checked = run_each(
        targets,
        lambda t: driver_check(t, min_major, read),
        parallel,
        progress,
        phase="driver",
        node_of=lambda t: t.node,
    )
    return {target.node: result for target, result in checked}


def _metrics_checks(
    exp: Expectations,
    snap: Snapshot,
    pods: DaemonPods,
    read_metrics: MetricsReader | None,
    *,
    parallel: int,
    progress: Progress,
) -> list[CheckResult]:
    """The GPU metrics exporter on each node it watches, its series, and GPU pods on them."""
    if exp.exporter is None:
        return [CheckResult("exporter", "stack", "-", exp.exporter_skipped, "skip")]
    watches = watched_nodes(exp.exporter, snap.pool_nodes, snap.exporter_sets, pods)
    skipped = "not checked (--skip-metrics)" if read_metrics is None else ""
    pages = (
        {}
        if read_metrics is None
        else read_pages(targets(watches, exp.exporter.port), read_metrics, parallel, progress)
    )
    rows = exporter_rows(exp.exporter, watches, pages, snap.exporter_sets, skipped)
    by_node = {watch.node: watch for watch in watches}
    for ns in exp.namespaces:
        # A namespace only AMD pools serve has AMD's attribution row instead (amd_verify).
        if not ns.amd_only and ns.name in snap.workload_pods:
            rows.append(
                gpu_attribution(ns.name, snap.workload_pods[ns.name], by_node, pages, skipped)
            )
    return rows


def verify(
    reader: ClusterReader,
    exp: Expectations,
    read_driver: DriverReader | None,
    progress: Progress,
    parallel: int = 8,
    *,
    read_metrics: MetricsReader | None = None,
    run_in_pod: ExecFactory | None = None,
    amd: AmdExpectation | None = None,
    dra: DraExpectation | None = None,
    queues: QueueExpectation | None = None,
) -> Report:
    """Every check; ``read_driver=None`` skips the nvidia-smi step (no exec permission),
    ``read_metrics=None`` the exporters' ``/metrics`` (no pods/proxy permission),
    ``run_in_pod=None`` the seed checks that exec (``nvidia-smi -L``, the MPS server); ``amd``:
    the stack's AMD pools, checked after NVIDIA's (``verify.amd.verify``); ``dra``: its DRA
    pools (``verify.dra_verify``); ``queues``: its Kueue queues, checked last
    (``verify.queue_verify``)."""
    reads = 0

    def step(what: str) -> None:
        nonlocal reads
        reads += 1
        progress.update("read", reads, None, what)

    snap = read_snapshot(reader, exp, step, amd, dra)
    results: list[CheckResult] = []
    targets: list[ExecTarget] = []
    reported: set[str] = set()
    # One pass over all pods: each node's daemon pod is then a lookup (no nodes x pods scan).
    pods = daemon_pods(pod for ns_pods in snap.pods.values() for pod in ns_pods)
    for pool in exp.pools:
        daemons = snap.pool_daemons.get(pool.name, [])
        rows, pool_targets = pool_checks(pool, snap.pool_nodes[pool.name], daemons, pods)
        results += rows
        targets += pool_targets
        for ds in daemons:
            uid = uid_of(ds) or f"{text(ds, 'metadata', 'namespace')}/{name_of(ds)}"
            if uid not in reported:
                reported.add(uid)
                results.append(daemonset_status(pool.daemon.report_name, ds))
    for ns in exp.namespaces:
        results += namespace_checks(
            ns,
            snap.namespaces.get(ns.name),
            snap.network_policies.get(ns.name, []),
            snap.quotas.get(ns.name, []),
            snap.bindings,
            ranges=snap.limit_ranges.get(ns.name, []),
        )

    if read_driver is not None and run_in_pod is not None:
        # A MIG node's plugin pod answers nvidia-smi and nvidia-smi -L in one exec.
        shared = SharedExecs(run_in_pod, _read_together(exp, snap, targets))
        read_driver, run_in_pod = shared(NVIDIA_SMI), shared
    if read_driver is None:
        drivers = {
            t.node: CheckResult(
                "driver",
                f"node/{t.node}",
                f"driver major ≥ {exp.min_driver_major}",
                "not checked (--skip-driver)",
                "skip",
            )
            for t in targets
        }
    else:
        drivers = _driver_checks(targets, exp.min_driver_major, read_driver, parallel, progress)
    seeds = seed_checks(reader, exp, snap, pods, run_in_pod, parallel=parallel, progress=progress)
    metrics = _metrics_checks(exp, snap, pods, read_metrics, parallel=parallel, progress=progress)
    amd_rows = (
        []
        if amd is None
        else verify_amd(
            reader,
            amd,
            step,
            read_metrics,
            pool_nodes=snap.pool_nodes,
            known_pods=snap.workload_pods,
            parallel=parallel,
            progress=progress,
            run_in_pod=run_in_pod,
        )
    )
    dra_rows = (
        []
        if dra is None
        else verify_dra(reader, dra, step, pool_nodes=snap.pool_nodes, quotas=snap.quotas)
    )
    progress.done()
    nvidia = _with_driver_rows(results, drivers, exp.min_driver_major) + metrics
    logs = log_rows(reader, exp.logs)
    # Each part's rows are matched with the lists that part read (bad_answers.Feeds).
    queue_rows = [] if queues is None else verify_queues(reader, queues, step, snap.pool_nodes)
    progress.done()
    nvidia = _with_driver_rows(results, drivers, exp.min_driver_major) + metrics
    # Each part's rows are matched with the lists that part read (bad_answers.Feeds).
    feeds = Feeds.of(exp, snap, amd, dra)
    parts = [
        (nvidia, feeds.nvidia),
        (seeds, feeds.seeds),
        (amd_rows, feeds.amd_rows),
        (logs, feeds.logs),
        (dra_rows, feeds.dra_rows),
        (queue_rows, queue_reads(queues)),
    ]
    return Report(with_bad_answers(parts, reader.bad_answers))


def _read_together(
    exp: Expectations, snap: Snapshot, targets: list[ExecTarget]
) -> dict[str, tuple[Command, ...]]:
    """Pod -> the commands run in it together: the driver's and the MIG listing, in the plugin
    pod of each MIG pool's node (``seed_checks`` lists the MIG devices in that same pod)."""
    mig_nodes = {
        name_of(node)
        for pool in exp.seeds.nvidia_pools
        if pool.mig is not None
        for node in snap.pool_nodes.get(pool.name, [])
    }
    return {t.pod: (NVIDIA_SMI, LIST_GPUS) for t in targets if t.node in mig_nodes}


def _with_driver_rows(
    results: list[CheckResult], drivers: dict[str, CheckResult], min_major: int
) -> list[CheckResult]:
    """Put each node's driver row after its GPU daemon row; nodes without a ready daemon pod
    get a failing row: the driver is unconfirmed."""
    out: list[CheckResult] = []
    for row in results:
        out.append(row)
        if row.check != "gpu-daemon" or row.status == "skip":
            continue
        node = row.subject.removeprefix("node/")
        if node in drivers:
            out.append(drivers[node])
        else:
            out.append(
                outcome(
                    "driver",
                    row.subject,
                    f"driver major ≥ {min_major}",
                    "unknown: no ready GPU daemon pod on the node to run nvidia-smi in",
                    False,
                )
            )
    return out
