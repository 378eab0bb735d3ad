"""The NVIDIA device plugin's named configs, read from a Helm release's ``values.config.map``.

Each entry of ``config.map`` is a YAML document (chart README, "Configuration file"):
``flags.migStrategy`` (none / single / mixed) and at most one of ``sharing.timeSlicing`` /
``sharing.mps`` with ``renameByDefault``, ``failRequestsGreaterThanOne`` and
``resources: [{name, replicas, rename?}]``. A node picks the config its
``nvidia.com/device-plugin.config`` label names, else ``config.default``; a label naming a
config the map lacks stops the plugin's config-manager (it does not fall back). A global
``values.migStrategy`` becomes the plugin's MIG_STRATEGY env var, which overrides every config.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml
from pulumi_policy import PolicyResource

from gpu_facts.capacity import DEVICE_PLUGIN_SHARING_MODES, NO_MIG_STRATEGY
from gpu_facts.nvidia.device_plugin_chart import (
    GPU_OPERATOR_DEFAULT_MIG_STRATEGY,
    IMPLICIT_DEFAULT_CONFIG,
)
from gpu_facts.scheduling import DEVICE_PLUGIN_CONFIG_LABEL

from .node_placement import ANYWHERE, NodePlacement, node_placement
from .props import is_true, mapping, mappings, path, text

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""YAML's safe loader, in C where libyaml is installed (the same documents, read faster)."""

NO_MIG = NO_MIG_STRATEGY


@dataclass(frozen=True, slots=True)
class SharedResource:
    """One ``sharing.<mode>.resources`` entry."""

    name: str
    replicas: int
    rename: str | None
    """Per-resource name the shared resource is advertised under, if set."""


@dataclass(frozen=True, slots=True)
class PluginConfig:
    """One named device-plugin config."""

    name: str
    mig_strategy: str
    """``none``, ``single`` or ``mixed``."""
    sharing: str | None = None
    """``timeSlicing`` or ``mps``, or None for exclusive devices."""
    rename_by_default: bool = False
    fail_requests_greater_than_one: bool = False
    resources: tuple[SharedResource, ...] = ()
    error: str | None = None
    """Why the plugin could not use this config (bad YAML, two sharing modes), or None."""


def _replicas(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int | float) and float(value).is_integer():
        return int(value)
    return 0


def parse_config(name: str, document: Any, global_mig: str | None = None) -> PluginConfig:
    """One ``config.map`` entry; never raises on a malformed document (``error`` says why)."""
    source = text(document)
    if source is None:
        return PluginConfig(name, NO_MIG, error="is not a YAML string")
    try:
        loaded = yaml.load(source, SAFE_LOADER)
    except yaml.YAMLError as err:
        return PluginConfig(name, NO_MIG, error=f"is not valid YAML ({err.__class__.__name__})")
    if not isinstance(loaded, Mapping):
        return PluginConfig(name, NO_MIG, error="is not a YAML mapping")
    mig = global_mig or text(path(loaded, "flags", "migStrategy")) or NO_MIG
    sharing = mapping(loaded.get("sharing"))
    modes = sorted(mode for mode in sharing if mode in DEVICE_PLUGIN_SHARING_MODES)
    if len(modes) > 1:
        return PluginConfig(name, mig, error="sets both sharing.timeSlicing and sharing.mps")
    if not modes:
        return PluginConfig(name, mig)
    settings = mapping(sharing[modes[0]])
    resources = tuple(
        SharedResource(
            text(entry.get("name")) or "",
            _replicas(entry.get("replicas")),
            text(entry.get("rename")),
        )
        for entry in mappings(settings.get("resources"))
    )
    return PluginConfig(
        name,
        mig,
        sharing=modes[0],
        rename_by_default=is_true(settings.get("renameByDefault")),
        fail_requests_greater_than_one=is_true(settings.get("failRequestsGreaterThanOne")),
        resources=resources,
    )


@dataclass(frozen=True, slots=True)
class ReleaseConfigs:
    """The configs one device plugin release carries, and which one unlabelled nodes use."""

    configs: Mapping[str, PluginConfig]
    default: str | None
    external: bool
    """The configs live in an external ConfigMap (``config.name``): not visible at preview."""
    release: str = ""
    """The release's resource name, for messages."""
    placement: NodePlacement = ANYWHERE
    """The nodes the release's plugin pods may run on (``values.affinity`` / ``nodeSelector``)."""

    def missing_config(self, labels: Mapping[str, str]) -> str | None:
        """The config name a node's label asks for when the map lacks it, else None."""
        named = labels.get(DEVICE_PLUGIN_CONFIG_LABEL)
        return named if named is not None and named not in self.configs else None

    def for_node(self, labels: Mapping[str, str]) -> PluginConfig | None:
        """The config a node with ``labels`` runs with: the one its label names, else the
        default. None when the label names a missing config: the chart's config-manager exits
        ("specified config ... does not exist") instead of falling back."""
        named = labels.get(DEVICE_PLUGIN_CONFIG_LABEL)
        if named is not None:
            return self.configs.get(named)
        return self.configs.get(self.default or "")


def release_configs(release: PolicyResource) -> ReleaseConfigs:
    """The named configs of a device plugin release (``values.config``)."""
    values = mapping(release.props.get("values"))
    config = mapping(values.get("config"))
    return _configs(
        release.name,
        documents=mapping(config.get("map")),
        default=text(config.get("default")),
        external=bool(text(config.get("name"))),
        global_mig=text(values.get("migStrategy")),
        placement=node_placement(values),
    )


def operator_configs(release: PolicyResource) -> ReleaseConfigs:
    """The device-plugin configs of a GPU Operator release (``values.devicePlugin.config``):
    ``data`` when ``create`` is on, else the ConfigMap ``name`` names (external). The operator
    hands ``mig.strategy`` (default ``single``) to its plugin as MIG_STRATEGY, which beats
    every config; its operands run on the GPU nodes it finds, so no placement is judged."""
    values = mapping(release.props.get("values"))
    config = mapping(path(values, "devicePlugin", "config"))
    created = is_true(config.get("create"))
    return _configs(
        release.name,
        documents=mapping(config.get("data")) if created else {},
        default=text(config.get("default")),
        external=not created and bool(text(config.get("name"))),
        global_mig=text(path(values, "mig", "strategy")) or GPU_OPERATOR_DEFAULT_MIG_STRATEGY,
        placement=ANYWHERE,
    )


def _configs(
    release: str,
    *,
    documents: Mapping[str, Any],
    default: str | None,
    external: bool,
    global_mig: str | None,
    placement: NodePlacement,
) -> ReleaseConfigs:
    if not documents:
        if external:
            return ReleaseConfigs({}, None, True, release, placement)
        # No config at all: the plugin runs on its flags alone.
        plain = PluginConfig(IMPLICIT_DEFAULT_CONFIG, global_mig or NO_MIG)
        return ReleaseConfigs({plain.name: plain}, plain.name, False, release, placement)
    configs = {
        str(name): parse_config(str(name), document, global_mig)
        for name, document in documents.items()
    }
    if default is None and IMPLICIT_DEFAULT_CONFIG in configs:
        default = IMPLICIT_DEFAULT_CONFIG
    if default is None and len(configs) == 1:
        default = next(iter(configs))
    return ReleaseConfigs(configs, default, False, release, placement)
