"""The GPU layer's settings: device plugin, GPU Operator, ACK sharing, driver checks, admission
(settings.gpu_layer)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_platform.settings.gpu_layer import (
    ContainerResourcesSettings,
    DevicePluginSettings,
    DriverCheckSettings,
    GpuComponentResourcesSettings,
)


def test_driver_check_defaults_and_its_mps_namespace() -> None:
    check = DriverCheckSettings()
    assert check.min_driver_major == 535 and check.schedule is None
    assert check.namespace == "gpu-readiness"  # the name deployed stacks have
    assert check.mps_namespace == "gpu-readiness-mps"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"schedule": "daily"}, "not a cron schedule"),
        ({"image": "nvcr.io/nvidia/cuda"}, "pin the image"),
        ({"image": "nvcr.io/nvidia/cuda:latest"}, "pin the image"),
        ({"image": "cuda@sha256:abc"}, "digest must be"),
        ({"namespace": "n" * 60}, "at most 59"),
        ({"minDriverMajor": 399}, "greater than or equal to 400"),
    ],
)
def test_bad_driver_check_settings(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        DriverCheckSettings.model_validate(fields)


def test_good_schedules_and_images() -> None:
    assert DriverCheckSettings.model_validate({"schedule": "@daily"}).schedule == "@daily"
    digest = "nvcr.io/nvidia/cuda@sha256:" + "a" * 64
    assert DriverCheckSettings.model_validate({"image": digest}).image == digest


def test_a_memory_limit_covers_the_request() -> None:
    with pytest.raises(ValidationError, match="below memory"):
        ContainerResourcesSettings(cpu="10m", memory="1Gi", memory_limit="512Mi")
    ok = ContainerResourcesSettings(cpu="10m", memory="64Mi", memory_limit="1Gi")
    assert ok.as_values() == {
        "requests": {"cpu": "10m", "memory": "64Mi"},
        "limits": {"memory": "1Gi"},
    }
    assert "limits" not in GpuComponentResourcesSettings().plugin.as_values()


def test_the_device_plugin_is_on_with_gfd() -> None:
    plugin = DevicePluginSettings()
    assert plugin.enabled and plugin.gfd
