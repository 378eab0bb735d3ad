"""A list (or get) the API server answered with something that is not one: one failing row.

The reader records such an answer and reads it as empty, a get as "not found"
(``ClusterReader.bad_answers``). The rows computed from it would be false findings (no node
carries the pool label, no plugin pod on the node, no StorageClass...), so they are turned into
``skip`` rows that name the request, and the request itself becomes the one failing row (check
``api-answer``). A list read but for some nameless items (``partial``) adds its failing row and
leaves the others as they are.

Which rows read which list (``Feeds``) is decided per part of the report, by what that part
read: NVIDIA's rows (its pools' nodes and GPU daemons, the exporter, the workload namespaces),
the seed checks' rows, AMD's rows (its pools' nodes, its operator's namespace). So a bad list
skips its own part's rows only: a pod list of AMD's operator namespace skips AMD's device plugin
and exporter rows, never NVIDIA's. A request no part reads only adds its failing row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from gpu_facts.ack.addons import LOG_CONFIG_NAMESPACE
from gpu_facts.aks.storage import ACSTOR_NAMESPACE
from gpu_facts.scheduling import POOL_LABEL

from .amd.expectations import AmdExpectation
from .amd.verify import ATTRIBUTION_CHECK as AMD_ATTRIBUTION
from .answers import BadAnswer
from .dra_checks import CLASS_CHECK, NO_PLUGIN_CHECK, PLUGIN_CHECK, QUOTA_CHECK, SLICES_CHECK
from .dra_checks import DRIVER_CHECK as DRA_DRIVER_CHECK
from .dra_expectations import DraExpectation
from .expectations import Expectations, GpuDaemon, PoolExpectation
from .gpu_memory import CHECK as GPU_MEMORY
from .log_collection import CHECK as LOG_COLLECTION
from .mig_devices import CHECK as MIG_DEVICES
from .mps_server import CHECK as MPS_SERVER
from .nvme_cache import CHECK as NVME_CACHE
from .nvme_cache import DISKS_CHECK
from .objects import name_of, text
from .results import CheckResult
from .seed_expectations import MpsDaemon
from .selectors import equality
from .snapshot import Snapshot

CHECK = "api-answer"
DAEMON_CHECKS = frozenset({"gpu-daemon", "driver"})
"""NVIDIA's rows read from a pool's GPU daemon DaemonSets and their pods."""
SEED_DAEMON_CHECKS = frozenset({MIG_DEVICES, MPS_SERVER})
"""Seed rows that exec in a GPU daemon's pod, found in the same lists."""
NODE_POD_CHECKS = frozenset({GPU_MEMORY, MPS_SERVER})
"""Seed rows read from a node's pods in all namespaces (``kubectl inspect cgpu``'s list)."""
EXPORTER_CHECKS = frozenset({"exporter", "gpu-series", "gpu-attribution"})
"""Rows read from dcgm-exporter's DaemonSets and pods (attribution reads its pages)."""
AMD_OPERAND_CHECKS = frozenset({"gpu-daemon", "exporter", "gpu-series", AMD_ATTRIBUTION})
"""AMD's rows read from its operands' DaemonSets and pods: the device plugin's and the
exporter's (whose pages the series and attribution read). Its ``driver`` and ``gpu-health`` rows
read node labels."""
NAMESPACE_LISTS = {
    "networkpolicies": "network-policy",
    "resourcequotas": "gpu-quota",
    "limitranges": "limit-range",
}
"""A workload namespace's lists -> the row each is read for."""
OBJECTS = {"storageclasses": "storageclass", "csidrivers": "csidriver"}
"""Objects the seed checks get by name -> their rows' subject prefix."""

Reads = Callable[[BadAnswer, CheckResult], bool]
"""Whether a row was computed from the request that got a bad answer."""


def _node(row: CheckResult) -> str | None:
    return row.subject.removeprefix("node/") if row.subject.startswith("node/") else None


def _plain_list(bad: BadAnswer, resource: str, namespace: str | None) -> bool:
    """``bad`` is the list of ``resource`` in ``namespace`` (None: all namespaces), no selector."""
    return (
        bad.resource == resource
        and bad.namespace == namespace
        and not bad.selector
        and not bad.field_selector
        and bad.name is None
    )


def _in_daemonsets_of(bad: BadAnswer, row: CheckResult, namespace: str | None) -> bool:
    """A ``daemonset`` row (its status, not its pods) of the DaemonSet list ``bad``."""
    return (
        row.check == "daemonset"
        and _plain_list(bad, "daemonsets", namespace)
        and (namespace is None or row.subject.startswith(f"daemonset/{namespace}/"))
    )


