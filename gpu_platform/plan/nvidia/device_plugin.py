"""Per-pool NVIDIA device-plugin configs, and the trust-domain warning for shared GPUs.

Each GPU pool served by the device plugin gets one named config (name = pool name) in the
chart's ``config.map``; the pool's nodes select it with the ``nvidia.com/device-plugin.config``
label. Formats and exclusions follow the chart README (0.20.0): ``flags.migStrategy``
none/single/mixed, ``sharing.timeSlicing`` or ``sharing.mps`` (never both; MPS not on MIG).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal

import yaml

from gpu_facts.scheduling import (
    DEVICE_PLUGIN_CONFIG_LABEL,
    NVIDIA_GPU,
    SHARED_SUFFIX,
    mig_resource,
)

from ..pools import PoolFacts

MigStrategyFlag = Literal["none", "single", "mixed"]

DEFAULT_CONFIG_NAME = "plain-default"
"""Config of GPU nodes without the config label: whole GPUs, no MIG, no sharing. The hyphen
keeps it apart from every pool name (pool names are letters and digits only)."""

CONFIG_VERSION = "v1"


class DevicePluginConfigError(ValueError):
    """A pool's settings cannot be expressed as a device-plugin config."""


def config_name(pool: PoolFacts) -> str:
    """The named config a pool's nodes select (its ``nvidia.com/device-plugin.config`` label)."""
    return pool.name


def config_label(pool: PoolFacts) -> dict[str, str]:
    """The node label that selects the pool's config."""
    return {DEVICE_PLUGIN_CONFIG_LABEL: config_name(pool)}


def mig_strategy(pool: PoolFacts) -> MigStrategyFlag:
    """``flags.migStrategy`` of a pool: ``none`` without MIG, else the configured strategy."""
    return pool.pool.mig.strategy if pool.pool.mig is not None else "none"


def one_mig_strategy_problems(strategies: Iterable[str]) -> Iterator[tuple[str, str]]:
    """The GPU Operator sets one MIG strategy for the whole cluster: the MIG pools' strategies
    must agree. Relative to the pools."""
    found = sorted(set(strategies))
    if len(found) > 1:
        yield (
            "",
            (
                "the GPU Operator sets one MIG strategy for the cluster; MIG pools use "
                + ", ".join(found)
            ),
        )


def base_resource(pool: PoolFacts) -> str:
    """The resource the plugin advertises before sharing renames it."""
    if pool.mig_profile is not None and mig_strategy(pool) == "mixed":
        return mig_resource(pool.mig_profile)
    return NVIDIA_GPU


def pool_config(pool: PoolFacts) -> dict[str, Any]:
    """The device-plugin config of one pool, as a mapping."""
    if not pool.uses_device_plugin:
        raise DevicePluginConfigError(
            f"pool {pool.name!r}: {pool.sharing} sharing is served by ACK's own components, "
            "not the NVIDIA device plugin"
        )
    config: dict[str, Any] = {
        "version": CONFIG_VERSION,
        "flags": {"migStrategy": mig_strategy(pool)},
    }
    settings = pool.pool.sharing
    if pool.sharing is None or settings is None:
        return config
    if pool.sharing == "mps" and pool.mig_profile is not None:
        raise DevicePluginConfigError(
            f"pool {pool.name!r}: MPS cannot share MIG devices (device plugin 0.16+ refuses it)"
        )
    if settings.replicas is None:
        raise DevicePluginConfigError(
            f"pool {pool.name!r}: {pool.sharing} needs replicas (pods per GPU)"
        )
    # The plugin shares one way per node: the config holds timeSlicing or mps, never both.
    config["sharing"] = {
        pool.sharing: {
            "renameByDefault": settings.rename_by_default,
            "failRequestsGreaterThanOne": settings.fail_requests_greater_than_one,
            "resources": [{"name": base_resource(pool), "replicas": settings.replicas}],
        }
    }
    return config


def default_config() -> dict[str, Any]:
    """The config of GPU nodes that select none: whole GPUs, no sharing."""
    return {"version": CONFIG_VERSION, "flags": {"migStrategy": "none"}}


def render(config: Mapping[str, Any]) -> str:
    """A config as the YAML document the plugin reads (keys in the README's order)."""
    return yaml.safe_dump(dict(config), sort_keys=False, default_flow_style=False)


def config_map(pools: list[PoolFacts]) -> dict[str, str]:
    """The chart's ``config.map``: the default config plus one per device-plugin pool."""
    configs = {DEFAULT_CONFIG_NAME: render(default_config())}
    for pool in pools:
        if pool.uses_device_plugin:
            configs[config_name(pool)] = render(pool_config(pool))
    return configs


def shared_resource(pool: PoolFacts) -> str | None:
    """The resource name a shared pool advertises (``.shared`` when renamed), else None."""
    if pool.pool.sharing is None or not pool.uses_device_plugin:
        return None
    suffix = SHARED_SUFFIX if pool.pool.sharing.rename_by_default else ""
    return base_resource(pool) + suffix
