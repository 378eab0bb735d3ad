"""The seeds' own instructions, checked on the live cluster where the Kubernetes API shows them.

- ``mig-devices``: ``nvidia-smi -L`` in each MIG node's device-plugin pod (seed 001, BP-10);
- ``gpu-memory``: ACK's per-GPU ``aliyun.com/gpu-mem`` books, ``kubectl inspect cgpu`` (seed 003);
- ``mps-server``: ``nvidia-smi`` in each MPS node's control daemon pod (seed 003, BP-16);
- ``nvme-cache``/``nvme-disks``: Azure Container Storage's driver, our StorageClass, each NVMe
  pool node's disks (seed 000, BP-18);
- ``node-image``: each AKS GPU pool's node image and its age against the channel (seed 000,
  BP-06).

Node images and the NVMe cache are the cloud's: they cover every GPU pool, AMD's included (the
snapshot holds every pool's nodes). MIG devices, ACK's GPU memory and the MPS server are NVIDIA's:
AMD pools are left out, and a stack without NVIDIA pools gets one ``skip`` row for each, saying so.

Each check is a pure function in its own module; this one reads what they need (pods per node,
storage objects) and runs the ``nvidia-smi`` execs, ``parallel`` at a time. A check that does not
apply to the stack gives one ``skip`` row saying why; a read refused with 403 fails the rows that
needed it, naming the permission, and the run goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from gpu_facts.aks.storage import ACSTOR_NAMESPACE, LOCAL_NVME_PROVISIONER
from gpu_facts.aks.storage import NVME_CACHE_STORAGE_CLASS as STORAGE_CLASS

from .checks import ready_pod_on_node
from .cluster import ClusterError, ClusterReader, Obj
from .daemons import DaemonPods, exec_container, is_mps_daemon_pod, pod_problem
from .driver import ExecError, ExecFactory, ExecTarget, unexpected_answer
from .expectations import Expectations
from .exporter import pod_gpu_resources
from .gpu_memory import CHECK as GPU_MEMORY
from .gpu_memory import EXPECTED as GPU_MEMORY_EXPECTED
from .gpu_memory import gpu_memory
from .mig_devices import CHECK as MIG_DEVICES
from .mig_devices import LIST_GPUS, mig_devices
from .mps_server import CHECK as MPS_SERVER
from .mps_server import EXPECTED as MPS_EXPECTED
from .mps_server import SHOW_TABLE, mps_server
from .node_image import CHECK as NODE_IMAGE
from .node_image import node_image
from .nvme_cache import CHECK as NVME_CACHE
from .nvme_cache import DISKS_CHECK, csi_driver, node_disks, storage_class
from .objects import name_of, text
from .progress import Progress, run_each
from .results import CheckResult, outcome
from .seed_expectations import MpsDaemon, SeedExpectations, SeedPool
from .snapshot import Snapshot

NOT_RUN = "not checked: no exec in pods (--skip-driver)"


@dataclass(frozen=True)
class _Exec:
    """A row that needs a command run in a pod first."""

    check: str
    target: ExecTarget
    command: tuple[str, ...]
    expected: str
    judge: Callable[[str], CheckResult]

    @property
    def subject(self) -> str:
        return f"node/{self.target.node}"


Pending = CheckResult | _Exec


def _skip(check: str, why: str, subject: str = "stack") -> CheckResult:
    return CheckResult(check, subject, "-", why, "skip")


def _refused(err: ClusterError, grant: str) -> str:
    """A read's failure as a row's text; only 403 is a row, anything else stops the run."""
    if err.status != 403:
        raise err
    return f"{err}; the verifying identity needs {grant}"


class _NodePods:
    """Every pod of a node (all namespaces), read once per node."""

    def __init__(self, reader: ClusterReader) -> None:
        self.reader = reader
        self.read: dict[str, list[Obj] | str] = {}

    def __call__(self, node: str) -> list[Obj] | str:
        """The node's pods, or why they could not be read."""
        if node not in self.read:
            try:
                self.read[node] = self.reader.node_pods(node)
            except ClusterError as err:
                self.read[node] = _refused(err, "list on pods at the cluster scope")
        return self.read[node]


def _nodes(snap: Snapshot, pool: str) -> list[Obj]:
    return sorted(snap.pool_nodes.get(pool, []), key=name_of)


NVIDIA_ONLY = {
    MIG_DEVICES: "nvidia-smi -L lists NVIDIA's MIG devices",
    GPU_MEMORY: "ACK's GPU sharing (aliyun.com/gpu-mem) splits NVIDIA GPUs",
    MPS_SERVER: "MPS (nvidia-cuda-mps-server) is NVIDIA's",
}
"""Why each NVIDIA-only check has nothing to look at on a stack without NVIDIA pools."""


def _not_applicable(check: str, seeds: SeedExpectations, none_of: str) -> CheckResult:
    """The one ``skip`` row of a check no pool of the stack calls for: none is an NVIDIA pool,
    or none is ``none_of``."""
    if seeds.nvidia_pools:
        return _skip(check, f"no {none_of} in the stack")
    vendors = " and ".join(sorted({pool.vendor.name for pool in seeds.pools}))
    names = ", ".join(pool.name for pool in seeds.pools)
    others = f", only {vendors}'s ({names})" if names else ""
    return _skip(check, f"no NVIDIA GPU pool in the stack{others}: {NVIDIA_ONLY[check]}")


