"""The user's device-plugin chart values and version, judged once for the config and the
component (plan.nvidia.device_plugin_values)."""

from __future__ import annotations

from gpu_facts.nvidia.device_plugin_chart import MPS_NEEDS_VERSION
from gpu_platform.plan.nvidia.device_plugin_values import (
    config_problems,
    mps_version_problems,
    our_config_names,
    unknown_key_problems,
    value_problems,
    version_problems,
)
from gpu_platform.plan.pools import resolve_pool
from tests.pools import gpu_pool


def test_version() -> None:
    assert version_problems("0.17.1") == []
    assert version_problems("latest") == [("version", "not a version: 'latest'")]
    [(path, message)] = version_problems("0.14.5")
    assert path == "version" and "older than 0.15.0" in message


def test_our_configs_are_the_default_and_each_plugin_pool() -> None:
    t4 = resolve_pool(
        "aks",
        gpu_pool({"name": "t4", "vmSize": "Standard_NC4as_T4_v3", "count": 1}),
    )
    assert our_config_names([t4]) == ["plain-default", "t4"]


def test_values() -> None:
    assert unknown_key_problems({"tolerations": []}) == []
    [(path, _)] = unknown_key_problems({"tolerationz": []})
    assert path == "tolerationz"
    assert config_problems({"config": {"default": "t4"}}, ["plain-default", "t4"]) == []
    [(path, message)] = config_problems({"config": {"default": "nope"}}, ["plain-default"])
    assert path == "config.default" and "names no config" in message
    # Without our names (a pool is invalid) the default is not judged.
    assert config_problems({"config": {"default": "nope"}}, None) == []
    assert [p for p, _ in value_problems({"x": 1, "config": []}, None)] == ["x", "config"]


def test_mps_needs_a_chart_that_serves_it() -> None:
    assert mps_version_problems("0.15.0", ["mps", None]) == [("version", MPS_NEEDS_VERSION)]
    assert mps_version_problems("0.16.0", ["mps"]) == []
    assert mps_version_problems("0.15.0", ["timeSlicing", "ackMps"]) == []  # ACK's MPS: its own
    assert mps_version_problems("not-a-version", ["mps"]) == []  # version_problems says so
