"""Rules of the GPU layer: the device plugin (version, GFD, chart values) or the GPU Operator,
the DRA driver, and the platform's own namespaces (``plan.gpu_layer``,
``plan.nvidia.dra_driver``)."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.gpu_layer import device_plugin_problems, gpu_layer_problems
from gpu_platform.plan.nvidia.dra_driver import version_problems as dra_version_problems
from gpu_platform.plan.problems import under

from .base import ConfigUnderRules, Problem, Rule


def device_plugin(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """Chart version and GFD of the device plugin; one owner of the GPUs."""
    yield from device_plugin_problems(cfg.settings)


def dra_driver(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """The DRA driver's chart version."""
    yield from under("draDriver", dra_version_problems(cfg.settings.dra_driver.version))


def gpu_layer(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """Device-plugin chart values, what one GPU Operator release can serve, the namespaces."""
    yield from gpu_layer_problems(cfg.settings, cfg.sound_pools, cfg.all_pools_sound)


RULES: tuple[Rule, ...] = (device_plugin, dra_driver, gpu_layer)
