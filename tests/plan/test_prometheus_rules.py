"""The GPU rules and alerts: valid PromQL, one source for every target, the repo file current."""

from __future__ import annotations

import promql_parser
import pytest
import yaml

from gpu_facts.nvidia.dcgm_exporter_chart import DEFAULT_NAMESPACE
from gpu_platform.plan.prometheus_rules import (
    RULES_FILE,
    capacity_alerts,
    generic_groups,
    render,
    rule_groups,
)
from gpu_platform.plan.queue_prometheus_rules import QueueRules
from tests.conftest import platform_of, stack_raw

STACKS = ["dev", "prod", "ack-dev", "existing", "amd-dev", "dra-dev", "queues-dev"]


def _rules(stack: str) -> list[dict]:
    platform = platform_of(stack_raw(stack))
    queues = platform.settings.queues
    groups = rule_groups(
        list(platform.pools.values()),
        DEFAULT_NAMESPACE,
        queues=QueueRules(queues.namespace, queues.pending_alert_minutes) if queues else None,
    )
    return [rule for group in groups for rule in group["rules"]]


@pytest.mark.parametrize("stack", STACKS)
def test_every_expression_is_promql(stack: str) -> None:
    for rule in _rules(stack):
        promql_parser.parse(rule["expr"])  # raises on a syntax error


def test_a_broken_expression_would_be_caught() -> None:
    with pytest.raises(ValueError, match="parenthesis"):
        promql_parser.parse("avg by (namespace (DCGM_FI_DEV_GPU_UTIL")


@pytest.mark.parametrize("stack", STACKS)
def test_records_and_alerts_are_well_formed(stack: str) -> None:
    for rule in _rules(stack):
        assert ("record" in rule) != ("alert" in rule)
        if "alert" in rule:
            assert rule["labels"]["severity"] in {"warning", "critical"}
            assert rule["annotations"]["summary"]
        else:
            # level:metric:operation, as Prometheus' naming practice has it
            assert rule["record"].count(":") == 2


def test_the_repo_file_is_the_generic_groups() -> None:
    generic = generic_groups(DEFAULT_NAMESPACE, amd=True, queues=QueueRules())
    assert RULES_FILE.read_text() == render(generic), (
        "observability/gpu-rules.yaml is stale: run "
        "`python -m gpu_platform.plan.prometheus_rules --write`"
    )
    assert yaml.safe_load(RULES_FILE.read_text())["groups"] == generic


def test_usage_is_recorded_per_namespace_workload_pool_and_mig_profile() -> None:
    records = {rule["record"] for rule in _rules("dev") if "record" in rule}
    assert records == {
        "namespace:dcgm_gpu_utilization:avg",
        "namespace:dcgm_gpu_memory_used_bytes:sum",
        "workload:dcgm_gpu_utilization:avg",
        "workload:dcgm_gpu_memory_used_bytes:sum",
        "pool:dcgm_gpu_utilization:avg",
        "mig_profile:dcgm_gr_engine_active:avg",
        "namespace:dcgm_gpu_allocated_idle:count",
    }


def test_capacity_alerts_hold_the_capacity_models_promise_per_pool() -> None:
    platform = platform_of(stack_raw("dev"))
    exprs = [alert["expr"] for alert in capacity_alerts(list(platform.pools.values()))]
    assert exprs == [
        'kube_node_status_allocatable{resource="nvidia_com_mig_1g_5gb"} * on (node) '
        'group_left () kube_node_labels{label_gpu_platform_io_pool="a100mig"} < 56',
        'kube_node_status_allocatable{resource="nvidia_com_gpu_shared"} * on (node) '
        'group_left () kube_node_labels{label_gpu_platform_io_pool="t4"} < 4',
    ]


def test_ack_sharing_pools_have_no_exporter_promise() -> None:
    platform = platform_of(stack_raw("ack-dev"))
    pools = [pf for pf in platform.pools.values() if not pf.uses_device_plugin]
    assert pools and capacity_alerts(pools) == []
