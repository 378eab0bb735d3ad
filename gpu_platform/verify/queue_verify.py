"""``make verify`` on the stack's queues (docs/queues.md): read Kueue's controller Deployment and
its ResourceFlavors, ClusterQueues and LocalQueues (read-only list calls), the nodes each live
flavour's ``nodeLabels`` select, then judge them (``queue_checks``) against what the stack
planned (``queue_expectations``). The pools' nodes come from the snapshot the other checks read.

Kueue's API not served (its CRDs missing: Kueue not installed) is one failing row per object
kind, not a failed run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gpu_facts import kueue

from .answers import BadAnswer
from .cluster import ClusterError, ClusterReader, Obj
from .objects import name_of
from .queue_checks import (
    CLUSTER_QUEUE_CHECK,
    CONTROLLER_CHECK,
    FLAVOR_CHECK,
    LOCAL_QUEUE_CHECK,
    cluster_queue_row,
    controller_row,
    flavor_row,
    local_queue_row,
)
from .queue_expectations import QueueExpectation
from .results import CheckResult
from .selectors import equality

Step = Callable[[str], None]
VERSION = kueue.API_VERSION.split("/")[1]
ROW_OF = {
    "deployments": CONTROLLER_CHECK,
    kueue.RESOURCE_FLAVORS: FLAVOR_CHECK,
    kueue.CLUSTER_QUEUES: CLUSTER_QUEUE_CHECK,
    kueue.LOCAL_QUEUES: LOCAL_QUEUE_CHECK,
}
"""The list each row is read from."""


class NotServed(Exception):
    """Kueue's API is not served: its CRDs are missing."""


def _objects(reader: ClusterReader, plural: str, namespace: str | None = None) -> list[Obj]:
    try:
        return reader.custom_objects(kueue.API_GROUP, VERSION, plural, namespace)
    except ClusterError as err:
        if err.status == 404:
            raise NotServed(str(err)) from None
        raise


def _not_served(queues: QueueExpectation, why: str) -> list[CheckResult]:
    found = f"Kueue's API ({kueue.API_VERSION}) is not served: {why}"
    rows = [
        CheckResult(FLAVOR_CHECK, f"resourceflavor/{f.name}", "Kueue installed", found, "fail")
        for f in queues.flavors
    ]
    rows += [
        CheckResult(CLUSTER_QUEUE_CHECK, f"clusterqueue/{q.name}", "Kueue installed", found, "fail")
        for q in queues.cluster_queues
    ]
    return rows


def verify_queues(
    reader: ClusterReader,
    queues: QueueExpectation,
    step: Step,
    pool_nodes: Mapping[str, list[Obj]],
) -> list[CheckResult]:
    """Every queue row: the controller, each flavour, each ClusterQueue, each LocalQueue."""
    step(f"deployments in {queues.namespace}")
    deployments = {name_of(d): d for d in reader.deployments(queues.namespace)}
    rows = [controller_row(queues, deployments.get(queues.deployment))]
    try:
        step("resourceflavors")
        flavors = {name_of(f): f for f in _objects(reader, kueue.RESOURCE_FLAVORS)}
        step("clusterqueues")
        cluster_queues = {name_of(q): q for q in _objects(reader, kueue.CLUSTER_QUEUES)}
        local: dict[tuple[str, str], Obj] = {}
        for namespace in sorted({q.namespace for q in queues.local_queues}):
            step(f"localqueues in {namespace}")
            for obj in _objects(reader, kueue.LOCAL_QUEUES, namespace):
                local[(namespace, name_of(obj))] = obj
    except NotServed as err:
        return rows + _not_served(queues, str(err))
    for flavor in queues.flavors:
        obj = flavors.get(flavor.name)
        selected = None
        if obj is not None:
            labels = {
                str(k): str(v) for k, v in (obj.get("spec") or {}).get("nodeLabels", {}).items()
            }
            step(f"nodes of flavour {flavor.name}")
            selected = reader.nodes(equality(labels)) if labels else None
        rows.append(flavor_row(flavor, obj, selected, pool_nodes.get(flavor.pool, [])))
    rows += [cluster_queue_row(q, cluster_queues.get(q.name)) for q in queues.cluster_queues]
    rows += [local_queue_row(q, local.get((q.namespace, q.name))) for q in queues.local_queues]
    return rows


def queue_reads(queues: QueueExpectation | None) -> Callable[[BadAnswer, CheckResult], bool]:
    """Which queue rows each request fed (``bad_answers.with_bad_answers``): the lists of
    Deployments, flavours, ClusterQueues and LocalQueues, and the nodes a flavour selects."""

    def reads(bad: BadAnswer, row: CheckResult) -> bool:
        if queues is None:
            return False
        if bad.resource == "nodes":
            return row.check == FLAVOR_CHECK and bool(bad.selector)
        if bad.resource == kueue.LOCAL_QUEUES:
            return row.check == LOCAL_QUEUE_CHECK and row.subject.startswith(
                f"localqueue/{bad.namespace}/"
            )
        return ROW_OF.get(bad.resource) == row.check

    return reads
