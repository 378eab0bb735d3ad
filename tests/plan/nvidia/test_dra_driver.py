"""plan.nvidia.dra_driver: the DRA chart's values place each pod (the chart rendered with them:
tests/components/nvidia/test_dra_driver_chart.py)."""

from __future__ import annotations

from gpu_facts.nvidia.device_plugin_chart import unknown_value_paths
from gpu_facts.nvidia.dra_driver_chart import KNOWN_VALUE_PATHS
from gpu_platform.plan.nvidia.dra_driver import (
    controller_affinity,
    dra_driver_values,
    kubelet_plugin_affinity,
    version_problems,
)


def _terms(affinity: dict[str, object]) -> object:
    return affinity["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][
        "nodeSelectorTerms"
    ]  # type: ignore[index]


def test_values_are_chart_keys_and_what_the_chart_needs_offline() -> None:
    values = dra_driver_values(["h100dra", "a100dramig"], compute_domains=False)
    assert unknown_value_paths(values, KNOWN_VALUE_PATHS) == []
    assert values["gpuResourcesEnabledOverride"] is True
    assert values["resourceApiVersion"] == "resource.k8s.io/v1"
    assert values["nvidiaDriverRoot"] == "/"
    assert values["resources"] == {"gpus": {"enabled": True}, "computeDomains": {"enabled": False}}


def test_the_kubelet_plugin_is_held_to_exactly_the_dra_pools() -> None:
    assert _terms(kubelet_plugin_affinity(["b", "a"])) == [
        {
            "matchExpressions": [
                {"key": "gpu-platform.io/pool", "operator": "In", "values": ["a", "b"]}
            ]
        }
    ]
    values = dra_driver_values(["a"], compute_domains=True)
    assert values["kubeletPlugin"]["tolerations"] == [
        {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    ]


def test_the_controller_stays_on_cpu_nodes() -> None:
    assert _terms(controller_affinity()) == [
        {"matchExpressions": [{"key": "nvidia.com/gpu.present", "operator": "DoesNotExist"}]}
    ]
    values = dra_driver_values(["a"], compute_domains=True)
    assert values["controller"]["tolerations"] == [
        {"key": "CriticalAddonsOnly", "operator": "Exists"}
    ]


def test_the_chart_version_is_one_the_values_were_read_against() -> None:
    assert version_problems("25.12.0") == []
    assert version_problems("25.12.1") == []
    (old,) = version_problems("25.8.1")
    assert old[0] == "version" and "older than 25.12.0" in old[1]
    # The driver's 0.4.x releases are another chart: not found under this one's name.
    (renamed,) = version_problems("0.4.1")
    assert "dra-driver-nvidia-gpu" in renamed[1]
    assert version_problems("latest") == [("version", "not a version: 'latest'")]
