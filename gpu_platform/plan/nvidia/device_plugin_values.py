"""Checks of the user's ``devicePlugin.values`` and chart version: one function for the stack
config rules (which report each problem with its key path) and for the NvidiaDevicePlugin
component (which refuses the values before registering anything).

The chart reads ``config.map`` (config name -> device-plugin config) and ``config.default`` (the
config of GPU nodes without a config label). Ours holds the default config and one per pool;
user values merge over them like Helm's (mappings key by key, anything else replaced), so they
may add configs or pick another default, but must keep a map and a default that names one.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from gpu_facts.nvidia.device_plugin_chart import (
    KNOWN_VALUE_PATHS,
    MIN_VERSION,
    MIN_VERSION_MPS,
    MPS_NEEDS_VERSION,
    at_least,
    unknown_value_paths,
)

from ..pools import PoolFacts
from ..problems import Problem
from .device_plugin import DEFAULT_CONFIG_NAME, config_name


def version_problems(version: str) -> list[Problem]:
    """A chart version older than BP-14's minimum (the first with GFD built in), or not a
    version at all; relative to the device plugin's settings (``version``)."""
    try:
        current = at_least(version, MIN_VERSION)
    except ValueError:
        return [("version", f"not a version: {version!r}")]
    if not current:
        return [
            (
                "version",
                f"{version} is older than {MIN_VERSION}, the first chart with GFD built in (BP-14)",
            )
        ]
    return []


def mps_version_problems(version: str, modes: Iterable[str | None]) -> list[Problem]:
    """MPS sharing on a chart older than the first that serves it (device plugin MPS); relative
    to the device plugin's settings (``version``). A version that is none is
    ``version_problems``'."""
    if "mps" not in modes:
        return []
    try:
        current = at_least(version, MIN_VERSION_MPS)
    except ValueError:
        return []
    return [] if current else [("version", MPS_NEEDS_VERSION)]


def our_config_names(pools: Iterable[PoolFacts]) -> list[str]:
    """Names in the ``config.map`` we generate: the default config and each plugin pool's."""
    return [DEFAULT_CONFIG_NAME, *(config_name(p) for p in pools if p.uses_device_plugin)]


def unknown_key_problems(values: Mapping[str, object]) -> list[Problem]:
    """One problem per key path outside the chart keys we know (``KNOWN_VALUE_PATHS``)."""
    known = ", ".join(sorted(KNOWN_VALUE_PATHS))
    return [
        (path, f"not a chart key we support; known: {known}")
        for path in unknown_value_paths(values)
    ]


def config_problems(
    values: Mapping[str, object], config_names: Collection[str] | None
) -> list[Problem]:
    """Problems of the user's ``config`` once merged over ours.

    ``config_names`` are the names in our ``config.map``; None when they are not known yet (a
    pool is invalid), which skips the check that ``config.default`` names a config.
    """
    if "config" not in values:
        return []
    config = values["config"]
    if not isinstance(config, Mapping):
        return [("config", f"must be a mapping with map and default, not {config!r}")]
    problems: list[Problem] = []
    user_map = config.get("map", {})
    if not isinstance(user_map, Mapping):
        problems.append(("config.map", f"must map config names to configs, not {user_map!r}"))
    if "default" in config and config_names is not None:
        default = config["default"]
        names = [*config_names, *(user_map if isinstance(user_map, Mapping) else ())]
        if not isinstance(default, str) or default not in names:
            problems.append(
                (
                    "config.default",
                    f"{default!r} names no config in config.map; configs: {', '.join(names)}",
                )
            )
    return problems


def value_problems(
    values: Mapping[str, object], config_names: Collection[str] | None
) -> list[Problem]:
    """Every problem of the user's chart values: unknown keys, then the config map/default."""
    return [*unknown_key_problems(values), *config_problems(values, config_names)]
