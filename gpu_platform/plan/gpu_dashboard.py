"""The GPU dashboard (Grafana JSON) over the recording rules of ``plan.gpu_rules``.

Built from the rules' own names, so a renamed rule cannot leave a panel empty; ``python -m
plan.gpu_dashboard --write`` writes ``observability/gpu-dashboard.json`` (a test keeps it
current). Import it into any Grafana with a Prometheus data source (Azure Managed Grafana reads
the Azure Monitor workspace as one).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from gpu_facts.dcgm_exporter_chart import HOSTNAME_LABEL, TEMPERATURE, XID_ERRORS

from .gpu_rules import usage_rules

DASHBOARD_FILE = Path(__file__).resolve().parent.parent / "observability" / "gpu-dashboard.json"
UID = "gpu-platform-gpus"
_WIDTH = 12
_HEIGHT = 8


def _record(prefix: str) -> str:
    """The recording rule whose name starts with ``prefix`` (fails if the rules lost it)."""
    (name,) = [r["record"] for r in usage_rules() if r["record"].startswith(prefix)]
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
    return [_panel(i, *spec) for i, spec in enumerate(specs)]


def dashboard() -> dict[str, Any]:
    return {
        "uid": UID,
        "title": "GPU platform: GPUs by workload",
        "tags": ["gpu-platform", "gpu", "dcgm"],
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
