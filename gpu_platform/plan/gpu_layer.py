"""What the GPU layer's settings say together: one owner of the GPUs, GFD with the device
plugin, the plugin's chart values against our pools' configs, one MIG strategy under the GPU
Operator, and the platform's own namespaces, each distinct and none of Kubernetes'. Each rule
judges the whole config: paths are from its root (``devicePlugin.gfd``), and the stack config
asks them (``stack_config.rules.gpu_layer``, ``rules.workloads``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from gpu_platform.settings import PlatformSettings

from .amd.pools import amd_namespaces
from .clouds import cloud_plan
from .nvidia.device_plugin import one_mig_strategy_problems
from .nvidia.device_plugin_values import our_config_names, value_problems, version_problems
from .pools import PoolFacts
from .problems import Problem, join_path, under

SYSTEM_NAMESPACES: frozenset[str] = frozenset({"default"})
SYSTEM_NAMESPACE_PREFIX = "kube-"
"""Namespaces Kubernetes owns: ``default`` and every ``kube-*`` (kube-system, kube-public,
kube-node-lease)."""
BOTH_OWN_GPUS = (
    "the GPU Operator and the device plugin release would both own GPUs; disable devicePlugin"
)
GFD_STAYS_ON = "GPU Feature Discovery must stay on while the device plugin is enabled (BP-14)"


def is_system_namespace(name: str) -> bool:
    return name in SYSTEM_NAMESPACES or name.startswith(SYSTEM_NAMESPACE_PREFIX)


def platform_namespaces(settings: PlatformSettings) -> list[tuple[str, str, bool]]:
    """The platform's own namespaces: (key, name, whether the config sets it). All of them,
    whether or not the GPU Operator or ACK MPS pools are in use: adding one later must not
    collide. The ACK MPS driver checks use ``<driverCheck.namespace>-mps``."""
    namespaces = [
        (f"{key}.namespace", part.namespace, "namespace" in part.model_fields_set)
        for key, part in (
            ("devicePlugin", settings.device_plugin),
            ("gpuOperator", settings.gpu_operator),
            ("draDriver", settings.dra_driver),
            ("driverCheck", settings.driver_check),
            ("observability.metrics", settings.observability.metrics),
        )
    ]
    check_explicit = "namespace" in settings.driver_check.model_fields_set
    namespaces.append(
        ("driverCheck.namespace", settings.driver_check.mps_namespace, check_explicit)
    )
    namespaces += amd_namespaces(settings)
    queues = settings.queues
    if queues is not None:
        namespaces.append(
            ("queues.namespace", queues.namespace, "namespace" in queues.model_fields_set)
        )
    return namespaces


def gfd_enabled(gfd: bool, values: Mapping[str, object]) -> bool:
    """Whether the release deploys GFD: ``devicePlugin.gfd`` unless ``values`` overrides it."""
    override = values.get("gfd")
    if isinstance(override, Mapping) and "enabled" in override:
        return override["enabled"] is True
    return gfd


def namespace_collision_problems(settings: PlatformSettings) -> Iterator[Problem]:
    """The GPU layer's namespaces in use are ours alone, each distinct: PSA levels and quotas
    differ per namespace. The explicitly set key is blamed."""
    unused = "devicePlugin.namespace" if settings.gpu_operator.enabled else "gpuOperator.namespace"
    driver_check = settings.driver_check
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
    for key, namespace, explicit in platform_namespaces(settings):
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


def gpu_layer_problems(
    settings: PlatformSettings, sound_pools: Mapping[str, PoolFacts], all_pools_sound: bool
) -> Iterator[Problem]:
    """Device-plugin chart values, what one GPU Operator release can serve, and the platform's
    namespaces. ``sound_pools``: the pools whose own rules passed; the chart's
    ``config.default`` is judged against our configs' names only when they all did."""
    names = our_config_names(sound_pools.values()) if all_pools_sound else None
    for path, message in value_problems(settings.device_plugin.values, names):
        yield join_path("devicePlugin.values", path), message
    if settings.gpu_operator.enabled:
        strategies = [p.mig.strategy for p in settings.gpu_pools if p.mig is not None]
        yield from under("gpuPools", one_mig_strategy_problems(strategies))
    yield from namespace_collision_problems(settings)
    for path, namespace, _ in platform_namespaces(settings):
        if is_system_namespace(namespace):
            yield (
                path,
                f"{namespace!r} is a Kubernetes system namespace; the platform needs its own",
            )


def device_plugin_problems(settings: PlatformSettings) -> Iterator[Problem]:
    """The device plugin's chart version and GFD; one owner of the GPUs (the plugin or the GPU
    Operator, where the cloud lets the operator own them)."""
    plugin, operator = settings.device_plugin, settings.gpu_operator
    yield from under("devicePlugin", version_problems(plugin.version))
    if plugin.enabled and operator.enabled:
        yield "gpuOperator.enabled", BOTH_OWN_GPUS
    if plugin.enabled and not gfd_enabled(plugin.gfd, plugin.values):
        # BP-14, and the mandatory policy device-plugin-release-current-with-gfd: GFD comes from
        # the plugin's chart (MPS and the GPU node labels depend on it).
        key = "devicePlugin.values.gfd.enabled" if plugin.gfd else "devicePlugin.gfd"
        yield key, GFD_STAYS_ON
    refusal = cloud_plan(settings.cloud).gpu_operator_refusal
    if operator.enabled and refusal is not None:
        yield "gpuOperator.enabled", refusal
