"""Recording rules and alerts over AMD's device-metrics-exporter, the counterparts of
``plan.prometheus_rules``' dcgm-exporter rules: GPU use per namespace, workload type and pool (the
exporter labels every series of a GPU a pod holds with its ``namespace`` and ``pod``), idle
GPUs held by pods, and the alerts AMD's health service and ECC counters call for."""

from __future__ import annotations

from typing import Any

from gpu_facts.amd.gpu_operator import EXPORTER_NAME
from gpu_facts.amd.metrics_exporter import (
    ECC_UNCORRECTABLE,
    GFX_ACTIVITY,
    GPU_LABEL,
    HEALTH,
    HOSTNAME_LABEL,
    JUNCTION_TEMPERATURE,
    USED_VRAM,
    VRAM_BYTES_PER_UNIT,
)

from ..prometheus_rule_joins import ATTRIBUTED, BY_WORKLOAD, alert, by_pool

TEMPERATURE_LIMIT_C = 95
"""A default to tune per GPU model: the junction (hotspot) temperature runs above the core
temperature NVIDIA's rule reads, so its limit sits higher."""
IDLE_WINDOW = "30m"
_BY_POOL = by_pool(HOSTNAME_LABEL)


def amd_usage_rules() -> list[dict[str, Any]]:
    """GPU use per namespace, workload type and pool, and GPUs held by a pod but idle."""
    return [
        {
            "record": "namespace:amd_gpu_utilization:avg",
            "expr": f"avg by (namespace) ({GFX_ACTIVITY}{ATTRIBUTED})",
        },
        {
            "record": "namespace:amd_gpu_memory_used_bytes:sum",
            "expr": f"sum by (namespace) ({USED_VRAM}{ATTRIBUTED}) * {VRAM_BYTES_PER_UNIT}",
        },
        {
            "record": "workload:amd_gpu_utilization:avg",
            "expr": f"avg by (workload) ({GFX_ACTIVITY}{ATTRIBUTED} {BY_WORKLOAD})",
        },
        {
            "record": "workload:amd_gpu_memory_used_bytes:sum",
            "expr": (
                f"sum by (workload) ({USED_VRAM}{ATTRIBUTED} {BY_WORKLOAD}) * {VRAM_BYTES_PER_UNIT}"
            ),
        },
        {
            "record": "pool:amd_gpu_utilization:avg",
            "expr": f"avg by (pool) ({GFX_ACTIVITY} {_BY_POOL})",
        },
        {
            "record": "namespace:amd_gpu_allocated_idle:count",
            "expr": (
                f"count by (namespace) "
                f"(max_over_time({GFX_ACTIVITY}{ATTRIBUTED}[{IDLE_WINDOW}]) == 0)"
            ),
        },
    ]


def amd_health_alerts(operator_namespace: str) -> list[dict[str, Any]]:
    """Alerts on AMD GPUs: unhealthy (it has left the node's allocatable), uncorrectable ECC
    errors, hot, and an exporter that is not running."""
    on_gpu = f"AMD GPU {{{{ $labels.{GPU_LABEL} }}}} on {{{{ $labels.{HOSTNAME_LABEL} }}}}"
    return [
        alert(
            "AmdGpuUnhealthy",
            f"{HEALTH} == 0",
            "0m",
            "critical",
            f"{on_gpu} is unhealthy: its device plugin no longer offers it; drain the node and "
            "have the GPU serviced",
        ),
        alert(
            "AmdGpuUncorrectableEccErrors",
            f"increase({ECC_UNCORRECTABLE}[1h]) > 0",
            "0m",
            "warning",
            f"{on_gpu} counted uncorrectable ECC errors in the last hour",
        ),
        alert(
            "AmdGpuTemperatureHigh",
            f"{JUNCTION_TEMPERATURE} > {TEMPERATURE_LIMIT_C}",
            "10m",
            "warning",
            f"{on_gpu} has run above {TEMPERATURE_LIMIT_C} °C (junction) for 10 minutes",
        ),
        alert(
            "AmdGpuMetricsExporterDown",
            (
                f'kube_daemonset_status_number_unavailable{{namespace="{operator_namespace}", '
                f'daemonset=~".+-{EXPORTER_NAME}"}} > 0'
            ),
            "10m",
            "warning",
            "AMD's metrics exporter is not running on {{ $value }} GPU node(s): their GPUs are "
            "unwatched and their health unknown to the device plugin",
        ),
    ]
