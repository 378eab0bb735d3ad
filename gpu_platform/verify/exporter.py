"""The GPU metrics exporter on a live cluster (BP-05, BP-09): its pod Ready on every GPU node it
watches; its ``/metrics`` (read through the API server's pod proxy) with one series per GPU or
MIG instance the capacity model promises for the node; and every running GPU pod of a workload
namespace on a series labelled with its pod and namespace, so its namespace's GPU use is seen
(but for pods of ACK's GPU sharing, which the exporter cannot name: they are noted instead).

The checks are pure functions of the snapshot and each node's page; reading the pages sits
behind ``MetricsReader`` (the CLI: ``ProxyMetricsReader``), as exec sits behind ``DriverReader``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gpu_facts.nvidia.dcgm_exporter_chart import (
    ENGINE_ACTIVE,
    FRAMEBUFFER_USED,
    GPU_LABEL,
    MIG_INSTANCE_LABEL,
    MIG_PROFILE_LABEL,
    NAMESPACE_LABEL,
    NATIVE_RESOURCE,
    NATIVE_RESOURCE_PREFIX,
    POD_LABEL,
    RESOURCE_NAMES_ENV,
    RESOURCE_NAMES_FLAG,
    UNATTRIBUTABLE_RESOURCES,
    UTILIZATION,
    UUID_LABEL,
    attributable,
    declared_names,
    natively_attributed,
)
from gpu_facts.scheduling import NVIDIA_RESOURCE_DOMAIN, is_gpu_resource
from gpu_platform.plan.metrics import NodeSeries

from .checks import daemonset_status, ready_pod_on_node
from .cluster import ClusterError, ClusterReader, Obj
from .daemons import DaemonPods
from .expectations import ExporterExpectation
from .objects import entries, mapping, name_of, text
from .progress import Progress, run_each
from .prometheus_text import MetricsFormatError, Sample, samples
from .results import CheckResult, many, outcome

METRICS_PATH = "metrics"
READ_METRICS = frozenset({UTILIZATION, ENGINE_ACTIVE})
"""The series the checks read; the rest of a page is skipped past, line by line."""
MEMORY = FRAMEBUFFER_USED
"""Each whole GPU's memory in use (AI Conformance's ``accelerator_metrics`` asks for
utilisation and memory per accelerator). Not asked of MIG instances: dcgm-exporter leaves
``DCGM_FI_DEV_FB_*`` out for the GPU instances of some GPUs (NVIDIA/dcgm-exporter issues #380
and #512, H100), and decoding 56 more series per MIG node would double its page's cost."""
COLLECT_INTERVAL = "30 s"
"""How often the exporter collects (its ``-c`` default): a pod younger than that may be absent."""


@dataclass(frozen=True, slots=True)
class MetricsTarget:
    """The exporter pod of one node, and the port its ``/metrics`` is on."""

    node: str
    namespace: str
    pod: str
    port: int
    names: frozenset[str] = READ_METRICS
    """The series the node's checks read from the page."""


class MetricsReadError(Exception):
    """The page could not be read."""


MetricsReader = Callable[[MetricsTarget], str]
"""Returns the exporter's ``/metrics`` page on the target; raises ``MetricsReadError``."""


class ProxyMetricsReader:
    """``/metrics`` through the API server's pod proxy: no route to the pod network needed,
    and only ``get`` on ``pods/proxy`` in the exporter's namespace."""

    def __init__(self, reader: ClusterReader) -> None:
        self.reader = reader

    def __call__(self, target: MetricsTarget) -> str:
        try:
            return self.reader.pod_proxy(target.namespace, target.pod, target.port, METRICS_PATH)
        except ClusterError as err:
            hint = (
                f"; the verifying identity needs get on pods/proxy in {target.namespace} "
                "(or run with --skip-metrics)"
                if err.status == 403
                else ""
            )
            raise MetricsReadError(f"reading /{METRICS_PATH} failed: {err}{hint}") from None


@dataclass(frozen=True, slots=True)
class Page:
    """What one node's exporter showed: its samples, or why there are none."""

    samples: tuple[Sample, ...] = ()
    error: str | None = None


def parse_page(text_: str, names: frozenset[str] = READ_METRICS) -> Page:
    """The page's samples of ``names`` (the series the checks read)."""
    try:
        return Page(tuple(samples(text_, names)))
    except MetricsFormatError as err:
        return Page(error=f"/{METRICS_PATH} is not in the Prometheus text format ({err})")


def metrics_port(pod: Obj, default: int, name: str = "metrics") -> int:
    """The container port named ``name`` (dcgm-exporter's chart says ``metrics``), else
    ``default``."""
    for container in entries(pod, "spec", "containers"):
        for port in entries(container, "ports"):
            number = port.get("containerPort")
            if text(port, "name") == name and isinstance(number, int):
                return number
    return default


def told_names(pod: Obj) -> frozenset[str]:
    """The resource names the exporter pod is told: its flag, else its env var."""
    for container in entries(pod, "spec", "containers"):
        words = [w for key in ("command", "args") for w in container.get(key) or []]
        for position, word in enumerate(words):
            if isinstance(word, str) and word.startswith(RESOURCE_NAMES_FLAG + "="):
                return declared_names(word.partition("=")[2])
            if word == RESOURCE_NAMES_FLAG and position + 1 < len(words):
                return declared_names(str(words[position + 1]))
        for variable in entries(container, "env"):
            if text(variable, "name") == RESOURCE_NAMES_ENV:
                return declared_names(text(variable, "value"))
    return frozenset()


# --- the exporter on each node ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NodeWatch:
    """One node the exporter must watch: its pool's series, its exporter row and pod."""

    node: str
    series: NodeSeries
    row: CheckResult
    pod: Obj | None


def watched_nodes(
    exp: ExporterExpectation, pool_nodes: dict[str, list[Obj]], sets: list[Obj], pods: DaemonPods
) -> list[NodeWatch]:
    """The exporter's pod on every node of the pools it watches, pool by pool."""
    found = []
    for pool, series in exp.pools.items():
        for node in sorted(pool_nodes.get(pool, []), key=name_of):
            row, pod = ready_pod_on_node("exporter", exp.title, sets, pods, node)
            found.append(NodeWatch(name_of(node), series, row, pod))
    return found


def series_read(watch: NodeWatch) -> frozenset[str]:
    """What ``gpu_series`` reads of a node's page: its pool's series, and on whole GPUs their
    memory."""
    if watch.series.mig_profile is None:
        return frozenset({watch.series.metric, MEMORY})
    return frozenset({watch.series.metric})


def targets(
    watches: Iterable[NodeWatch],
    port: int,
    port_name: str = "metrics",
    names: Callable[[NodeWatch], frozenset[str]] = series_read,
) -> list[MetricsTarget]:
    """Each watched node's exporter pod, the port its page is on (the one named
    ``port_name``, else ``port``) and the series its checks read (``names``)."""
    return [
        MetricsTarget(
            w.node,
            text(w.pod, "metadata", "namespace"),
            name_of(w.pod),
            metrics_port(w.pod, port, port_name),
            names(w),
        )
        for w in watches
        if w.pod is not None
    ]


def read_pages(
    found: list[MetricsTarget],
    read: MetricsReader,
    parallel: int,
    progress: Progress,
) -> dict[str, Page]:
    """Every node's page, ``parallel`` at a time, with the series its checks read; a node whose
    page could not be read gets the reason."""

    def one(target: MetricsTarget) -> Page:
        try:
            return parse_page(read(target), target.names)
        except MetricsReadError as err:
            return Page(error=f"{target.pod}: {err}")

    read_all = run_each(found, one, parallel, progress, phase="metrics", node_of=lambda t: t.node)
    return {target.node: page for target, page in read_all}


def _expected(series: NodeSeries) -> str:
    if series.mig_profile is not None:
        return f"{many(series.devices, f'MIG {series.mig_profile} instance')} in {series.metric}"
    return f"{many(series.devices, 'GPU')} in {series.metric} and {MEMORY}"


def _gpu(sample: Sample) -> str:
    return sample.labels.get(GPU_LABEL) or sample.labels.get(UUID_LABEL) or "?"


def _absent(series: NodeSeries) -> str:
    if series.metric == ENGINE_ACTIVE:
        return (
            f"no {series.metric} series: profiling metrics are off in the exporter's counters "
            "file, or its pod lacks SYS_ADMIN (the chart's securityContext)"
        )
    return f"no {series.metric} series: the exporter's counters file leaves it out"


def _count_note(found: int, wanted: int, what: str) -> str:
    if found < wanted:
        return (
            f" ({wanted - found} of {wanted} {what} missing: a GPU lost from the node (see its "
            "XID errors and nvidia-smi), a MIG layout not applied, or an exporter device filter)"
        )
    return (
        f" ({found - wanted} more than the {wanted} the stack config promises: the node's VM "
        "size or MIG layout is not the pool's)"
    )


def gpu_series(node: str, series: NodeSeries, page: Page | None, skipped: str) -> CheckResult:
    """One series per GPU (whole or time-sliced) or per MIG instance of the pool's profile."""
    subject, expected = f"node/{node}", _expected(series)
    if skipped:
        return CheckResult("gpu-series", subject, expected, skipped, "skip")
    if page is None:
        return outcome(
            "gpu-series", subject, expected, "unknown: no ready exporter pod on the node", False
        )
    if page.error is not None:
        return outcome("gpu-series", subject, expected, page.error, False)
    shown = [s for s in page.samples if s.name == series.metric]
    if not shown:
        return outcome("gpu-series", subject, expected, _absent(series), False)
    if series.mig_profile is None:
        gpus = {_gpu(s) for s in shown}
        found = many(len(gpus), "GPU")
        if len(gpus) != series.devices:
            found += _count_note(len(gpus), series.devices, "GPUs")
        without = sorted(gpus - {_gpu(s) for s in page.samples if s.name == MEMORY})
        if without:
            found += (
                f"; no {MEMORY} series of GPU {', '.join(without)}: the exporter's counters "
                "file leaves out the memory in use"
            )
        ok = len(gpus) == series.devices and not without
        return outcome("gpu-series", subject, expected, found, ok)
    instances: dict[str, set[tuple[str, str]]] = {}
    for s in shown:
        instance = s.labels.get(MIG_INSTANCE_LABEL)
        profile = s.labels.get(MIG_PROFILE_LABEL) or "no MIG"
        key = (_gpu(s), instance or "")
        instances.setdefault(profile if instance else "no MIG", set()).add(key)
    ours = len(instances.pop(series.mig_profile, set()))
    found = many(ours, f"MIG {series.mig_profile} instance")
    if ours != series.devices:
        found += _count_note(ours, series.devices, "instances")
    if instances:
        others = ", ".join(f"{len(keys)} {profile}" for profile, keys in sorted(instances.items()))
        found += f"; also {others}: the GPUs' MIG layout is not the pool's"
    return outcome("gpu-series", subject, expected, found, ours == series.devices and not instances)


def exporter_rows(
    exp: ExporterExpectation,
    watches: list[NodeWatch],
    pages: dict[str, Page],
    sets: list[Obj],
    skipped: str,
) -> list[CheckResult]:
    """Per node its exporter and series rows; then the DaemonSets."""
    rows: list[CheckResult] = []
    for watch in watches:
        rows.append(watch.row)
        rows.append(gpu_series(watch.node, watch.series, pages.get(watch.node), skipped))
    rows += [daemonset_status(exp.title, ds) for ds in sets]
    if not sets and not watches:
        rows.append(
            outcome(
                "exporter",
                f"namespace/{exp.namespace}",
                f"{exp.title} DaemonSet",
                f"no {exp.title} DaemonSet found",
                False,
            )
        )
    return rows


# --- GPU pods on the exporter's series ----------------------------------------------------


def pod_gpu_resources(pod: Obj) -> set[str]:
    """The GPU resources any container of the pod asks for."""
    names: set[str] = set()
    for container in entries(pod, "spec", "initContainers") + entries(pod, "spec", "containers"):
        for section in ("limits", "requests"):
            names |= {r for r in mapping(container, "resources", section) if is_gpu_resource(r)}
    return names


def _why_absent(resources: set[str], told: frozenset[str]) -> str:
    unknown = sorted(
        r
        for r in resources
        if r.startswith(NVIDIA_RESOURCE_DOMAIN) and not natively_attributed(r) and r not in told
    )
    if unknown:
        names = ",".join(sorted(told | set(unknown)))
        listed = ", ".join(sorted(told)) or "none"
        return (
            f"the exporter is not told {', '.join(unknown)} (it attributes {NATIVE_RESOURCE}, "
            f"{NATIVE_RESOURCE_PREFIX}* and {RESOURCE_NAMES_ENV}: {listed}); set "
            f"{RESOURCE_NAMES_ENV}={names} (our DcgmExporter sets it from the pools of the "
            "stack config)"
        )
    return (
        f"the exporter knows its resources: the pod may have started less than one collection "
        f"({COLLECT_INTERVAL}) ago, or the exporter cannot read the kubelet's pod-resources "
        "socket; rerun, then see the exporter's log"
    )


def unnamed_pods_note(pods: list[str]) -> str:
    """Why the pods of ACK's GPU sharing are not checked ("" when there are none)."""
    if not pods:
        return ""
    return (
        f"not checked: {', '.join(sorted(pods))} "
        f"({', '.join(sorted(UNATTRIBUTABLE_RESOURCES))}): the exporter watches their GPUs but "
        "cannot name the pods of ACK's GPU sharing, whose device IDs are not the GPUs' "
        "(docs/observability.md)"
    )


def _on_series(page: Page) -> frozenset[tuple[str, str]]:
    """The (pod, namespace) pairs a page's series are labelled with."""
    return frozenset(
        (s.labels.get(POD_LABEL, ""), s.labels.get(NAMESPACE_LABEL, "")) for s in page.samples
    )


def gpu_attribution(
    namespace: str,
    pods: list[Obj],
    watches: dict[str, NodeWatch],
    pages: dict[str, Page],
    skipped: str,
) -> CheckResult:
    """Each running GPU pod of the namespace on a node the exporter watches is on a series
    labelled with its pod and namespace; pods of ACK's GPU sharing are noted, not checked.

    Each pod's GPU resources are worked out once, and each page's labelled pods once."""
    subject = f"namespace/{namespace}"
    expected = "each running GPU pod on a series with its pod and namespace"
    running: list[tuple[Obj, set[str]]] = []
    unnamed: list[str] = []
    for pod in pods:
        if (
            text(pod, "status", "phase") != "Running"
            or text(pod, "spec", "nodeName") not in watches
        ):
            continue
        resources = pod_gpu_resources(pod)
        if not resources:
            continue
        if any(attributable(r) for r in resources):
            running.append((pod, resources))
        else:
            unnamed.append(name_of(pod))
    unnamed_note = unnamed_pods_note(unnamed)
    if not running:
        found = (
            unnamed_note or "no running GPU pod on the exporter's nodes: attribution not checked"
        )
        return CheckResult("gpu-attribution", subject, expected, found, "skip")
    if skipped:
        return CheckResult("gpu-attribution", subject, expected, skipped, "skip")
    attributed, unread, missing = [], [], []
    labelled: dict[str, frozenset[tuple[str, str]]] = {}
    for pod, resources in sorted(running, key=lambda found: name_of(found[0])):
        node = text(pod, "spec", "nodeName")
        page = pages.get(node)
        if page is None or page.error is not None:
            unread.append(name_of(pod))
            continue
        if node not in labelled:
            labelled[node] = _on_series(page)
        if (name_of(pod), namespace) in labelled[node]:
            attributed.append(name_of(pod))
            continue
        exporter = watches[node].pod
        told = told_names(exporter) if exporter is not None else frozenset()
        missing.append(
            f"{name_of(pod)} on {node} ({', '.join(sorted(resources))}) is on no series: "
            f"{_why_absent(resources, told)}"
        )
    if missing:
        return outcome("gpu-attribution", subject, expected, "; ".join(missing), False)
    if not attributed:
        found = f"not checked: no metrics from the nodes of {', '.join(unread)}"
        if unnamed_note:
            found += f"; {unnamed_note}"
        return CheckResult("gpu-attribution", subject, expected, found, "skip")
    found = f"{len(attributed)} attributed: {', '.join(attributed)}"
    if unread:
        found += f" (not checked, no metrics from their nodes: {', '.join(unread)})"
    if unnamed_note:
        found += f"; {unnamed_note}"
    return outcome("gpu-attribution", subject, expected, found, True)
