"""The queue checks of ``make verify``, one row each, on objects read from the cluster: Kueue's
controller ready, each ClusterQueue active with its planned flavours and quotas, each LocalQueue
pointing at its ClusterQueue, each flavour with its pool's labels and tolerations selecting
exactly that pool's nodes. Pure: ``queue_verify`` reads, these judge."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from gpu_facts import kueue
from gpu_platform.settings.base import quantity_value

from .cluster import Obj
from .objects import count, entries, mapping, name_of, text
from .queue_expectations import (
    ClusterQueueExpectation,
    FlavorExpectation,
    LocalQueueExpectation,
    QueueExpectation,
)
from .results import CheckResult, many, outcome

CONTROLLER_CHECK = "kueue-controller"
CLUSTER_QUEUE_CHECK = "cluster-queue"
LOCAL_QUEUE_CHECK = "local-queue"
FLAVOR_CHECK = "resource-flavor"


def controller_row(queues: QueueExpectation, deployment: Obj | None) -> CheckResult:
    """Kueue's controller Deployment has every wanted replica ready."""
    subject = f"deployment/{queues.namespace}/{queues.deployment}"
    expected = "Kueue's controller ready (it admits every queued workload and serves the webhooks)"
    if deployment is None:
        return outcome(CONTROLLER_CHECK, subject, expected, "no such Deployment", False)
    wanted = count(deployment, "spec", "replicas")
    ready = count(deployment, "status", "readyReplicas") or 0
    wanted = 1 if wanted is None else wanted
    found = f"{ready}/{wanted} ready"
    return outcome(CONTROLLER_CHECK, subject, expected, found, wanted > 0 and ready >= wanted)


def _condition(obj: Obj, kind: str) -> Obj:
    return next((c for c in entries(obj, "status", "conditions") if c.get("type") == kind), {})


def _number(value: object) -> Decimal | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return Decimal(str(value))
    try:
        return quantity_value(str(value))
    except (KeyError, InvalidOperation, ValueError):
        return None


def live_quotas(cluster_queue: Obj) -> dict[tuple[str, str], Decimal | None]:
    """(flavour, resource) -> nominal quota of a ClusterQueue as the cluster holds it."""
    quotas: dict[tuple[str, str], Decimal | None] = {}
    for group in entries(cluster_queue, "spec", "resourceGroups"):
        for flavor in entries(group, "flavors"):
            for resource in entries(flavor, "resources"):
                key = (text(flavor, "name"), text(resource, "name"))
                quotas[key] = _number(resource.get("nominalQuota"))
    return quotas


def _shown(quotas: dict[tuple[str, str], object]) -> str:
    return ", ".join(f"{r} on {f}: {n}" for (f, r), n in sorted(quotas.items())) or "none"


def cluster_queue_row(expected: ClusterQueueExpectation, obj: Obj | None) -> CheckResult:
    """The ClusterQueue exists, is Active, joins its cohort, with the planned quotas."""
    subject = f"clusterqueue/{expected.name}"
    planned = dict(sorted(expected.quotas.items()))
    want = f"Active, cohort {expected.cohort}, nominal quotas {_shown(dict(planned))}"
    if obj is None:
        return outcome(CLUSTER_QUEUE_CHECK, subject, want, "no such ClusterQueue", False)
    active = _condition(obj, kueue.ACTIVE_CONDITION)
    problems = []
    if active.get("status") != "True":
        why = text(active, "reason") or "no Active condition"
        message = text(active, "message")
        problems.append(f"not Active ({why}{': ' + message if message else ''})")
    cohort = text(obj, "spec", "cohortName")
    if cohort != expected.cohort:
        problems.append(f"cohort {cohort or 'none'}")
    live = live_quotas(obj)
    if live != {k: Decimal(v) for k, v in planned.items()}:
        problems.append(f"nominal quotas {_shown(dict(live))}")
    found = "; ".join(problems) or "Active, as planned"
    return outcome(CLUSTER_QUEUE_CHECK, subject, want, found, not problems)


def local_queue_row(expected: LocalQueueExpectation, obj: Obj | None) -> CheckResult:
    """The LocalQueue exists and points at its ClusterQueue."""
    subject = f"localqueue/{expected.namespace}/{expected.name}"
    want = f"points at ClusterQueue {expected.cluster_queue}"
    if obj is None:
        return outcome(LOCAL_QUEUE_CHECK, subject, want, "no such LocalQueue", False)
    target = text(obj, "spec", "clusterQueue")
    ok = target == expected.cluster_queue
    found = f"points at {target or 'nothing'}"
    return outcome(LOCAL_QUEUE_CHECK, subject, want, found, ok)


def flavor_row(
    expected: FlavorExpectation,
    obj: Obj | None,
    selected: list[Obj] | None,
    pool_nodes: list[Obj],
) -> CheckResult:
    """The flavour carries its pool's labels and tolerations, and its live ``nodeLabels``
    select exactly the pool's nodes (``selected``: the nodes they select, None when they could
    not be read)."""
    subject = f"resourceflavor/{expected.name}"
    want = f"the labels and tolerations of pool {expected.pool}, selecting exactly its nodes"
    if obj is None:
        return outcome(FLAVOR_CHECK, subject, want, "no such ResourceFlavor", False)
    problems = []
    labels = {str(k): str(v) for k, v in mapping(obj, "spec", "nodeLabels").items()}
    if labels != expected.node_labels:
        problems.append(f"nodeLabels {labels or 'none'}")
    tolerations = entries(obj, "spec", "tolerations")
    if tolerations != expected.tolerations:
        problems.append(f"tolerations {tolerations or 'none'}")
    pool = {name_of(n) for n in pool_nodes}
    if selected is not None:
        chosen = {name_of(n) for n in selected}
        if not chosen and pool:
            problems.append("its nodeLabels select no node")
        elif chosen != pool:
            extra, missing = sorted(chosen - pool), sorted(pool - chosen)
            parts = [f"{many(len(chosen), 'node')} selected"]
            if extra:
                parts.append(f"not of the pool: {', '.join(extra)}")
            if missing:
                parts.append(f"the pool's left out: {', '.join(missing)}")
            problems.append("; ".join(parts))
    if problems:
        found = "; ".join(problems)
    elif selected is None:
        found = "its labels and tolerations as planned; nodes not read"
    elif pool:
        found = f"selects the pool's {many(len(pool), 'node')}"
    else:
        found = "selects the pool's nodes: none now (scaled to zero)"
    return outcome(FLAVOR_CHECK, subject, want, found, not problems)