def _target(node: Obj, pod: Obj) -> ExecTarget:
    return ExecTarget(
        name_of(node), text(pod, "metadata", "namespace"), name_of(pod), exec_container(pod)
    )


# --- the sections ---------------------------------------------------------------------------


def _mig(seeds: SeedExpectations, snap: Snapshot, pods: DaemonPods) -> list[Pending]:
    rows: list[Pending] = []
    for pool in seeds.nvidia_pools:
        if pool.mig is None:
            continue
        layout = pool.mig
        daemons = snap.pool_daemons.get(pool.name, [])
        for node in _nodes(snap, pool.name):
            _, pod = ready_pod_on_node(MIG_DEVICES, "device plugin", daemons, pods, node)
            if pod is None:
                rows.append(
                    _skip(
                        MIG_DEVICES,
                        "not checked: no ready device plugin pod on the node (its gpu-daemon row)",
                        f"node/{name_of(node)}",
                    )
                )
                continue
            name = name_of(node)
            rows.append(
                _Exec(
                    MIG_DEVICES,
                    _target(node, pod),
                    LIST_GPUS,
                    f"{layout} on each",
                    lambda listing, name=name, layout=layout: mig_devices(name, layout, listing),
                )
            )
    return rows or [_not_applicable(MIG_DEVICES, seeds, "MIG pool")]


def _gpu_memory(seeds: SeedExpectations, snap: Snapshot, node_pods: _NodePods) -> list[Pending]:
    rows: list[Pending] = []
    shared = [pool for pool in seeds.nvidia_pools if pool.gpu_mem_ledger]
    for pool in shared:
        for node in _nodes(snap, pool.name):
            found = node_pods(name_of(node))
            if isinstance(found, str):
                rows.append(
                    outcome(GPU_MEMORY, f"node/{name_of(node)}", GPU_MEMORY_EXPECTED, found, False)
                )
            else:
                rows.append(gpu_memory(node, found, pool))
    if not shared:
        return [_not_applicable(GPU_MEMORY, seeds, "ACK GPU-sharing pool (aliyun.com/gpu-mem)")]
    return rows


def _mps_daemon_pods(snap: Snapshot, plugin_namespace: str) -> dict[str, list[Obj]]:
    """The device plugin's MPS control daemon pods by node, in one pass over the pods."""
    by_node: dict[str, list[Obj]] = {}
    for pod in snap.pods.get(plugin_namespace, []):
        if is_mps_daemon_pod(pod):
            by_node.setdefault(text(pod, "spec", "nodeName"), []).append(pod)
    return by_node


def _mps_daemon_pod(
    pool: SeedPool,
    node: Obj,
    snap: Snapshot,
    pods: DaemonPods,
    plugin_namespace: str,
    *,
    mps_pods: dict[str, list[Obj]],
) -> tuple[Obj | None, CheckResult | None]:
    """The node's MPS control daemon pod when Ready, else the row that says why not."""
    subject = f"node/{name_of(node)}"
    if pool.mps is MpsDaemon.ACK:
        _, pod = ready_pod_on_node(MPS_SERVER, "", snap.pool_daemons.get(pool.name, []), pods, node)
        why = "not checked: no ready ACK MPS control daemon pod on the node (its gpu-daemon row)"
        return pod, None if pod is not None else _skip(MPS_SERVER, why, subject)
    candidates = mps_pods.get(name_of(node), [])
    ready = [pod for pod in candidates if pod_problem(pod) is None]
    if ready:
        return ready[0], None
    why = (
        f"{name_of(candidates[0])}: {pod_problem(candidates[0])}"
        if candidates
        else f"no pod of the device plugin's MPS control daemon in {plugin_namespace} on the node"
    )
    return None, outcome(MPS_SERVER, subject, MPS_EXPECTED, why, False)


def _clients(pods: list[Obj]) -> list[str]:
    """Running pods on the node that ask for a GPU: MPS clients once they use CUDA."""
    return sorted(
        name_of(pod)
        for pod in pods
        if text(pod, "status", "phase") == "Running" and pod_gpu_resources(pod)
    )


def _mps(
    exp: Expectations, snap: Snapshot, pods: DaemonPods, node_pods: _NodePods
) -> list[Pending]:
    rows: list[Pending] = []
    mps_pools = [pool for pool in exp.seeds.nvidia_pools if pool.mps is not None]
    mps_pods = _mps_daemon_pods(snap, exp.plugin_namespace) if mps_pools else {}
    for pool in mps_pools:
        for node in _nodes(snap, pool.name):
            name = name_of(node)
            pod, why_not = _mps_daemon_pod(
                pool, node, snap, pods, exp.plugin_namespace, mps_pods=mps_pods
            )
            if pod is None:
                assert why_not is not None
                rows.append(why_not)
                continue
            found = node_pods(name)
            if isinstance(found, str):
                rows.append(outcome(MPS_SERVER, f"node/{name}", MPS_EXPECTED, found, False))
                continue
            clients = _clients(found)
            rows.append(
                _Exec(
                    MPS_SERVER,
                    _target(node, pod),
                    SHOW_TABLE,
                    MPS_EXPECTED,
                    lambda table, name=name, clients=clients: mps_server(name, table, clients),
                )
            )
    return rows or [_not_applicable(MPS_SERVER, exp.seeds, "MPS pool")]


