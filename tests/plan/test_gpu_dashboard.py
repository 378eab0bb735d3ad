"""The GPU dashboard: current in the repository, every panel valid PromQL over our recording
rules or the exporter's metrics (plan.gpu_dashboard)."""

from __future__ import annotations

import json
import re

import promql_parser

from gpu_platform.plan.gpu_dashboard import DASHBOARD_FILE, dashboard, render
from gpu_platform.plan.prometheus_rules import usage_rules
from gpu_platform.plan.queue_prometheus_rules import queue_usage_rules


def test_the_dashboard_file_is_current() -> None:
    assert DASHBOARD_FILE.read_text() == render(), (
        "observability/gpu-dashboard.json is stale: run "
        "`python -m gpu_platform.plan.gpu_dashboard --write`"
    )


def test_every_panel_queries_valid_promql_over_our_rules_or_exporter_metrics() -> None:
    recorded = {r["record"] for r in [*usage_rules(), *queue_usage_rules()]}
    panels = json.loads(DASHBOARD_FILE.read_text())["panels"]
    assert len({p["id"] for p in panels}) == len(panels)
    for panel in panels:
        (target,) = panel["targets"]
        promql_parser.parse(target["expr"])
        names = set(re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*(?=[{ )]|$)", target["expr"]))
        exporter_series = any(n.startswith(("DCGM_FI_", "gpu_")) for n in names)
        assert names & recorded or exporter_series, panel["title"]
    # The workload-type view comes first: it is what the platform is asked to manage.
    assert panels[0]["targets"][0]["expr"] == "workload:dcgm_gpu_utilization:avg"


def test_each_panel_reads_a_recording_rule_by_its_own_name() -> None:
    board = dashboard()
    assert board["uid"] == "gpu-platform-gpus"
    recorded = {r["record"] for r in usage_rules()}
    exprs = [panel["targets"][0]["expr"] for panel in board["panels"]]
    assert {e for e in exprs if e in recorded}, "no panel shows a recording rule as it is"


def test_the_queues_have_their_panels_over_the_queue_rules() -> None:
    """Kueue's view: admitted, nominal, borrowed and pending GPUs per ClusterQueue."""
    queue_records = {r["record"] for r in queue_usage_rules()}
    exprs = {panel["targets"][0]["expr"] for panel in dashboard()["panels"]}
    assert queue_records <= exprs
