"""Rules of each GPU pool: machine type, size, MIG, sharing, NVMe, labels (``plan.gpu_pools``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from gpu_facts.ack.addons import ACK_PRO_PREFIX
from gpu_facts.nvidia.device_plugin_chart import MIN_VERSION_MPS, at_least
from gpu_platform.plan.dra_pools import dra_cluster_problems, dra_pool_problems
from gpu_platform.plan.gpu_pools import (
    label_problems,
    machine_problems,
    mig_problems,
    nvme_problems,
    sharing_problems,
)
from gpu_platform.plan.node_pools import size_problems
from gpu_platform.plan.pools import ACK_MODES
from gpu_platform.plan.problems import under
from gpu_platform.settings import AckClusterSettings, GpuPoolSettings

from .base import ConfigUnderCheck, Problem, Rule, valid_version

# Each check asks plan.gpu_pools (the components ask the same) and puts the paths under the
# pool's place in the config.


def _pool_machine(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    yield from under(at, machine_problems(cfg.cloud, pool))


def _pool_size(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    yield from under(at, size_problems(pool.count, pool.autoscale))


def _pool_mig(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    yield from under(at, mig_problems(cfg.cloud, pool))


def _pool_sharing(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    """The pool's own sharing rules, then what sharing needs of the cluster: ACK Pro for ACK's
    own modes, device plugin 0.15+ for MPS."""
    yield from under(at, sharing_problems(cfg.cloud, pool))
    if pool.sharing is None:
        return
    mode = pool.sharing.mode
    if cfg.cloud == "alicloud" and mode in ACK_MODES:
        cluster = cfg.settings.cluster
        if isinstance(cluster, AckClusterSettings) and not cluster.cluster_spec.startswith(
            ACK_PRO_PREFIX
        ):
            yield (
                "cluster.clusterSpec",
                f"ACK GPU sharing ('{mode}') needs ACK Pro ({ACK_PRO_PREFIX}*)",
            )
        return
    version = cfg.settings.device_plugin.version
    if mode == "mps" and valid_version(version) and not at_least(version, MIN_VERSION_MPS):
        yield "devicePlugin.version", f"MPS sharing needs device plugin {MIN_VERSION_MPS}+"


def _pool_nvme(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    yield from under(at, nvme_problems(cfg.cloud, pool))


def pool_labels(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    """Labels the platform sets itself (on every cloud), and AKS's own label domain."""
    yield from under(at, label_problems(cfg.cloud, pool))


def _pool_dra(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    yield from under(at, dra_pool_problems(cfg.cloud, pool))


def dra_cluster(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """What DRA pools need of the cluster and the GPU layer (``plan.dra_pools``)."""
    yield from dra_cluster_problems(cfg.settings)


PoolCheck = Callable[[ConfigUnderCheck, str, GpuPoolSettings], Iterator[Problem]]
"""A check of one pool: the config, the pool's key path and its settings."""


def per_pool(pool_check: PoolCheck) -> Rule:
    """A rule that runs a one-pool check on each pool under check."""

    def rule(cfg: ConfigUnderCheck) -> Iterator[Problem]:
        for i, pool in cfg.pools:
            yield from pool_check(cfg, f"gpuPools[{i}]", pool)

    rule.__name__ = pool_check.__name__.lstrip("_")
    return rule


def duplicate_names(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    """Pool names are unique across GPU and CPU pools: AKS and ACK name pools per cluster."""
    gpu = Counter(p.name for p in cfg.settings.gpu_pools)
    for name, n in gpu.items():
        if n > 1:
            yield "gpuPools", f"duplicate name {name!r}"
    cpu = Counter(p.name for p in cfg.settings.cpu_pools)
    for i, pool in enumerate(cfg.settings.cpu_pools):
        if pool.name in gpu:
            yield f"cpuPools[{i}].name", f"{pool.name!r} is also the name of a GPU pool"
    for name, n in cpu.items():
        if n > 1:
            yield "cpuPools", f"duplicate name {name!r}"


POOL_RULES: tuple[Rule, ...] = tuple(
    per_pool(check)
    for check in (
        _pool_machine,
        _pool_size,
        _pool_mig,
        _pool_sharing,
        _pool_nvme,
        pool_labels,
        _pool_dra,
    )
)
"""Rules of one pool each: a pool they find no problem in is sound, and resolved."""
