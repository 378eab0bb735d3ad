"""An ACK GPU pool's settings (settings.ack): its ECS instance type, no AKS node hardening."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_platform.settings.ack import AckGpuPoolSettings


def test_an_ack_pool_has_its_instance_type_and_none_of_aks_fields() -> None:
    pool = AckGpuPoolSettings.model_validate(
        {"name": "a10", "instanceType": "ecs.gn7i-c8g1.2xlarge"}
    )
    assert pool.upgrade.max_surge == "1"
    for aks_only in ({"maxPods": 50}, {"osSku": "Ubuntu"}, {"nvme": True}):
        with pytest.raises(ValidationError, match="Extra inputs"):
            AckGpuPoolSettings.model_validate({"name": "a", "instanceType": "x", **aks_only})
