"""plan/amd/gpu_operator.py: the chart's values and the DeviceConfig of each AMD pool, as the
settings say (the component and the chart render test read the same functions)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_facts.amd import gpu_operator as amd
from gpu_facts.nvidia.device_plugin_chart import unknown_value_paths
from gpu_platform.plan.amd.gpu_operator import (
    amd_tolerations,
    device_config_spec,
    device_configs,
    exporter_pod_monitor_spec,
    operator_values,
)
from gpu_platform.settings import AmdGpuOperatorSettings
from gpu_platform.stack_config import load_platform
from tests.conftest import stack_raw


def platform(change: Any = None) -> Any:
    raw = stack_raw("amd-dev")
    if change is not None:
        change(raw)
    return load_platform(raw)


def test_values_name_only_chart_keys_and_turn_off_what_we_do_not_run() -> None:
    values = operator_values(AmdGpuOperatorSettings())
    assert unknown_value_paths(values, amd.KNOWN_VALUE_PATHS) == []
    assert values["node-feature-discovery"]["enabled"] is False
    assert values["installdefaultNFDRule"] is False
    assert values["crds"]["defaultCR"]["install"] is False
    assert values["draDriver"]["deviceClass"]["create"] is False
    assert values["kmm"]["enabled"] is True


def test_kmm_images_follow_the_configured_tag() -> None:
    settings = AmdGpuOperatorSettings.model_validate({"images": {"kmmTag": "v1.5.2"}})
    kmm = operator_values(settings)["kmm"]
    assert kmm["webhookServer"]["webhookServer"]["image"] == {
        "repository": "docker.io/rocm/kernel-module-management-webhook-server",
        "tag": "v1.5.2",
    }
    assert kmm["controller"]["manager"]["env"]["relatedImageSign"] == (
        "docker.io/rocm/kernel-module-management-signimage:v1.5.2"
    )


def test_one_device_config_per_amd_pool_none_for_nvidia_pools() -> None:
    p = platform()
    configs = device_configs(list(p.pools.values()), p.settings.amd_gpu_operator, None)
    assert list(configs) == ["mi300x"]
    assert configs["mi300x"]["selector"] == {"gpu-platform.io/pool": "mi300x"}


def test_every_operand_tolerates_the_amd_taint_and_nothing_else() -> None:
    p = platform()
    spec = device_config_spec(p.pools["mi300x"], p.settings.amd_gpu_operator)
    tolerations = [
        spec["driver"]["tolerations"],
        spec["devicePlugin"]["devicePluginTolerations"],
        spec["devicePlugin"]["nodeLabellerTolerations"],
        spec["metricsExporter"]["tolerations"],
    ]
    assert tolerations == [amd_tolerations()] * 4
    assert amd_tolerations() == [
        {"key": "amd.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    ]


def test_a_preinstalled_driver_is_left_alone() -> None:
    """An existing cluster whose AMD nodes have their driver (AKS: never)."""
    raw = stack_raw("existing")
    raw["gpuPools"].append({"name": "mi300x", "vmSize": "Standard_ND96isr_MI300X_v5", "count": 1})
    raw["amdGpuOperator"] = {"driver": {"enabled": False}}
    p = load_platform(raw)
    spec = device_config_spec(p.pools["mi300x"], p.settings.amd_gpu_operator)
    assert spec["driver"] == {"enable": False}


def test_no_registry_secret_unless_named() -> None:
    def no_secret(raw: dict[str, Any]) -> None:
        raw["amdGpuOperator"]["driver"].pop("imageRegistrySecret")

    p = platform(no_secret)
    spec = device_config_spec(p.pools["mi300x"], p.settings.amd_gpu_operator)
    assert "imageRegistrySecret" not in spec["driver"]
    assert spec["driver"]["kernelModuleConfig"] == {"parameters": ["ip_block_mask=0x7f"]}


@pytest.mark.parametrize("scrape", [None, "azureMonitor", "serviceMonitor"])
def test_only_annotation_scraping_annotates_the_exporter(scrape: Any) -> None:
    p = platform()
    spec = device_config_spec(p.pools["mi300x"], p.settings.amd_gpu_operator, scrape)
    assert "podAnnotations" not in spec["metricsExporter"]
    assert spec["metricsExporter"]["enable"] is True


def test_the_pod_monitor_selects_the_exporter_pods_by_the_operators_label() -> None:
    spec = exporter_pod_monitor_spec()
    assert spec["selector"] == {"matchLabels": {"app.kubernetes.io/name": "metrics-exporter"}}
    assert spec["podMetricsEndpoints"][0]["port"] == amd.METRICS_PORT_NAME
