"""Workload namespace settings (settings.workloads)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_platform.settings.workloads import WorkloadSettings


def test_one_quota_or_one_per_resource() -> None:
    one = WorkloadSettings.model_validate({"name": "ns", "type": "training", "gpuQuota": 4})
    assert one.gpu_quota == 4 and one.pools is None and one.pod_security is None
    per = WorkloadSettings.model_validate(
        {"name": "ns", "type": "inference", "gpuQuota": {"nvidia.com/gpu": 2}}
    )
    assert per.gpu_quota == {"nvidia.com/gpu": 2}
    assert not per.traffic.same_namespace and per.traffic.dns


@pytest.mark.parametrize(
    "fields",
    [
        {"name": "Team", "type": "training", "gpuQuota": 1},
        {"name": "ns", "type": "Training", "gpuQuota": 1},
        {"name": "ns", "type": "training", "gpuQuota": -1},
        {"name": "ns", "type": "training", "gpuQuota": 1.5},
        {"name": "ns", "type": "training", "gpuQuota": 1, "podSecurity": "open"},
    ],
)
def test_what_the_schema_refuses(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        WorkloadSettings.model_validate(fields)
