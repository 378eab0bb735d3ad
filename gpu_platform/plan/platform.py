"""ResolvedPlatform: a valid stack config with its GPU pools resolved against the catalog.

``resolve_platform`` is the step after validation (``stack_config.rules.validate``): it assumes
settings that passed the rules, and everything above it (components, ``make verify``, the policy
pack's fixtures) reads the platform through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

from gpu_facts.capacity import SHARING_ISOLATION
from gpu_platform.settings import PlatformSettings, WorkloadSettings

from .aks.nodes import ephemeral_os_warnings
from .cloud_limits import cloud_limit_warnings
from .kubernetes_versions import kubernetes_version_warnings
from .pools import PoolFacts, open_pools, resolve_pool, workload_pools


@dataclass(frozen=True)
class ResolvedPlatform:
    """Valid settings, the facts of each GPU pool, and what the config is warned about."""

    settings: PlatformSettings
    pools: dict[str, PoolFacts]
    warnings: list[str] = field(default_factory=list)

    def workload_pools(self, workload: WorkloadSettings) -> list[PoolFacts]:
        """The pools a workload namespace may use (``workload_pools``; the open ones found
        once)."""
        if workload.pools is None:
            return list(self._open_pools)
        return workload_pools(workload, self.pools)

    def pool_workload_types(self) -> Mapping[str, list[str]]:
        """Pool name -> the sorted workload types whose namespaces may use the pool (AKS
        labels the pool's nodes with them). Every pool is a key."""
        return self._pool_workload_types

    @cached_property
    def _pool_workload_types(self) -> Mapping[str, list[str]]:
        # One pass over the workloads, not one per pool; the namespaces that list no pools
        # share one set of open pools, which gets their types once.
        types: dict[str, set[str]] = {name: set() for name in self.pools}
        unlisted: set[str] = set()
        for workload in self.settings.workloads:
            if workload.pools is None:
                unlisted.add(workload.type)
                continue
            for pf in self.workload_pools(workload):
                types[pf.name].add(workload.type)
        for pf in self._open_pools:
            types[pf.name].update(unlisted)
        return MappingProxyType({name: sorted(found) for name, found in types.items()})

    @cached_property
    def _open_pools(self) -> list[PoolFacts]:
        return open_pools(self.pools)

    @property
    def cluster_gpu_resources(self) -> list[str]:
        """Every GPU resource some pool of the cluster exposes, sorted."""
        return sorted({r for pf in self.pools.values() for r in pf.capacity.per_node})


def resolve_platform(
    settings: PlatformSettings, resolved: Mapping[str, PoolFacts] | None = None
) -> ResolvedPlatform:
    """Resolve settings that passed ``stack_config.rules.validate`` (else ``UnknownGpuFact``).
    ``resolved``: facts of these very pools by name (``validate_and_resolve`` has them), which
    are not resolved again."""
    resolved = resolved or {}
    pools = {}
    for pool in settings.gpu_pools:
        known = resolved.get(pool.name)
        pools[pool.name] = (
            known if known and known.pool is pool else resolve_pool(settings.cloud, pool)
        )
    platform = ResolvedPlatform(settings, pools)
    platform.warnings.extend(quota_warnings(platform))
    if settings.queues is not None:
        from .queues import queues_plan  # a stack without queues does not import them

        platform.warnings.extend(queues_plan(settings.queues, pools, settings.workloads).warnings)
    platform.warnings.extend(cloud_limit_warnings(settings))
    platform.warnings.extend(ephemeral_os_warnings(settings))
    platform.warnings.extend(kubernetes_version_warnings(settings))
    return platform


def quota_warnings(platform: ResolvedPlatform) -> list[str]:
    """A namespace quota above what its pools can ever offer: allowed, but worth a warning."""
    warnings = []
    unlisted: dict[str, int] | None = None  # the open pools' sum: the same for every such namespace
    for i, wl in enumerate(platform.settings.workloads):
        if wl.pools is None:
            unlisted = unlisted if unlisted is not None else _offered(platform.workload_pools(wl))
            offered = unlisted
        else:
            offered = _offered(platform.workload_pools(wl))
        asked = (
            wl.gpu_quota if isinstance(wl.gpu_quota, dict) else dict.fromkeys(offered, wl.gpu_quota)
        )
        for resource, n in asked.items():
            if n > offered.get(resource, 0):
                warnings.append(
                    f"workloads[{i}].gpuQuota: {n} {resource} is more than the cluster can "
                    f"ever offer ({offered.get(resource, 0)})"
                )
    return warnings


def _offered(pools: list[PoolFacts]) -> dict[str, int]:
    """What ``pools`` offer together at their largest sizes, by resource (and DRA device
    class)."""
    offered: dict[str, int] = {}
    for pf in pools:
        for resource, n in (*pf.capacity.total.items(), *pf.capacity.total_devices.items()):
            offered[resource] = offered.get(resource, 0) + n
    return offered


def shared_pool_namespaces(platform: ResolvedPlatform) -> dict[str, list[str]]:
    """Per shared (time-sliced or MPS) pool, the workload namespaces allowed on it."""
    allowed: dict[str, list[str]] = {
        name: [] for name, pool in platform.pools.items() if pool.is_shared
    }
    unlisted: list[PoolFacts] | None = None  # the open pools that are shared, found once
    for workload in platform.settings.workloads:
        if workload.pools is None:
            if unlisted is None:
                unlisted = [p for p in platform.workload_pools(workload) if p.name in allowed]
            pools = unlisted
        else:
            pools = platform.workload_pools(workload)
        for pool in pools:
            if pool.name in allowed:
                allowed[pool.name].append(workload.name)
    return allowed


def shared_gpu_warnings(platform: ResolvedPlatform) -> dict[str, str]:
    """Per shared pool, the BP-15 warning: every pod on a shared GPU is in one trust domain."""
    warnings: dict[str, str] = {}
    for name, namespaces in shared_pool_namespaces(platform).items():
        pool = platform.pools[name]
        isolation = SHARING_ISOLATION[pool.sharing] if pool.sharing else "no fault isolation"
        who = ", ".join(namespaces) if namespaces else "no workload namespace (none lists it)"
        warnings[name] = (
            f"GPU pool {name!r} shares each GPU ({pool.sharing}: {isolation}); every pod on a "
            f"shared GPU is in one trust domain. Namespaces allowed on it: {who}. "
            "Only place workloads that trust each other there (BP-15)."
        )
    return warnings
