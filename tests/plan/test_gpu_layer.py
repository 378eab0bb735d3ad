"""What the GPU layer's settings say together: one owner of the GPUs, GFD on, the plugin's
values against our configs, one MIG strategy under the GPU Operator, the platform's own
namespaces (plan.gpu_layer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_platform.plan.gpu_layer import (
    BOTH_OWN_GPUS,
    GFD_STAYS_ON,
    device_plugin_problems,
    gfd_enabled,
    gpu_layer_problems,
    is_system_namespace,
    namespace_collision_problems,
    platform_namespaces,
)
from gpu_platform.plan.pools import resolve_pool
from gpu_platform.settings import PlatformSettings
from tests.conftest import stack_raw


def settings(stack: str, change: Callable[[dict[str, Any]], object] = lambda raw: None) -> Any:
    raw = stack_raw(stack)
    change(raw)
    return PlatformSettings.model_validate(raw)


def test_kubernetes_own_namespaces() -> None:
    assert is_system_namespace("default") and is_system_namespace("kube-node-lease")
    assert not is_system_namespace("gpu-training") and not is_system_namespace("kubeflow")


def test_every_platform_namespace_with_whether_it_was_set() -> None:
    found = platform_namespaces(settings("dev"))
    keys = [key for key, _, _ in found]
    assert keys[:5] == [
        "devicePlugin.namespace",
        "gpuOperator.namespace",
        "draDriver.namespace",
        "driverCheck.namespace",
        "observability.metrics.namespace",
    ]
    assert keys.count("driverCheck.namespace") == 3  # and its ACK MPS and AMD checks' own
    assert not any(explicit for _, _, explicit in found)  # dev sets none of them

    def named(raw: dict[str, Any]) -> None:
        raw["driverCheck"] = {"namespace": "checks"}

    set_ones = [(key, ns) for key, ns, explicit in platform_namespaces(settings("dev", named))]
    assert ("driverCheck.namespace", "checks") in set_ones
    assert ("driverCheck.namespace", "checks-mps") in set_ones
    assert ("driverCheck.namespace", "checks-amd") in set_ones


def test_gfd_follows_the_values_override() -> None:
    assert gfd_enabled(True, {}) and not gfd_enabled(False, {})
    assert not gfd_enabled(True, {"gfd": {"enabled": False}})
    assert gfd_enabled(False, {"gfd": {"enabled": True}})


def test_one_owner_and_gfd() -> None:
    assert list(device_plugin_problems(settings("dev"))) == []

    def both(raw: dict[str, Any]) -> None:
        raw["gpuOperator"] = {"enabled": True}
        raw["devicePlugin"] = {"enabled": True, "version": "0.20.0", "values": {"gfd": {}}}
        raw["devicePlugin"]["values"]["gfd"]["enabled"] = False

    assert list(device_plugin_problems(settings("dev", both))) == [
        ("gpuOperator.enabled", BOTH_OWN_GPUS),
        ("devicePlugin.values.gfd.enabled", GFD_STAYS_ON),
    ]


def test_a_collision_blames_the_key_the_user_set() -> None:
    def clash(raw: dict[str, Any]) -> None:
        raw["observability"] = {"metrics": {"namespace": "nvidia-device-plugin"}}

    [(key, message)] = namespace_collision_problems(settings("dev", clash))
    assert key == "observability.metrics.namespace"
    assert message == (
        "observability.metrics.namespace and devicePlugin.namespace are both "
        "'nvidia-device-plugin'; each needs its own namespace"
    )


def test_the_layer_judges_values_and_namespaces_from_the_configs_root() -> None:
    dev = settings("dev")
    sound = {p.name: resolve_pool("aks", p) for p in dev.gpu_pools}
    assert list(gpu_layer_problems(dev, sound, all_pools_sound=True)) == []

    def kube(raw: dict[str, Any]) -> None:
        raw["devicePlugin"]["namespace"] = "kube-system"
        raw["devicePlugin"]["values"] = {"config": {"default": "nope"}}

    bad = settings("dev", kube)
    paths = [path for path, _ in gpu_layer_problems(bad, sound, all_pools_sound=True)]
    assert paths == ["devicePlugin.values.config.default", "devicePlugin.namespace"]
    # Until every pool is sound our config names are not known: config.default is not judged.
    partial = [path for path, _ in gpu_layer_problems(bad, sound, all_pools_sound=False)]
    assert partial == ["devicePlugin.namespace"]
