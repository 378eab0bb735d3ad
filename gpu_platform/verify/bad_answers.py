"""A list the API server answered with something that is not a list: one failing row.

The reader records such an answer and reads it as empty (``ClusterReader.bad_answers``). The
rows computed from that empty list would be false findings (no node carries the pool label, no
plugin pod on the node...), so they are turned into ``skip`` rows that name the request, and
the request itself becomes the one failing row (check ``api-answer``). Which rows read which
list is below; a list not named there only adds its failing row. A list read but for some
nameless items (``partial``) adds its failing row and leaves the others as they are.
"""

from __future__ import annotations

from dataclasses import replace

from gpu_facts.scheduling import POOL_LABEL

from .answers import BadAnswer
from .expectations import Expectations
from .results import CheckResult
from .selectors import equality

CHECK = "api-answer"
DAEMON_CHECKS = frozenset({"gpu-daemon", "driver"})
"""Rows read from the GPU daemon's DaemonSets and their pods."""
EXPORTER_CHECKS = frozenset({"exporter", "gpu-series", "gpu-attribution"})
"""Rows read from the exporter's DaemonSets and pods (attribution reads the exporter's pages)."""
NAMESPACE_LISTS = {
    "networkpolicies": "network-policy",
    "resourcequotas": "gpu-quota",
}
"""A workload namespace's lists -> the row each is read for."""


def _daemonset_of(bad: BadAnswer, row: CheckResult, exp: Expectations) -> bool:
    """A ``daemonset`` row (it reads the DaemonSet's status, not its pods) of the list; the
    exporter's are read from its own namespace, not from a list across all of them."""
    if bad.resource != "daemonsets" or row.check != "daemonset":
        return False
    if bad.namespace is not None:
        return row.subject.startswith(f"daemonset/{bad.namespace}/")
    exporter = exp.exporter
    return exporter is None or not row.subject.startswith(f"daemonset/{exporter.namespace}/")


def reads(bad: BadAnswer, row: CheckResult, exp: Expectations) -> bool:
    """Whether ``row`` was computed from the list ``bad`` could not read."""
    ns = bad.namespace
    if bad.resource == "nodes":
        # Every GPU pool's nodes are read alike, AMD's too: the seeds' list has them all.
        every = exp.seeds.pools
        pools = [p.name for p in every if equality({POOL_LABEL: p.name}) == bad.selector]
        return row.subject in {f"pool/{p}" for p in pools}
    if bad.resource in ("daemonsets", "pods"):
        exporter_ns = exp.exporter.namespace if exp.exporter is not None else None
        workloads = {w.name for w in exp.namespaces}
        exporter_rows = row.check in EXPORTER_CHECKS or _daemonset_of(bad, row, exp)
        if ns is not None and ns == exporter_ns and exporter_rows:
            return True
        attribution = row.check == "gpu-attribution" and row.subject == f"namespace/{ns}"
        if bad.resource == "pods" and ns in workloads and attribution:
            return True
        # The GPU daemons' DaemonSets are read in the plugin's namespace, or in all of them
        # (ACK's MPS daemon); their pods wherever those DaemonSets are.
        for_daemons = (
            ns is None
            or ns == exp.plugin_namespace
            or (bad.resource == "pods" and ns not in workloads and ns != exporter_ns)
        )
        return for_daemons and (row.check in DAEMON_CHECKS or _daemonset_of(bad, row, exp))
    if bad.resource == "namespaces":
        return row.subject == f"namespace/{ns}"
    if bad.resource in NAMESPACE_LISTS:
        return row.check == NAMESPACE_LISTS[bad.resource] and row.subject == f"namespace/{ns}"
    if bad.resource == "validatingadmissionpolicybindings":
        return row.check == "admission-binding"
    return False


def with_bad_answers(
    rows: list[CheckResult], bad_answers: list[BadAnswer], exp: Expectations
) -> list[CheckResult]:
    """``rows`` with those read from a bad answer skipped, then one failing row per bad
    answer."""
    out: list[CheckResult] = []
    for row in rows:
        unread = next(
            (bad for bad in bad_answers if not bad.partial and reads(bad, row, exp)), None
        )
        if unread is not None and row.status != "skip":
            row = replace(row, found=f"not checked: {unread.what} gave no list", status="skip")
        out.append(row)
    return out + [
        CheckResult(CHECK, bad.what, bad.expected, bad.cause, "fail") for bad in bad_answers
    ]