def _nvme(exp: Expectations, snap: Snapshot, reader: ClusterReader) -> list[Pending]:
    seeds = exp.seeds
    if not seeds.is_aks:
        why = seeds.not_aks or f"not an AKS stack (cloud: {seeds.cloud}): no NVMe cache"
        return [_skip(NVME_CACHE, why)]
    pools = [pool for pool in seeds.pools if pool.nvme is not None]
    if not pools:
        return [_skip(NVME_CACHE, "no GPU pool sets nvme: true")]
    rows: list[Pending] = []
    for subject, grant, read, judge in (
        (
            f"storageclass/{STORAGE_CLASS}",
            "get on storageclasses",
            lambda: reader.storage_class(STORAGE_CLASS),
            storage_class,
        ),
        (
            f"csidriver/{LOCAL_NVME_PROVISIONER}",
            "get on csidrivers",
            lambda: reader.csi_driver(LOCAL_NVME_PROVISIONER),
            csi_driver,
        ),
    ):
        try:
            rows.append(judge(read()))
        except ClusterError as err:
            rows.append(outcome(NVME_CACHE, subject, "-", _refused(err, grant), False))
    try:
        capacities: list[Obj] | str = reader.storage_capacities(ACSTOR_NAMESPACE)
    except ClusterError as err:
        capacities = _refused(err, f"list on csistoragecapacities in {ACSTOR_NAMESPACE}")
    for pool in pools:
        assert pool.nvme is not None
        for node in _nodes(snap, pool.name):
            if isinstance(capacities, str):
                subject = f"node/{name_of(node)}"
                rows.append(outcome(DISKS_CHECK, subject, str(pool.nvme), capacities, False))
            else:
                rows.append(node_disks(node, pool.nvme, capacities))
    return rows


def _node_images(exp: Expectations, snap: Snapshot, today: date) -> list[Pending]:
    seeds = exp.seeds
    if seeds.node_os_channel is None:
        why = seeds.not_aks or f"not an AKS stack (cloud: {seeds.cloud}): node images are AKS's"
        return [_skip(NODE_IMAGE, why)]
    channel = seeds.node_os_channel
    return [node_image(pool.name, _nodes(snap, pool.name), channel, today) for pool in seeds.pools]


# --- running the execs ------------------------------------------------------------------------


def _exec_hint(err: ExecError, target: ExecTarget) -> str:
    if "403" in str(err):
        return (
            f"{err}; the verifying identity needs create on pods/exec in {target.namespace} "
            "(or run with --skip-driver)"
        )
    return str(err)


def _run(job: _Exec, make_reader: ExecFactory) -> CheckResult:
    try:
        printed = make_reader(job.command)(job.target)
        return job.judge(printed)
    except ExecError as err:
        return outcome(job.check, job.subject, job.expected, _exec_hint(err, job.target), False)
    except Exception as err:  # an answer of a shape nothing expected: this row fails, alone
        return outcome(job.check, job.subject, job.expected, unexpected_answer(err), False)


def _resolve(
    pending: list[Pending], run_in_pod: ExecFactory | None, parallel: int, progress: Progress
) -> list[CheckResult]:
    jobs = [p for p in pending if isinstance(p, _Exec)]
    done: dict[int, CheckResult] = {}
    if jobs and run_in_pod is None:
        done = {id(j): CheckResult(j.check, j.subject, j.expected, NOT_RUN, "skip") for j in jobs}
    elif jobs and run_in_pod is not None:
        ran = run_each(
            jobs,
            lambda job: _run(job, run_in_pod),
            parallel,
            progress,
            phase="nvidia-smi",
            node_of=lambda job: job.target.node,
        )
        done = {id(job): result for job, result in ran}
    return [done[id(p)] if isinstance(p, _Exec) else p for p in pending]


def seed_checks(
    reader: ClusterReader,
    exp: Expectations,
    snap: Snapshot,
    pods: DaemonPods,
    run_in_pod: ExecFactory | None,
    *,
    parallel: int = 8,
    progress: Progress,
    today: date | None = None,
) -> list[CheckResult]:
    """Every seed check's rows, in the order of the module docstring.

    ``run_in_pod=None`` skips the ones that exec (no pods/exec permission); ``today`` (UTC by
    default) dates the node images."""
    node_pods = _NodePods(reader)
    pending = [
        *_mig(exp.seeds, snap, pods),
        *_gpu_memory(exp.seeds, snap, node_pods),
        *_mps(exp, snap, pods, node_pods),
        *_nvme(exp, snap, reader),
        *_node_images(exp, snap, today or datetime.now(UTC).date()),
    ]
    return _resolve(pending, run_in_pod, parallel, progress)
