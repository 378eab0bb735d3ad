"""ACK's container-log pipeline (plan.ack.observability)."""

from __future__ import annotations

from gpu_platform.plan.ack.observability import CONTAINER_LOGS
from gpu_platform.plan.clouds import cloud_plan


def test_ack_collects_only_the_namespaces_it_has_a_log_config_for() -> None:
    assert cloud_plan("ack").container_logs is CONTAINER_LOGS
    assert not CONTAINER_LOGS.every_namespace_when_none_named
