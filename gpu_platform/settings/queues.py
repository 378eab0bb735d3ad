"""Queue settings: Kueue, one ClusterQueue per workload type sharing GPUs in a cohort
(docs/queues.md). The section's presence turns queues on; ``queues: {}`` takes every default."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt

from gpu_facts import kueue

from .base import DnsLabel, PositiveWhole, SettingsModel

Percent = Annotated[StrictInt, Field(ge=0)]
ServiceAccountRef = Annotated[
    str, Field(pattern=r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?/[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$")
]
"""``<namespace>/<service account name>``."""


class QueueTypeSettings(SettingsModel):
    """How one workload type's ClusterQueue shares GPUs with the other types of the cohort."""

    borrow: StrictBool | None = None
    """Whether the type borrows the other types' idle quota. Unset: every type but
    ``inference`` does; inference does not, so no reclaim ever preempts a serving pod."""
    borrowing_limit_percent: Percent | None = None
    """When it borrows: at most this percentage of its own nominal quota, per pool and GPU
    resource; unset: no limit."""
    lending_limit_percent: Annotated[StrictInt, Field(ge=0, le=100)] | None = None
    """How much of its unused nominal quota the type lends to the others, in percent; unset or
    100: all of it (it takes it back by preemption: ``reclaimWithinCohort``)."""
    reclaim_within_cohort: Literal["Never", "LowerPriority", "Any"] = "Any"
    """Whether a workload that fits the type's nominal quota may preempt workloads that borrow
    it from another type: ``Any`` (default: what a type lent it can always reclaim),
    ``LowerPriority``, ``Never``."""
    within_cluster_queue: Literal["Never", "LowerPriority", "LowerOrNewerEqualPriority"] = (
        "LowerPriority"
    )
    """Whether a workload over the type's quota may preempt the type's own workloads of lower
    priority (default ``LowerPriority``)."""
    borrow_within_cohort: Literal["Never", "LowerPriority"] = "Never"
    """Whether a workload that needs to borrow may preempt other types' workloads of lower
    priority to get it (default ``Never``: borrowing takes only what is idle)."""


class QueuesSettings(SettingsModel):
    """Kueue and the queues of the workload namespaces."""

    version: str = kueue.DEFAULT_VERSION
    """Kueue chart version (``oci://registry.k8s.io/kueue/charts/kueue``), 0.19.0 or newer."""
    namespace: DnsLabel = kueue.DEFAULT_NAMESPACE
    """Namespace of Kueue's controller (Pod Security ``restricted``, deny-all but what its
    webhook, visibility API, metrics and API-server calls need)."""
    cohort: DnsLabel = "gpu-platform"
    """The cohort every workload type's ClusterQueue joins, to lend and borrow idle GPUs."""
    queueing_strategy: Literal["BestEffortFIFO", "StrictFIFO"] = "BestEffortFIFO"
    """Order of admission within a ClusterQueue: ``BestEffortFIFO`` (default: a workload that
    does not fit does not block smaller ones behind it) or ``StrictFIFO``."""
    types: dict[str, QueueTypeSettings] = Field(default_factory=dict)
    """Per workload type (``training``, ``inference``, ...): borrowing, lending and
    preemption; types not listed take the defaults."""
    pending_alert_minutes: PositiveWhole = 30
    """Alert when GPU requests of a ClusterQueue have been pending this long."""
    metrics_readers: list[ServiceAccountRef] | None = None
    """Service accounts (``namespace/name``) allowed to read Kueue's metrics, which it serves
    over HTTPS to authorized callers only: your Prometheus' with ``serviceMonitor``. Unset: on
    AKS with Azure Monitor, the metrics add-on's (``kube-system/ama-metrics-serviceaccount``),
    elsewhere none."""
