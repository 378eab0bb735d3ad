"""AKS's container-log pipeline (plan.aks.observability)."""

from __future__ import annotations

from gpu_platform.plan.aks.observability import CONTAINER_LOGS
from gpu_platform.plan.clouds import cloud_plan


def test_aks_collects_every_namespace_when_its_rule_names_none() -> None:
    assert cloud_plan("aks").container_logs is CONTAINER_LOGS
    assert CONTAINER_LOGS.every_namespace_when_none_named
