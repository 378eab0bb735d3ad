"""Facts about the NVIDIA device plugin Helm chart (read from its values.yaml and CHANGELOG)."""

from __future__ import annotations

CHART_NAME = "nvidia-device-plugin"
CHART_REPO = "https://nvidia.github.io/k8s-device-plugin"
DEFAULT_VERSION = "0.20.0"
# From 0.15.0 GPU Feature Discovery ships inside this chart (CHANGELOG v0.15.0).
MIN_VERSION = "0.15.0"
# 0.16.0 raises an error for MPS on MIG devices; below it the plugin silently misbehaves.
MIN_VERSION_MPS = "0.16.0"
GFD_CHART_NAME = "gpu-feature-discovery"
"""The standalone GFD chart that must not be installed next to the plugin."""

# Top-level value keys of chart 0.20.0 that we set, with the nested keys we rely on.
# A test compares every key we generate against this list.
KNOWN_VALUE_PATHS: frozenset[str] = frozenset(
    {
        "config",
        "config.map",
        "config.default",
        "config.name",
        "config.fallbackStrategies",
        "migStrategy",
        "failOnInitError",
        "deviceListStrategy",
        "deviceIDStrategy",
        "nodeSelector",
        "affinity",
        "tolerations",
        "priorityClassName",
        "resources",
        "devicePlugin",
        "devicePlugin.enabled",
        "gfd",
        "gfd.enabled",
        "nfd",
        "nfd.worker",
        "nfd.worker.tolerations",
        "nfd.worker.nodeSelector",
        "mps",
        "mps.root",
        "mps.enableHostPID",
        "image",
        "image.repository",
        "image.tag",
        "updateStrategy",
        "podAnnotations",
        "allowDefaultNamespace",
    }
)


def version_tuple(version: str) -> tuple[int, ...]:
    """``"0.20.0"`` -> ``(0, 20, 0)``; a leading ``v`` and pre-release suffixes are ignored."""
    core = version.strip().lstrip("v").split("-", 1)[0].split("+", 1)[0]
    return tuple(int(part) for part in core.split("."))


def at_least(version: str, minimum: str) -> bool:
    """Whether ``version`` is ``minimum`` or newer (semantic version order)."""
    return version_tuple(version) >= version_tuple(minimum)
