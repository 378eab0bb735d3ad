"""Rules of the GPU layer: the device plugin (version, GFD, chart values) or the GPU Operator,
and the platform's own namespaces."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from gpu_platform.plan.amd.pools import amd_namespaces
from gpu_platform.plan.clouds import cloud_plan
from gpu_platform.plan.nvidia.device_plugin import one_mig_strategy_problems
from gpu_platform.plan.nvidia.device_plugin_values import (
    our_config_names,
    value_problems,
    version_problems,
)
from gpu_platform.plan.nvidia.dra_driver import version_problems as dra_version_problems
from gpu_platform.plan.problems import join_path, under

from .base import ConfigUnderCheck, Problem, Rule

SYSTEM_NAMESPACES: frozenset[str] = frozenset({"default"})


SYSTEM_NAMESPACE_PREFIX = "kube-"
"""Namespaces Kubernetes owns: ``default`` and every ``kube-*`` (kube-system, kube-public,
kube-node-lease)."""


def is_system_namespace(name: str) -> bool:
    return name in SYSTEM_NAMESPACES or name.startswith(SYSTEM_NAMESPACE_PREFIX)


def platform_namespaces(cfg: ConfigUnderCheck) -> list[tuple[str, str, bool]]:
    """The platform's own namespaces: (key, name, whether the config sets it). All of them,
    whether or not the GPU Operator or ACK MPS pools are in use: adding one later must not
    collide. The ACK MPS driver checks use ``<driverCheck.namespace>-mps``."""
    namespaces = [
        (f"{key}.namespace", settings.namespace, "namespace" in settings.model_fields_set)
        for key, settings in (
            ("devicePlugin", cfg.settings.device_plugin),
            ("gpuOperator", cfg.settings.gpu_operator),
            ("draDriver", cfg.settings.dra_driver),
            ("driverCheck", cfg.settings.driver_check),
            ("observability.metrics", cfg.settings.observability.metrics),
        )
    ]
    check_explicit = "namespace" in cfg.settings.driver_check.model_fields_set
    namespaces.append(
        ("driverCheck.namespace", cfg.settings.driver_check.mps_namespace, check_explicit)
    )
    namespaces += amd_namespaces(cfg.settings)
    queues = cfg.settings.queues
    if queues is not None:
        namespaces.append(
            ("queues.namespace", queues.namespace, "namespace" in queues.model_fields_set)
        )
    return namespaces


def _gfd_enabled(gfd: bool, values: Mapping[str, object]) -> bool:
    """Whether the release deploys GFD: ``devicePlugin.gfd`` unless ``values`` overrides it."""
    override = values.get("gfd")
    if isinstance(override, Mapping) and "enabled" in override:
        return override["enabled"] is True
    return gfd


def _namespace_collisions(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """The GPU layer's namespaces in use are ours alone, each distinct: PSA levels and quotas
    differ per namespace. The explicitly set key is blamed."""
    unused = (
        "devicePlugin.namespace" if cfg.settings.gpu_operator.enabled else "gpuOperator.namespace"
    )
    driver_check = cfg.settings.driver_check
    checks = {
        driver_check.mps_namespace: ("-mps", "ACK MPS"),
        driver_check.amd_namespace: ("-amd", "AMD"),
    }

    def what(key: str, namespace: str) -> str:
        if key == "driverCheck.namespace" and namespace in checks:
            suffix, whose = checks[namespace]
            return f"{key} + '{suffix}' (the {whose} checks)"
        return key

    seen: dict[str, tuple[str, bool]] = {}
    for key, namespace, explicit in platform_namespaces(cfg):
        if key == unused:
            continue
        if namespace not in seen:
            seen[namespace] = (key, explicit)
            continue
        other, other_explicit = seen[namespace]
        blamed, named = (other, key) if other_explicit and not explicit else (key, other)
        yield (
            blamed,
            f"{what(blamed, namespace)} and {what(named, namespace)} are both {namespace!r}; "
            "each needs its own namespace",
        )


def _gpu_layer(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """Device-plugin chart values, and what one GPU Operator release can serve."""
    # Our config names are known once every pool resolved; else skip the config.default check.
    names = our_config_names(cfg.sound_pools.values()) if cfg.all_pools_sound else None
    for path, message in value_problems(cfg.settings.device_plugin.values, names):
        yield join_path("devicePlugin.values", path), message
    if cfg.settings.gpu_operator.enabled:
        strategies = [p.mig.strategy for p in cfg.settings.gpu_pools if p.mig is not None]
        yield from under("gpuPools", one_mig_strategy_problems(strategies))
    yield from _namespace_collisions(cfg)
    for path, namespace, _ in platform_namespaces(cfg):
        if is_system_namespace(namespace):
            yield (
                path,
                f"{namespace!r} is a Kubernetes system namespace; the platform needs its own",
            )


def device_plugin(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """Chart version and GFD of the device plugin; one owner of the GPUs."""
    plugin, operator = cfg.settings.device_plugin, cfg.settings.gpu_operator
    yield from under("devicePlugin", version_problems(plugin.version))
    if plugin.enabled and operator.enabled:
        yield (
            "gpuOperator.enabled",
            "the GPU Operator and the device plugin release would both own GPUs; "
            "disable devicePlugin",
        )
    if plugin.enabled and not _gfd_enabled(plugin.gfd, plugin.values):
        # BP-14, and the mandatory policy device-plugin-release-current-with-gfd: GFD comes from
        # the plugin's chart (MPS and the GPU node labels depend on it).
        key = "devicePlugin.values.gfd.enabled" if plugin.gfd else "devicePlugin.gfd"
        yield key, "GPU Feature Discovery must stay on while the device plugin is enabled (BP-14)"
    refusal = cloud_plan(cfg.cloud).gpu_operator_refusal
    if operator.enabled and refusal is not None:
        yield "gpuOperator.enabled", refusal


def dra_driver(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """The DRA driver's chart version (``plan.nvidia.dra_driver``)."""
    yield from under("draDriver", dra_version_problems(cfg.settings.dra_driver.version))


RULES: tuple[Rule, ...] = (device_plugin, dra_driver, _gpu_layer)
