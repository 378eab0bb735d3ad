"""Prometheus recording rules and alerts for GPUs: one source for every target.

``rule_groups(pools)`` returns the groups in the Prometheus rule-file shape. The same groups
become Azure Monitor Prometheus rule groups on AKS, ``PrometheusRule`` objects for the
Prometheus Operator on an existing cluster, and ``observability/gpu-rules.yaml`` in the repo
(the generic groups; ``python -m gpu_platform.plan.prometheus_rules`` writes it, a test keeps it
current).

The metrics: dcgm-exporter's counters with the pod attribution it adds (``namespace``,
``pod``, ``container``), AMD's device-metrics-exporter's (``plan.amd.prometheus_rules``, the same
attribution), and kube-state-metrics' namespace and node labels (the workload type of a
namespace, the pool of a node), which the scraper must allow-list.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from gpu_facts.amd.gpu_operator import DEFAULT_NAMESPACE as AMD_NAMESPACE
from gpu_facts.nvidia.dcgm_exporter_chart import (
    CHART_NAME,
    ENGINE_ACTIVE,
    FRAMEBUFFER_USED,
    HOSTNAME_LABEL,
    MIG_PROFILE_LABEL,
    ROW_REMAP_FAILURE,
    TEMPERATURE,
    UNCORRECTABLE_REMAPPED_ROWS,
    UTILIZATION,
    XID_ERRORS,
)

from .pools import PoolFacts
from .prometheus_rule_joins import ATTRIBUTED, BY_WORKLOAD, POOL, by_pool, ksm_resource
from .prometheus_rule_joins import alert as _alert

if TYPE_CHECKING:
    from .queue_prometheus_rules import QueueRules

RULES_FILE = Path(__file__).resolve().parent.parent / "observability" / "gpu-rules.yaml"
TEMPERATURE_LIMIT_C = 85
"""A default to tune per GPU model: a GPU near its slowdown temperature (``nvidia-smi -q``
shows it) throttles its clocks."""
IDLE_WINDOW = "30m"


_BY_POOL = by_pool(HOSTNAME_LABEL)


def usage_rules() -> list[dict[str, Any]]:
    """Recording rules: GPU use per namespace, workload type, pool and MIG profile, and GPUs
    held by a pod but idle; NVIDIA's, then AMD's."""
    from .amd.prometheus_rules import amd_usage_rules

    return [*dcgm_usage_rules(), *amd_usage_rules()]


def dcgm_usage_rules() -> list[dict[str, Any]]:
    """dcgm-exporter's recording rules."""
    return [
        {
            "record": "namespace:dcgm_gpu_utilization:avg",
            "expr": f"avg by (namespace) ({UTILIZATION}{ATTRIBUTED})",
        },
        {
            "record": "namespace:dcgm_gpu_memory_used_bytes:sum",
            "expr": f"sum by (namespace) ({FRAMEBUFFER_USED}{ATTRIBUTED}) * 1048576",
        },
        {
            "record": "workload:dcgm_gpu_utilization:avg",
            "expr": f"avg by (workload) ({UTILIZATION}{ATTRIBUTED} {BY_WORKLOAD})",
        },
        {
            "record": "workload:dcgm_gpu_memory_used_bytes:sum",
            "expr": f"sum by (workload) ({FRAMEBUFFER_USED}{ATTRIBUTED} {BY_WORKLOAD}) * 1048576",
        },
        {
            "record": "pool:dcgm_gpu_utilization:avg",
            "expr": f"avg by (pool) ({UTILIZATION} {_BY_POOL})",
        },
        {
            "record": "mig_profile:dcgm_gr_engine_active:avg",
            "expr": (f'avg by ({MIG_PROFILE_LABEL}) ({ENGINE_ACTIVE}{{{MIG_PROFILE_LABEL}!=""}})'),
        },
        {
            "record": "namespace:dcgm_gpu_allocated_idle:count",
            "expr": (
                f"count by (namespace) "
                f"(max_over_time({UTILIZATION}{ATTRIBUTED}[{IDLE_WINDOW}]) == 0)"
            ),
        },
    ]


def health_alerts(exporter_namespace: str) -> list[dict[str, Any]]:
    """Alerts every GPU cluster wants, with defaults that page only on hardware trouble."""
    on_gpu = f"GPU {{{{ $labels.gpu }}}} on {{{{ $labels.{HOSTNAME_LABEL} }}}}"
    return [
        _alert(
            "GpuXidError",
            f"{XID_ERRORS} > 0",
            "0m",
            "warning",
            f"{on_gpu} reported XID {{{{ $value }}}} (NVIDIA's XID catalogue says what it means)",
        ),
        _alert(
            "GpuRowRemapFailure",
            f"{ROW_REMAP_FAILURE} > 0",
            "0m",
            "critical",
            f"{on_gpu} failed to remap a memory row: drain the node and replace the GPU",
        ),
        _alert(
            "GpuUncorrectableMemoryErrors",
            f"increase({UNCORRECTABLE_REMAPPED_ROWS}[1h]) > 0",
            "0m",
            "warning",
            f"{on_gpu} remapped rows for uncorrectable ECC errors in the last hour",
        ),
        _alert(
            "GpuTemperatureHigh",
            f"{TEMPERATURE} > {TEMPERATURE_LIMIT_C}",
            "10m",
            "warning",
            f"{on_gpu} has run above {TEMPERATURE_LIMIT_C} °C for 10 minutes (throttling)",
        ),
        _alert(
            "GpuMetricsExporterDown",
            (
                f'kube_daemonset_status_number_unavailable{{namespace="{exporter_namespace}", '
                f'daemonset=~".*{CHART_NAME}.*"}} > 0'
            ),
            "10m",
            "warning",
            "the GPU metrics exporter is not running on {{ $value }} GPU node(s): "
            "their GPUs are unwatched",
        ),
    ]


