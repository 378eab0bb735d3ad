"""When a GPU pool may serve its GPUs through Dynamic Resource Allocation (``allocation: dra``):
one rule in one place, asked by the stack config, the pool components, ``NvidiaDraDriver`` and
(through ``gpu_facts``) the pack.

A pool's own problems are relative to the pool (``allocation``, ``sharing``, ``mig.strategy``);
what DRA needs of the cluster is relative to the config's root (``cluster.kubernetesVersion``,
``gpuOperator.enabled``). Sources: ``gpu_facts.dra`` (DRA GA in 1.34), the driver's chart
(``gpu_facts.nvidia.dra_driver_chart``), AKS's node images (``gpu_facts.aks.nodes``: CDI) and
ACK's "Schedule GPUs with DRA" guide (Kubernetes 1.34 or newer).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from gpu_facts.capacity import DRA
from gpu_facts.dra import AMD_DRA_DRIVER, DRA_GA_MINOR
from gpu_facts.vendors import AMD
from gpu_platform.settings import Cloud, GpuPoolSettings, PlatformSettings

from .amd.pools import pool_vendor
from .clouds import cloud_plan
from .kubernetes_versions import minor_version
from .pools import PoolFacts
from .problems import Problem

DRA_GA = f"{DRA_GA_MINOR[0]}.{DRA_GA_MINOR[1]}"
DRA_VERSION_RULE = (
    f"DRA is GA and on by default from Kubernetes {DRA_GA} (resource.k8s.io/v1); a managed "
    "cluster takes no feature gates to turn it on earlier"
)
SHARING_RULE = (
    "is device-plugin (or ACK) sharing: a DRA pool's node runs no device plugin, and NVIDIA's DRA "
    "driver shares a GPU through the claim's config (GpuConfig.sharing, docs/dra.md)"
)
MIG_STRATEGY_RULE = (
    "is the device plugin's: NVIDIA's DRA driver publishes every MIG device as one device of "
    "class mig.nvidia.com; leave mig.strategy out"
)
AMD_RULE = (
    f"AMD's DRA driver ({AMD_DRA_DRIVER.source}) has no release the platform can pin; AMD pools "
    "get their GPUs from AMD's device plugin (allocation: devicePlugin)"
)


def is_dra(pool: GpuPoolSettings) -> bool:
    return pool.allocation == DRA


def dra_pool_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """What a DRA pool may not be on its own (none for a device-plugin pool): an AMD pool, a
    pool with device-plugin or ACK sharing, a MIG strategy."""
    if not is_dra(pool):
        return
    if pool_vendor(pool) is AMD:
        yield "allocation", AMD_RULE
    if pool.sharing is not None:
        yield "sharing", f"{pool.sharing.mode!r} {SHARING_RULE}"
    if pool.mig is not None and "strategy" in pool.mig.model_fields_set:
        yield "mig.strategy", f"{pool.mig.strategy!r} {MIG_STRATEGY_RULE}"


def dra_version_problems(
    cloud: str, version: str | None, dra: Sequence[tuple[str, GpuPoolSettings]], at: str
) -> Iterator[Problem]:
    """The version of a cluster we create (AKS, ACK; ``at`` is its key) that must run the DRA
    pools ``dra`` (each with its key); on AKS, a node image whose containerd hands CDI devices
    to containers. An existing cluster's version is its own (docs/dra.md says what it needs)."""
    plan = cloud_plan(cloud)
    if not plan.creates_nodes or not dra:
        return
    named = ", ".join(path for path, _ in dra)
    if version is None and plan.dra_default_version_serves():
        return  # the cloud creates the cluster on a version that serves DRA (ACK: its newest)
    if version is None:
        yield (
            at,
            f"required with DRA pools ({named}): {DRA_VERSION_RULE}, and AKS's default version "
            f"may run a node image without CDI; set {DRA_GA} or newer",
        )
        return
    minor = minor_version(version)
    if minor is None:
        return  # the version rule reports a malformed version
    if minor < DRA_GA_MINOR:
        yield at, f"{version} cannot run DRA pools ({named}): {DRA_VERSION_RULE}"
        return
    yield from plan.dra_node_problems(version, minor, dra)


def dra_cluster_problems(settings: PlatformSettings) -> Iterator[Problem]:
    """What DRA pools need of the rest of the config (paths from its root): a Kubernetes version
    that serves DRA, CDI on AKS's nodes, and no GPU Operator (whose device plugin runs on every
    GPU node it labels; keeping it off a node by label is unconfirmed for the pinned operator)."""
    dra = [(f"gpuPools[{i}]", p) for i, p in enumerate(settings.gpu_pools) if is_dra(p)]
    if not dra:
        return
    version: str | None = getattr(settings.cluster, "kubernetes_version", None)
    yield from dra_version_problems(settings.cloud, version, dra, "cluster.kubernetesVersion")
    if settings.gpu_operator.enabled:
        yield (
            "gpuOperator.enabled",
            "the GPU Operator runs its device plugin on every GPU node it labels, the DRA pools' "
            "too, and NVIDIA's DRA driver must not run beside a device plugin (its chart's "
            "validation.yaml); use the device plugin release (devicePlugin.enabled) with DRA pools",
        )


def dra_pools(pools: Iterable[PoolFacts]) -> list[PoolFacts]:
    """The pools NVIDIA's DRA driver serves."""
    return [pool for pool in pools if pool.uses_dra]
