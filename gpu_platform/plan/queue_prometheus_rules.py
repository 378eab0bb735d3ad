"""Prometheus rules over Kueue's own metrics (``gpu_facts.kueue``): GPU quota per ClusterQueue,
what is admitted and what waits, and the alerts a queued cluster wants. The same groups join the
GPU rules everywhere they go (Azure rule groups, ARMS alerts, a PrometheusRule, the repository's
rule file: ``plan.prometheus_rules``) when the stack has queues.

Kueue's per-ClusterQueue resource metrics need ``metrics.enableClusterQueueResources``, which
our install turns on (``plan.queue_controller``). They are filtered to GPU resources, so another
team's ClusterQueues of CPU do not count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpu_facts import kueue
from gpu_facts.dra import GPU_DEVICE_CLASSES, device_class_quota_key
from gpu_facts.scheduling import (
    ALIYUN_GPU_MEM,
    AMD_GPU_PREFIX,
    AMD_PARTITION_PATTERN,
    NVIDIA_RESOURCE_DOMAIN,
)

from .prometheus_rule_joins import alert

DEFAULT_PENDING_MINUTES = 30
"""``queues.pendingAlertMinutes`` unset (the settings' default; the repository's rule file)."""
_DRA_GPU_KEYS = "|".join(
    device_class_quota_key(c).replace(".", "[.]") for c in sorted(GPU_DEVICE_CLASSES)
)
GPU_RESOURCE_MATCH = (
    f'resource=~"{NVIDIA_RESOURCE_DOMAIN.replace(".", "[.]")}.+'
    f"|{AMD_GPU_PREFIX.replace('.', '[.]')}.*|{ALIYUN_GPU_MEM.replace('.', '[.]')}"
    f'|{AMD_PARTITION_PATTERN.strip("^$").replace(chr(92), chr(92) * 2)}|{_DRA_GPU_KEYS}"'
)
"""Kueue's ``resource`` label of a GPU resource (NVIDIA's and ACK's names, AMD's GPUs and
partitions, and the quota resources of GPU DeviceClasses a DRA pool's devices are charged to:
``plan.queues.queue_resources``)."""
_Q = kueue.CLUSTER_QUEUE_LABEL


@dataclass(frozen=True, slots=True)
class QueueRules:
    """What the queue rules need of a stack with queues."""

    kueue_namespace: str = kueue.DEFAULT_NAMESPACE
    pending_minutes: int = DEFAULT_PENDING_MINUTES


def queue_usage_rules() -> list[dict[str, Any]]:
    """Recording rules per ClusterQueue and GPU resource: nominal quota, admitted, pending."""
    return [
        {
            "record": "cluster_queue:kueue_gpu_nominal_quota:sum",
            "expr": f"sum by ({_Q}, resource) ({kueue.NOMINAL_QUOTA}{{{GPU_RESOURCE_MATCH}}})",
        },
        {
            "record": "cluster_queue:kueue_gpu_admitted:sum",
            "expr": f"sum by ({_Q}, resource) ({kueue.RESOURCE_USAGE}{{{GPU_RESOURCE_MATCH}}})",
        },
        {
            "record": "cluster_queue:kueue_gpu_pending:sum",
            "expr": f"sum by ({_Q}, resource) ({kueue.RESOURCE_PENDING}{{{GPU_RESOURCE_MATCH}}})",
        },
        {
            "record": "cluster_queue:kueue_gpu_borrowed:sum",
            "expr": (
                "clamp_min(cluster_queue:kueue_gpu_admitted:sum"
                " - cluster_queue:kueue_gpu_nominal_quota:sum, 0)"
            ),
        },
        {
            "record": "cluster_queue:kueue_pending_workloads:sum",
            "expr": f"sum by ({_Q}, status) ({kueue.PENDING_WORKLOADS})",
        },
    ]


def queue_alerts(kueue_namespace: str, pending_minutes: int) -> list[dict[str, Any]]:
    """GPU requests pending past the threshold; a ClusterQueue that is not active; Kueue's
    controller down (its webhooks fail closed: no job can start in a queued namespace)."""
    return [
        alert(
            "KueueGpuRequestsPending",
            "cluster_queue:kueue_gpu_pending:sum > 0",
            f"{pending_minutes}m",
            "warning",
            f"ClusterQueue {{{{ $labels.{_Q} }}}} has had {{{{ $value }}}} "
            f"{{{{ $labels.resource }}}} requested by pending workloads for {pending_minutes} "
            "minutes: its quota (and what the cohort lends) is used up",
        ),
        alert(
            "KueueClusterQueueInactive",
            f'{kueue.CLUSTER_QUEUE_STATUS}{{status!="active"}} == 1',
            "10m",
            "warning",
            f"ClusterQueue {{{{ $labels.{_Q} }}}} is {{{{ $labels.status }}}}: it admits "
            "nothing (a missing ResourceFlavor, or a stop policy)",
        ),
        alert(
            "KueueControllerDown",
            (
                f'kube_deployment_status_replicas_available{{namespace="{kueue_namespace}", '
                f'deployment="{kueue.CONTROLLER_DEPLOYMENT}"}} < 1'
            ),
            "5m",
            "critical",
            "Kueue's controller has no ready pod: nothing is admitted, and its webhooks refuse "
            "every job and pod in the queued namespaces",
        ),
    ]


def queue_rule_groups(queues: QueueRules) -> list[dict[str, Any]]:
    """The queue groups, in the rule-file shape."""
    return [
        {"name": "gpu-platform-gpu-queues", "interval": "1m", "rules": queue_usage_rules()},
        {
            "name": "gpu-platform-gpu-queue-alerts",
            "interval": "1m",
            "rules": queue_alerts(queues.kueue_namespace, queues.pending_minutes),
        },
    ]
