"""The GPU dashboard (Grafana JSON) over the recording rules of ``plan.prometheus_rules``.

Built from the rules' own names, so a renamed rule cannot leave a panel empty; ``python -m
gpu_platform.plan.gpu_dashboard --write`` writes ``observability/gpu-dashboard.json`` (a test
keeps it current). Import it into any Grafana with a Prometheus data source (Azure Managed
Grafana reads the Azure Monitor workspace as one).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from gpu_facts.amd import metrics_exporter as amd
from gpu_facts.nvidia.dcgm_exporter_chart import HOSTNAME_LABEL, TEMPERATURE, XID_ERRORS

from .prometheus_rules import usage_rules
from .queue_prometheus_rules import queue_usage_rules

DASHBOARD_FILE = Path(__file__).resolve().parent.parent / "observability" / "gpu-dashboard.json"
UID = "gpu-platform-gpus"
_WIDTH = 12
_HEIGHT = 8


def _record(prefix: str) -> str:
    """The recording rule whose name starts with ``prefix`` (fails if the rules lost it)."""
    records = [*usage_rules(), *queue_usage_rules()]
    (name,) = [r["record"] for r in records if r["record"].startswith(prefix)]
    return name


def _panel(index: int, title: str, expr: str, legend: str, unit: str) -> dict[str, Any]:
    return {
        "id": index + 1,
        "type": "timeseries",
        "title": title,
        "gridPos": {
            "h": _HEIGHT,
            "w": _WIDTH,
            "x": (index % 2) * _WIDTH,
            "y": (index // 2) * _HEIGHT,
        },
        "datasource": {"type": "prometheus", "uid": "${datasource}"},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "targets": [{"refId": "A", "expr": expr, "legendFormat": legend}],
    }


def panels() -> list[dict[str, Any]]:
    """Use per workload type first (what the seed asks to manage), then the drill-downs."""
    specs = [
        (
            "GPU utilization by workload type",
            _record("workload:dcgm_gpu_utilization"),
            "{{workload}}",
            "percent",
        ),
        (
            "GPU memory used by workload type",
            _record("workload:dcgm_gpu_memory_used_bytes"),
            "{{workload}}",
            "bytes",
        ),
        (
            "GPU utilization by namespace",
            _record("namespace:dcgm_gpu_utilization"),
            "{{namespace}}",
            "percent",
        ),
        (
            "GPU memory used by namespace",
            _record("namespace:dcgm_gpu_memory_used_bytes"),
            "{{namespace}}",
            "bytes",
        ),
        ("GPU utilization by pool", _record("pool:dcgm_gpu_utilization"), "{{pool}}", "percent"),
        (
            "MIG instances: graphics engine active by profile",
            _record("mig_profile:dcgm_gr_engine_active"),
            "{{GPU_I_PROFILE}}",
            "percentunit",
        ),
        (
            "GPUs held but idle for 30 minutes, by namespace",
            _record("namespace:dcgm_gpu_allocated_idle"),
            "{{namespace}}",
            "short",
        ),
        (
            "GPU temperature",
            f"max by ({HOSTNAME_LABEL}, gpu) ({TEMPERATURE})",
            f"{{{{{HOSTNAME_LABEL}}}}} GPU {{{{gpu}}}}",
            "celsius",
        ),
        (
            "Last XID error per GPU (0: none)",
            f"max by ({HOSTNAME_LABEL}, gpu) ({XID_ERRORS})",
            f"{{{{{HOSTNAME_LABEL}}}}} GPU {{{{gpu}}}}",
            "none",
        ),
    ]
    specs += amd_panel_specs()
    specs += queue_panel_specs()
    return [_panel(i, *spec) for i, spec in enumerate(specs)]


def amd_panel_specs() -> list[tuple[str, str, str, str]]:
    """The same views over AMD's exporter (pools of AMD GPUs), after NVIDIA's."""
    on_gpu = f"{{{{{amd.HOSTNAME_LABEL}}}}} GPU {{{{{amd.GPU_LABEL}}}}}"
    by_gpu = f"{amd.HOSTNAME_LABEL}, {amd.GPU_LABEL}"
    return [
        (
            "AMD GPU utilization by workload type",
            _record("workload:amd_gpu_utilization"),
            "{{workload}}",
            "percent",
        ),
        (
            "AMD GPU memory used by workload type",
            _record("workload:amd_gpu_memory_used_bytes"),
            "{{workload}}",
            "bytes",
        ),
        (
            "AMD GPU utilization by namespace",
            _record("namespace:amd_gpu_utilization"),
            "{{namespace}}",
            "percent",
        ),
        (
            "AMD GPU utilization by pool",
            _record("pool:amd_gpu_utilization"),
            "{{pool}}",
            "percent",
        ),
        (
            "AMD GPUs held but idle for 30 minutes, by namespace",
            _record("namespace:amd_gpu_allocated_idle"),
            "{{namespace}}",
            "short",
        ),
        (
            "AMD GPU junction temperature",
            f"max by ({by_gpu}) ({amd.JUNCTION_TEMPERATURE})",
            on_gpu,
            "celsius",
        ),
        (
            "AMD GPU health (1 healthy, 0 unhealthy)",
            f"min by ({by_gpu}) ({amd.HEALTH})",
            on_gpu,
            "none",
        ),
    ]


def queue_panel_specs() -> list[tuple[str, str, str, str]]:
    """Kueue's queues (stacks with ``queues``): GPU quota per ClusterQueue, what is admitted,
    borrowed and pending."""
    by_queue = "{{cluster_queue}} {{resource}}"
    return [
        (
            "GPUs admitted by ClusterQueue (workload type)",
            _record("cluster_queue:kueue_gpu_admitted"),
            by_queue,
            "short",
        ),
        (
            "GPU nominal quota by ClusterQueue",
            _record("cluster_queue:kueue_gpu_nominal_quota"),
            by_queue,
            "short",
        ),
        (
            "GPUs borrowed from the cohort by ClusterQueue",
            _record("cluster_queue:kueue_gpu_borrowed"),
            by_queue,
            "short",
        ),
        (
            "GPUs requested by pending workloads, by ClusterQueue",
            _record("cluster_queue:kueue_gpu_pending"),
            by_queue,
            "short",
        ),
        (
            "Pending workloads by ClusterQueue",
            _record("cluster_queue:kueue_pending_workloads"),
            "{{cluster_queue}} {{status}}",
            "short",
        ),
    ]


def dashboard() -> dict[str, Any]:
    return {
        "uid": UID,
        "title": "GPU platform: GPUs by workload",
        "tags": ["gpu-platform", "gpu", "dcgm", "amd", "kueue"],
        "timezone": "utc",
        "schemaVersion": 39,
        "time": {"from": "now-24h", "to": "now"},
        "refresh": "1m",
        "templating": {
            "list": [
                {
                    "name": "datasource",
                    "label": "Prometheus",
                    "type": "datasource",
                    "query": "prometheus",
                }
            ]
        },
        "panels": panels(),
    }


def render() -> str:
    return json.dumps(dashboard(), indent=2) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        DASHBOARD_FILE.write_text(render())
    else:
        sys.stdout.write(render())
