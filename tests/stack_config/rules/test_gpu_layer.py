"""Rules of the GPU layer: the device plugin's version and values, GFD, one owner of the GPUs,
the platform's own namespaces (stack_config.rules.gpu_layer)."""

from __future__ import annotations

from gpu_platform.plan.gpu_layer import is_system_namespace, platform_namespaces
from gpu_platform.plan.nvidia.device_plugin_values import version_problems
from gpu_platform.plan.nvidia.dra_driver import version_problems as dra_version_problems
from gpu_platform.plan.problems import under
from gpu_platform.stack_config.rules.gpu_layer import RULES as GPU_LAYER_RULES
from gpu_platform.stack_config.rules.gpu_layer import device_plugin, dra_driver
from tests.stack_config.rules.subjects import Raw, subject


def test_the_plugins_version_is_judged_as_the_component_judges_it() -> None:
    def old(raw: Raw) -> None:
        raw["devicePlugin"] = {"version": "0.14.5"}

    found = list(device_plugin(subject("dev", old)))
    assert found == under("devicePlugin", version_problems("0.14.5"))


def test_one_owner_of_the_gpus_and_gfd_on() -> None:
    def both(raw: Raw) -> None:
        raw["gpuOperator"] = {"enabled": True}
        raw["devicePlugin"] = {"enabled": True, "gfd": False}

    paths = [path for path, _ in device_plugin(subject("dev", both))]
    assert paths == ["gpuOperator.enabled", "devicePlugin.gfd"]


def test_platform_namespaces_are_distinct_and_not_kubernetes_own() -> None:
    keys = [key for key, _, _ in platform_namespaces(subject("dev").settings)]
    assert "driverCheck.namespace" in keys
    assert is_system_namespace("kube-system") and is_system_namespace("default")
    assert not is_system_namespace("gpu-training")

    def clash(raw: Raw) -> None:
        raw["driverCheck"] = {"namespace": "nvidia-device-plugin"}

    found = [p for rule in GPU_LAYER_RULES for p in rule(subject("dev", clash))]
    assert [path for path, _ in found] == ["driverCheck.namespace"]


def test_the_dra_drivers_version_is_judged_as_the_component_judges_it() -> None:
    def renamed(raw: Raw) -> None:
        raw["draDriver"] = {"version": "0.4.1"}

    found = list(dra_driver(subject("dra-dev", renamed)))
    assert found == under("draDriver", dra_version_problems("0.4.1")) != []
    assert list(dra_driver(subject("dra-dev"))) == []


def test_the_dra_drivers_namespace_is_the_platforms_own() -> None:
    """Its Namespace is created like the others': two components creating one namespace would
    collide at pulumi up."""
    assert "draDriver.namespace" in [
        key for key, _, _ in platform_namespaces(subject("dev").settings)
    ]

    def clash(raw: Raw) -> None:
        raw["draDriver"] = {"namespace": "nvidia-device-plugin"}

    found = [p for rule in GPU_LAYER_RULES for p in rule(subject("dra-dev", clash))]
    assert [path for path, _ in found] == ["draDriver.namespace"]