def capacity_alerts(pools: Sequence[PoolFacts]) -> list[dict[str, Any]]:
    """Per pool and GPU resource: a node that advertises less than the capacity model promises
    (a lost GPU, a MIG layout or sharing config not applied; on AMD pools also a GPU its
    exporter found unhealthy). Pools the NVIDIA device plugin or AMD's serves only: ACK's
    sharing plugins count ``aliyun.com/gpu-mem`` from the memory the driver reports (whole GiB,
    rounded down: gpushare-device-plugin ``setGPUMemory``), not the nominal size the capacity
    model promises."""
    alerts = []
    for pool in [p for p in pools if p.uses_device_plugin or p.is_amd]:
        for resource, promised in sorted(pool.capacity.per_node.items()):
            expr = (
                f'kube_node_status_allocatable{{resource="{ksm_resource(resource)}"}} '
                f'* on (node) group_left () kube_node_labels{{{POOL}="{pool.name}"}} '
                f"< {promised}"
            )
            alert = _alert(
                "GpuAllocatableBelowPromise",
                expr,
                "15m",
                "warning",
                f"node {{{{ $labels.node }}}} of pool {pool.name} offers {{{{ $value }}}} "
                f"{resource}, the pool promises {promised}",
            )
            # One alert per pool and resource: the labels tell them apart (and route them).
            alert["labels"] |= {"pool": pool.name, "resource": resource}
            alerts.append(alert)
    return alerts


def rule_groups(
    pools: Sequence[PoolFacts],
    exporter_namespace: str,
    amd_namespace: str = AMD_NAMESPACE,
    queues: QueueRules | None = None,
) -> list[dict[str, Any]]:
    """Every group for one platform: usage, health, and the stack's capacity promises. AMD's
    rules come with AMD pools; ``amd_namespace``: where AMD's GPU Operator runs its exporter;
    ``queues``: Kueue's rules (``plan.queue_prometheus_rules``) for a stack with queues."""
    amd = any(pool.is_amd for pool in pools)
    groups = generic_groups(exporter_namespace, amd_namespace, amd=amd, queues=queues)
    capacity = capacity_alerts(pools)
    if capacity:
        groups.append({"name": "gpu-platform-gpu-capacity", "interval": "1m", "rules": capacity})
    return groups


def generic_groups(
    exporter_namespace: str,
    amd_namespace: str = AMD_NAMESPACE,
    *,
    amd: bool = False,
    queues: QueueRules | None = None,
) -> list[dict[str, Any]]:
    """The groups that do not depend on the stack's pools; ``amd``: AMD's too, ``queues``:
    Kueue's (the repo's rules file has both)."""
    usage = dcgm_usage_rules()
    health = health_alerts(exporter_namespace)
    if amd:  # AMD's and Kueue's rules are imported by the stacks that have them
        from .amd.prometheus_rules import amd_health_alerts, amd_usage_rules

        usage = [*usage, *amd_usage_rules()]
        health = [*health, *amd_health_alerts(amd_namespace)]
    groups: list[dict[str, Any]] = [
        {"name": "gpu-platform-gpu-usage", "interval": "1m", "rules": usage},
        {"name": "gpu-platform-gpu-health", "interval": "1m", "rules": health},
    ]
    if queues is not None:
        from .queue_prometheus_rules import queue_rule_groups

        groups.extend(queue_rule_groups(queues))
    return groups


def recording_groups(groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Only the recording rules of ``groups`` (managed services that take them apart from the
    alerts: ACK's RecordingRule.yaml)."""
    kept = [{**g, "rules": [r for r in g["rules"] if "record" in r]} for g in groups]
    return [g for g in kept if g["rules"]]


def render(groups: list[dict[str, Any]]) -> str:
    """A Prometheus rule file."""
    header = (
        "# Generated by `python -m gpu_platform.plan.prometheus_rules` from"
        " gpu_platform/plan/prometheus_rules.py; do not edit.\n"
    )
    return header + yaml.safe_dump(
        {"groups": groups}, sort_keys=False, allow_unicode=True, width=100
    )


if __name__ == "__main__":
    from gpu_facts.nvidia.dcgm_exporter_chart import DEFAULT_NAMESPACE

    from .queue_prometheus_rules import QueueRules

    every = generic_groups(DEFAULT_NAMESPACE, amd=True, queues=QueueRules())
    text = render(every)
    if sys.argv[1:] == ["--recording"]:  # ACK: the managed Prometheus' RecordingRule.yaml
        text = render(recording_groups(every))
    if sys.argv[1:] == ["--write"]:
        RULES_FILE.parent.mkdir(exist_ok=True)
        RULES_FILE.write_text(text)
    else:
        sys.stdout.write(text)
