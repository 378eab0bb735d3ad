"""The node pool settings: GPU and CPU pools, MIG, sharing, upgrades, AKS node hardening
(settings.pools)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_platform.settings.pools import DEFAULT_MAX_PODS, CpuPoolSettings
from tests.pools import gpu_pool


def test_gpu_pool_defaults() -> None:
    pool = gpu_pool({"name": "t4", "vmSize": "Standard_NC4as_T4_v3"})
    assert pool.os_sku == "Ubuntu" and pool.max_pods == DEFAULT_MAX_PODS
    assert pool.upgrade.max_surge == "1" and pool.os_disk_type is None
    assert pool.count is None and pool.autoscale is None  # which one: the rules say


@pytest.mark.parametrize(
    "fields",
    [
        {"name": "Big_Pool"},
        {"name": "averyverylongname"},
        {"name": "p", "sharing": {"mode": "timeSlicing", "replicas": 65}},
        {"name": "p", "osSku": "Windows"},
        {"name": "p", "count": -1},
        {"name": "p", "maxPods": 300},
    ],
)
def test_what_the_schema_refuses(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        gpu_pool({"vmSize": "Standard_NC4as_T4_v3", **fields})


def test_a_cpu_pool_has_no_gpu_fields() -> None:
    with pytest.raises(ValidationError, match="Extra inputs"):
        CpuPoolSettings.model_validate({"name": "cpu", "mig": {"profile": "MIG1g"}})
    assert CpuPoolSettings.model_validate({"name": "cpu", "zones": ["1"]}).zones == ["1"]
