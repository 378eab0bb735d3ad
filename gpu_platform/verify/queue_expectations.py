"""What the stack promised of its queues (docs/queues.md), in terms a live cluster shows: Kueue's
controller, the flavours with the labels and tolerations of their pools, the ClusterQueues with
their flavours and nominal quotas, the LocalQueues and the ClusterQueue each points at.

Derived from the same ``plan.queues`` function ``GpuQueues`` provisions from, so the check cannot
drift from what was built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gpu_facts import kueue
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.plan.queues import queues_plan
from gpu_platform.settings import QueuesSettings, WorkloadSettings


@dataclass(frozen=True, slots=True)
class FlavorExpectation:
    name: str
    pool: str
    node_labels: dict[str, str]
    tolerations: list[dict[str, str]]


@dataclass(frozen=True, slots=True)
class ClusterQueueExpectation:
    name: str
    cohort: str
    quotas: dict[tuple[str, str], int]
    """(flavour, resource) -> nominal quota, every covered resource of every flavour."""


@dataclass(frozen=True, slots=True)
class LocalQueueExpectation:
    namespace: str
    name: str
    cluster_queue: str


@dataclass(frozen=True, slots=True)
class QueueExpectation:
    namespace: str
    """Kueue's namespace: its controller's Deployment is there."""
    flavors: list[FlavorExpectation]
    cluster_queues: list[ClusterQueueExpectation]
    local_queues: list[LocalQueueExpectation]
    deployment: str = kueue.CONTROLLER_DEPLOYMENT


def queue_expectation(platform: ResolvedPlatform) -> QueueExpectation | None:
    """The queues' expectations, None when the stack has no queues."""
    settings = platform.settings.queues
    if settings is None:
        return None
    return queues_expectation(settings, platform.pools, platform.settings.workloads)


def queues_expectation(
    settings: QueuesSettings, pools: Mapping[str, PoolFacts], workloads: Sequence[WorkloadSettings]
) -> QueueExpectation:
    """What ``GpuQueues`` builds of ``settings`` for these pools and namespaces, as a live
    cluster shows it: the stack config's path and a plan's (``plan_expectations``) both ask
    here."""
    plan = queues_plan(settings, pools, workloads)
    return QueueExpectation(
        namespace=settings.namespace,
        flavors=[
            FlavorExpectation(f.name, f.pool, dict(f.node_labels), [dict(t) for t in f.tolerations])
            for f in plan.flavors
        ],
        cluster_queues=[
            ClusterQueueExpectation(
                q.name,
                q.cohort,
                {(f, r): q.quota(f, r).nominal for f in q.quotas for r in q.covered},
            )
            for q in plan.cluster_queues
        ],
        local_queues=[
            LocalQueueExpectation(q.namespace, q.name, q.cluster_queue) for q in plan.local_queues
        ],
    )
