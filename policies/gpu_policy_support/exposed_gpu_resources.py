"""What a GPU node pool advertises to the scheduler, from its machine type, MIG profile, sharing
labels and the device plugin config its nodes select (the capacity model of ``gpu_facts``); on
AMD pools, from the DeviceConfigs of AMD's GPU Operator that run AMD's device plugin there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from pulumi_policy import PolicyResource

from gpu_facts import (
    ACK_SHARING_MODES,
    MigStrategy,
    PoolShape,
    SharingMode,
    UnknownGpuFact,
    aks_mig_profile,
    gpu_model,
    pool_capacity,
)
from gpu_facts.capacity import DRA, MIG_STRATEGIES, NO_MIG_STRATEGY
from gpu_facts.models import GpuModel
from gpu_facts.nvidia.device_plugin_chart import CHART_NAME
from gpu_facts.scheduling import (
    ACK_GPU_SCHEDULE_VALUES,
    DEVICE_PLUGIN_CONFIG_LABEL,
    NVIDIA_GPU,
    SHARED_SUFFIX,
)
from gpu_facts.vendors import AMD, NVIDIA, resource_vendor

from .amd.device_configs import DeviceConfig, device_configs
from .device_plugin_configs import PluginConfig, ReleaseConfigs, release_configs
from .helm_releases import releases
from .node_pools import NodePool, stack_gpu_pools
from .tolerations import may_schedule


def pool_gpus(pool: NodePool) -> tuple[GpuModel, int] | None:
    """The GPU model and GPUs per node of a pool, None when the catalog does not know it."""
    if not pool.gpus:
        return None
    row, count = pool.gpus[0]
    try:
        return gpu_model(row.gpu_model), count
    except UnknownGpuFact:
        return None


def most_gpus_per_node(pool: NodePool) -> int | None:
    """The most GPUs one node of the pool can have, over every machine type it allows (an EKS
    node group or a Karpenter NodePool may allow several); None when the catalog knows none."""
    return max((count for _, count in pool.allowed_gpus), default=None)


def dra_devices_per_node(pool: NodePool) -> dict[str, int] | None:
    """What NVIDIA's DRA driver publishes on one of the pool's nodes, per DeviceClass (the
    capacity model: its MIG devices on a MIG pool, else its GPUs); nothing on another vendor's
    pool; None when the catalog does not know its GPUs or MIG profile."""
    if pool.vendor is not NVIDIA:
        return {}
    gpus = pool_gpus(pool)
    if gpus is None:
        return None
    model, count = gpus
    try:
        profile = aks_mig_profile(model, pool.mig_profile) if pool.mig_profile else None
        strategy: MigStrategy | None = "single" if profile else None  # DRA reads none
        shape = PoolShape(model, count, 1, 1, profile, strategy, allocation=DRA)
        return dict(pool_capacity(shape).devices)
    except (UnknownGpuFact, ValueError):
        return None


def ack_sharing_mode(pool: NodePool) -> SharingMode | None:
    """The ACK GPU-sharing mode its ``ack.node.gpu.schedule`` label turns on, if any."""
    label = pool.on.sharing_label
    value = None if label is None else pool.labels.get(label)
    if value is None:
        return None
    for mode, label in ACK_GPU_SCHEDULE_VALUES.items():
        if label == value and mode in ACK_SHARING_MODES:
            return cast(SharingMode, mode)
    return None


def plugin_capacity(pool: NodePool, config: PluginConfig) -> dict[str, int]:
    """What the NVIDIA device plugin advertises on one of the pool's nodes with ``config``, and
    how many of each (the capacity model); nothing when the plugin cannot run with it (bad
    config, unknown MIG profile, MPS on MIG)."""
    gpus = pool_gpus(pool)
    if gpus is None or config.error is not None or config.mig_strategy not in MIG_STRATEGIES:
        return {}
    model, count = gpus
    profile: str | None = None
    strategy: MigStrategy | None = None
    if pool.mig_profile is not None and config.mig_strategy != NO_MIG_STRATEGY:
        try:
            profile = aks_mig_profile(model, pool.mig_profile)
        except UnknownGpuFact:
            return {}
        strategy = "mixed" if config.mig_strategy == "mixed" else "single"
        if config.sharing == "mps":
            return {}  # the plugin (0.16+) refuses MPS on MIG devices and does not start
    try:
        # Node counts do not change resource names: one node stands for the pool.
        whole = pool_capacity(PoolShape(model, count, 1, 1, profile, strategy)).per_node
        ((base, devices),) = whole.items()
        shared = next((r for r in config.resources if r.name == base and r.replicas >= 1), None)
        if config.sharing is None or shared is None:
            return dict(whole)
        if shared.rename:
            return {shared.rename: devices * shared.replicas}
        sharing: SharingMode = "mps" if config.sharing == "mps" else "timeSlicing"
        shape = PoolShape(
            model,
            count,
            1,
            1,
            profile,
            strategy,
            sharing=sharing,
            replicas=shared.replicas,
            rename_shared=config.rename_by_default,
        )
        return dict(pool_capacity(shape).per_node)
    except ValueError:
        return {}


@dataclass(slots=True)
class Exposure:
    """What one pool advertises, and why a device plugin release serves it nothing."""

    resources: set[str] = field(default_factory=set)
    per_node: dict[str, int] = field(default_factory=dict)
    """How many of each resource one node advertises, where the model knows it."""
    unserved: list[str] = field(default_factory=list)
    """One note per release that runs no usable plugin on the pool, for messages."""
    partitions_unknown: bool = False
    """AMD: a plugin with ``mixed`` naming serves the pool; its partition names are unknown."""
    gpu_unknown: bool = False
    """A GPU pool whose GPU the catalog does not know (a Karpenter NodePool that asks for GPU
    instances by their labels): what a device plugin names on it cannot be worked out."""

    def add(self, per_node: dict[str, int]) -> None:
        """Resources one node advertises, with their counts."""
        self.resources |= set(per_node)
        for resource, count in per_node.items():
            self.per_node[resource] = max(count, self.per_node.get(resource, 0))


def amd_exposure(pool: NodePool, configs: Sequence[DeviceConfig]) -> Exposure:
    """What AMD's device plugin advertises on an AMD pool: ``amd.com/gpu`` from each DeviceConfig
    whose plugin runs there (its selector admits the pool, its tolerations cover the pool's
    taints); partitions, unknown at preview, under ``mixed`` naming."""
    exposure = Exposure()
    for config in configs:
        if not config.plugin:
            continue
        if not config.placement.admits(pool.labels):
            continue
        if not may_schedule(config.plugin_tolerations, pool.taints):
            exposure.unserved.append(
                f"{config.label}'s device plugin does not tolerate pool {pool.name}'s taints"
            )
            continue
        resource = config.plugin_resource
        if resource is None:
            exposure.partitions_unknown = True
        else:
            exposure.resources.add(resource)
            gpus = pool_gpus(pool)
            if gpus is not None:
                exposure.per_node[resource] = gpus[1]
    if not exposure.resources and not exposure.partitions_unknown and not exposure.unserved:
        exposure.unserved.append(f"no DeviceConfig of AMD's GPU Operator selects pool {pool.name}")
    return exposure


def exposed_resources(pool: NodePool, releases: Sequence[ReleaseConfigs]) -> Exposure:
    """Every GPU resource the pool's nodes advertise. A pool labelled for ACK sharing is
    served by ACK's own device plugin unless it also selects an NVIDIA plugin config. A
    release whose nodeSelector / required node affinity the pool's labels fail puts no plugin
    pod there. A release that sets neither gets the chart's default affinity, which matches
    labels NFD adds at run time, so the pool's own labels cannot judge it: it counts as
    running there. GKE runs its own device plugin, which advertises whole GPUs, MIG
    partitions and time-shared GPUs all as ``nvidia.com/gpu`` (GKE "Run GPUs in GKE Standard
    node pools"; "Running multi-instance GPUs")."""
    exposure = Exposure()
    gpus = pool_gpus(pool)
    if pool.provider_taints_gpu_nodes:
        exposure.resources.add(NVIDIA_GPU)
        if gpus is not None:
            exposure.per_node[NVIDIA_GPU] = gpus[1]
        return exposure
    mode = ack_sharing_mode(pool)
    if gpus is None and pool.gpu_requested:
        exposure.gpu_unknown = True
        return exposure
    if mode is not None and gpus is not None:
        shape = PoolShape(gpus[0], gpus[1], 1, 1, sharing=mode)
        exposure.add(pool_capacity(shape).per_node)
        if DEVICE_PLUGIN_CONFIG_LABEL not in pool.labels:
            return exposure
    for release in releases:
        if not release.placement.admits(pool.labels):
            exposure.unserved.append(
                f"pool {pool.name} does not match release '{release.release}'s "
                f"{release.placement.describe()}, so no plugin pod runs there"
            )
            continue
        missing = release.missing_config(pool.labels)
        if missing is not None:
            exposure.unserved.append(
                f"pool {pool.name}'s {DEVICE_PLUGIN_CONFIG_LABEL} label names config "
                f"'{missing}', which release '{release.release}' does not have (the plugin "
                "does not start)"
            )
            continue
        config = release.for_node(pool.labels)
        if config is not None:
            exposure.add(plugin_capacity(pool, config))
    return exposure


def shared_names(config: PluginConfig) -> set[str]:
    """The names a config advertises its shared devices under, whatever pool selects it:
    each ``sharing.<mode>.resources`` entry's ``rename``, else its name with ``.shared`` when
    ``renameByDefault`` is on, else its own name. For a stack that declares no pool."""
    if config.error is not None or config.sharing is None:
        return set()
    return {
        entry.rename or (entry.name + SHARED_SUFFIX if config.rename_by_default else entry.name)
        for entry in config.resources
        if entry.name and entry.replicas >= 1
    }


@dataclass(frozen=True)
class StackExposure:
    """What each GPU pool of a stack advertises, and which vendors' resources that decides."""

    pools: tuple[tuple[NodePool, Exposure], ...]
    judged_vendors: frozenset[str]
    """Vendors whose device plugin the stack shows (or that have no pool needing one): their
    resources are exposed only where a pool's exposure says. Another vendor's plugin runs
    outside the stack: the pack cannot say what its pools expose."""

    def judged(self, resource: str) -> bool:
        vendor = resource_vendor(resource)
        return vendor is not None and vendor.name in self.judged_vendors


def stack_exposure(index: Mapping[str, list[PolicyResource]]) -> StackExposure | None:
    """Every GPU pool's exposure from the stack's device plugin releases and AMD DeviceConfigs;
    None when the stack cannot be judged: no GPU pools (a workload stack alone), or plugin
    configs in an external ConfigMap. GKE pools need no release (GKE runs the plugin)."""
    pools: list[NodePool] = [pool for pool, _ in stack_gpu_pools(index)]
    plugins = [release_configs(release) for release in releases(index, CHART_NAME)]
    configs = list(device_configs(index))
    if not pools or any(plugin.external for plugin in plugins):
        return None
    nvidia_pools = [p for p in pools if p.vendor is NVIDIA and not p.provider_taints_gpu_nodes]
    amd_pools = [p for p in pools if p.vendor is AMD]
    vendors = {
        NVIDIA.name: bool(plugins) or not nvidia_pools,
        AMD.name: bool(configs) or not amd_pools,
    }
    exposures = []
    for pool in pools:
        exposure = (
            amd_exposure(pool, configs) if pool.vendor is AMD else exposed_resources(pool, plugins)
        )
        if exposure.partitions_unknown:
            vendors[AMD.name] = False  # partition names cannot be judged at preview
        if exposure.gpu_unknown:
            vendors[pool.vendor.name] = False  # nor the names on a GPU the catalog lacks
        exposures.append((pool, exposure))
    judged = frozenset(name for name, judge in vendors.items() if judge)
    return StackExposure(tuple(exposures), judged)