@dataclass(frozen=True, slots=True)
class Feeds:
    """Which rows each request feeds: the stack's expectations and, from the snapshot, each
    pool's nodes and where each NVIDIA pool's GPU daemon pods were listed."""

    exp: Expectations
    amd: AmdExpectation | None
    pool_nodes: Mapping[str, frozenset[str]]
    """Pool -> the names of its nodes (every GPU pool's, AMD's too)."""
    daemon_namespaces: Mapping[str, frozenset[str]]
    """NVIDIA pool -> the namespaces of the DaemonSets serving its GPUs: its daemon pods were
    listed there."""
    dra: DraExpectation | None = None
    """The DRA pools and driver, when the stack has DRA pools."""

    @classmethod
    def of(
        cls,
        exp: Expectations,
        snap: Snapshot,
        amd: AmdExpectation | None,
        dra: DraExpectation | None = None,
    ) -> Feeds:
        return cls(
            exp,
            amd,
            {pool: frozenset(map(name_of, nodes)) for pool, nodes in snap.pool_nodes.items()},
            {
                pool: frozenset(text(ds, "metadata", "namespace") for ds in sets)
                for pool, sets in snap.pool_daemons.items()
            },
            dra,
        )

    # --- shared by the parts ------------------------------------------------------------------

    def _pool_row(self, bad: BadAnswer, row: CheckResult, pools: Iterable[str]) -> bool:
        """A ``pool/<name>`` row of one of ``pools`` whose nodes ``bad`` listed."""
        if bad.resource != "nodes":
            return False
        return any(
            equality({POOL_LABEL: pool}) == bad.selector and row.subject == f"pool/{pool}"
            for pool in pools
        )

    def _on_nodes_of(self, row: CheckResult, pools: Iterable[PoolExpectation]) -> bool:
        node = _node(row)
        return node is not None and any(node in self.pool_nodes.get(p.name, ()) for p in pools)

    def _daemon_lists(self, bad: BadAnswer, pool: PoolExpectation) -> bool:
        """``bad`` is a list the pool's GPU daemon pods were found in: the DaemonSets (the
        plugin's namespace, or all of them for ACK's MPS daemon), or their pods."""
        if pool.daemon is GpuDaemon.DEVICE_PLUGIN:
            sets = _plain_list(bad, "daemonsets", self.exp.plugin_namespace)
        elif pool.daemon is GpuDaemon.ACK_MPS_CONTROL:
            sets = _plain_list(bad, "daemonsets", None)
        else:
            return False
        pods = any(_plain_list(bad, "pods", ns) for ns in self.daemon_namespaces.get(pool.name, ()))
        return sets or pods

    def _daemons_read(self, bad: BadAnswer) -> list[PoolExpectation]:
        """NVIDIA's pools whose GPU daemon pods were looked for in ``bad``."""
        return [pool for pool in self.exp.pools if self._daemon_lists(bad, pool)]

    # --- the parts ----------------------------------------------------------------------------

    def nvidia(self, bad: BadAnswer, row: CheckResult) -> bool:
        """NVIDIA's rows: its pools, GPU daemons, dcgm-exporter and the workload namespaces."""
        exp = self.exp
        if bad.resource == "nodes":
            return self._pool_row(bad, row, (pool.name for pool in exp.pools))
        if bad.resource == "namespaces":
            return row.subject == f"namespace/{bad.name}"
        if bad.resource in NAMESPACE_LISTS:
            return row.check == NAMESPACE_LISTS[bad.resource] and row.subject == (
                f"namespace/{bad.namespace}"
            )
        if bad.resource == "validatingadmissionpolicybindings":
            return row.check == "admission-binding"
        if bad.resource not in ("daemonsets", "pods"):
            return False
        workload_pods = row.check == "gpu-attribution" and _plain_list(bad, "pods", bad.namespace)
        return (
            self._exporter_read(bad, row)
            or self._daemon_read(bad, row)
            or (workload_pods and row.subject == f"namespace/{bad.namespace}")
        )

    def _exporter_read(self, bad: BadAnswer, row: CheckResult) -> bool:
        """dcgm-exporter's rows, from its namespace's DaemonSets or pods (attribution reads the
        pages of the pods found)."""
        exporter = self.exp.exporter
        if exporter is None or not _plain_list(bad, bad.resource, exporter.namespace):
            return False
        return row.check in EXPORTER_CHECKS or _in_daemonsets_of(bad, row, exporter.namespace)

    def _daemon_read(self, bad: BadAnswer, row: CheckResult) -> bool:
        """The GPU daemon rows of the pools whose daemon was looked for in ``bad``, and the
        status rows of the DaemonSets it lists."""
        if row.check in DAEMON_CHECKS:
            return self._on_nodes_of(row, self._daemons_read(bad))
        if bad.namespace is not None:
            return _in_daemonsets_of(bad, row, bad.namespace)
        # All namespaces (ACK's MPS daemon): the exporter's are read from its own namespace.
        exporter = self.exp.exporter
        theirs = exporter is not None and row.subject.startswith(f"daemonset/{exporter.namespace}/")
        return _in_daemonsets_of(bad, row, None) and not theirs

    def seeds(self, bad: BadAnswer, row: CheckResult) -> bool:
        """The seed checks' rows: node images of every pool, the NVMe cache, and NVIDIA's
        ``nvidia-smi -L``, GPU-memory books and MPS server."""
        exp = self.exp
        if bad.resource == "nodes":
            return self._pool_row(bad, row, (pool.name for pool in exp.seeds.pools))
        if bad.resource in OBJECTS:
            subject = f"{OBJECTS[bad.resource]}/{bad.name}"
            return row.check == NVME_CACHE and row.subject == subject
        if bad.resource == "csistoragecapacities":
            return row.check == DISKS_CHECK and _plain_list(bad, bad.resource, ACSTOR_NAMESPACE)
        if bad.resource == "pods" and bad.field_selector:
            node = _node(row)
            on_node = node is not None and bad.field_selector == f"spec.nodeName={node}"
            return row.check in NODE_POD_CHECKS and on_node
        if bad.resource not in ("daemonsets", "pods") or row.check not in SEED_DAEMON_CHECKS:
            return False
        if self._on_nodes_of(row, self._daemons_read(bad)):
            return True
        # The device plugin's MPS control daemon: its pods are read in the plugin's namespace.
        mps = {pool.name for pool in exp.seeds.pools if pool.mps is MpsDaemon.DEVICE_PLUGIN}
        plugin_mps = [pool for pool in exp.pools if pool.name in mps]
        return (
            row.check == MPS_SERVER
            and _plain_list(bad, "pods", exp.plugin_namespace)
            and self._on_nodes_of(row, plugin_mps)
        )

    def logs(self, bad: BadAnswer, row: CheckResult) -> bool:
        """The log-collection rows: read from kube-system's DaemonSets (AKS) or log configs
        (ACK)."""
        return (
            row.check == LOG_COLLECTION
            and bad.resource in ("daemonsets", "aliyunlogconfigs")
            and _plain_list(bad, bad.resource, LOG_CONFIG_NAMESPACE)
        )

    def amd_rows(self, bad: BadAnswer, row: CheckResult) -> bool:
        """AMD's rows: its pools' nodes, its operator's DaemonSets and pods, the pods of the
        namespaces that may use its pools."""
        amd = self.amd
        if amd is None:
            return False
        if bad.resource == "nodes":
            return self._pool_row(bad, row, (pool.pool.name for pool in amd.pools))
        if _plain_list(bad, "daemonsets", amd.namespace):
            return row.check in AMD_OPERAND_CHECKS or _in_daemonsets_of(bad, row, amd.namespace)
        if _plain_list(bad, "pods", amd.namespace):
            return row.check in AMD_OPERAND_CHECKS
        return (
            row.check == AMD_ATTRIBUTION
            and row.subject == f"namespace/{bad.namespace}"
            and _plain_list(bad, "pods", bad.namespace)
        )

    def dra_rows(self, bad: BadAnswer, row: CheckResult) -> bool:
        """The DRA rows: its pools' nodes, the driver's DaemonSets, pods and ResourceSlices,
        the DeviceClasses, each DRA node's pods, the workload namespaces' quotas."""
        dra = self.dra
        if dra is None:
            return False
        if bad.resource == "nodes":
            return self._pool_row(bad, row, (pool.pool.name for pool in dra.pools))
        if bad.resource == "resourceslices":
            return row.check in (SLICES_CHECK, DRA_DRIVER_CHECK)
        if bad.resource == "deviceclasses":
            return row.check == CLASS_CHECK
        if bad.resource == "resourcequotas":
            return row.check == QUOTA_CHECK and row.subject == f"namespace/{bad.namespace}"
        if bad.resource == "pods" and bad.field_selector:
            node = _node(row)
            return row.check == NO_PLUGIN_CHECK and bad.field_selector == f"spec.nodeName={node}"
        if _plain_list(bad, "daemonsets", dra.namespace):
            return row.check == PLUGIN_CHECK or _in_daemonsets_of(bad, row, dra.namespace)
        return row.check == PLUGIN_CHECK and _plain_list(bad, "pods", dra.namespace)


def with_bad_answers(
    parts: Iterable[tuple[list[CheckResult], Reads]], bad_answers: list[BadAnswer]
) -> list[CheckResult]:
    """Each part's rows, those it read from a bad answer skipped, then one failing row per bad
    answer (a request answered alike twice, one row)."""
    whole = [bad for bad in dict.fromkeys(bad_answers) if not bad.partial]
    out: list[CheckResult] = []
    for rows, reads in parts:
        for row in rows:
            unread = next((bad for bad in whole if reads(bad, row)), None)
            if unread is not None and row.status != "skip":
                gave = "no object" if unread.name is not None else "no list"
                row = replace(row, found=f"not checked: {unread.what} gave {gave}", status="skip")
            out.append(row)
    return out + [
        CheckResult(CHECK, bad.what, bad.expected, bad.cause, "fail")
        for bad in dict.fromkeys(bad_answers)
    ]
