"""What a configured GPU pool means in GPU facts: model, GPUs, MIG profile and capacity."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import get_args

from gpu_facts import Capacity, GpuModel, PoolShape, pool_capacity
from gpu_facts.capacity import ACK_SHARING_MODES, DEVICE_PLUGIN_SHARING_MODES, DRA, SharingMode
from gpu_facts.scheduling import POOL_LABEL, Taint
from gpu_facts.vendors import AMD, NVIDIA, GpuVendor, vendor_named
from gpu_platform.settings import Cloud, GpuPoolSettings, WorkloadSettings

from .ack.pools import ACK_MPS_MODE
from .clouds import cloud_plan


@dataclass(frozen=True, slots=True)
class PoolFacts:
    """A validated pool with the catalog facts resolved once."""

    pool: GpuPoolSettings
    """The pool's settings as validated."""
    cloud: Cloud
    gpu_model: GpuModel
    gpus_per_node: int
    nvme_disk_count: int
    nvme_disk_gib: int
    mig_profile: str | None
    """NVIDIA MIG profile name (``1g.5gb``) or None."""
    sharing: SharingMode | None
    """Sharing as the capacity model and the components see it, per cloud."""
    capacity: Capacity
    nvme_cache: bool = False
    """Whether the pool offers its local NVMe disks as the ephemeral cache (AKS's ``nvme``)."""
    virtual_function_gpus: bool = False
    """Whether its GPUs are virtual functions (Azure VMs)."""

    @property
    def name(self) -> str:
        return self.pool.name

    @property
    def vendor(self) -> GpuVendor:
        """The GPU vendor: its resources, taint and driver tool."""
        return vendor_named(self.gpu_model.vendor)

    @property
    def is_amd(self) -> bool:
        """AMD GPUs: AMD's GPU Operator serves the pool, never an NVIDIA component."""
        return self.vendor is AMD

    @property
    def uses_dra(self) -> bool:
        """Whether NVIDIA's DRA driver serves this pool's GPUs (``allocation: dra``): pods claim
        them through ResourceClaims, no device plugin runs on its nodes."""
        return self.pool.allocation == DRA

    @property
    def uses_device_plugin(self) -> bool:
        """Whether the NVIDIA device plugin serves this pool (ACK sharing modes bring their own;
        AMD pools AMD's operator; DRA pools NVIDIA's DRA driver)."""
        return self.vendor is NVIDIA and self.sharing not in ACK_SHARING_MODES and not self.uses_dra

    @property
    def is_shared(self) -> bool:
        return self.sharing is not None

    @property
    def open_to_unlisted_namespaces(self) -> bool:
        """Whether a workload namespace that lists no pools may use this pool: not a shared
        pool (one trust domain per GPU: BP-15) nor an AMD pool (ROCm images, AMD's quota):
        those serve the namespaces that name them."""
        return not self.is_shared and not self.is_amd

    @property
    def is_ack_mps(self) -> bool:
        """Whether ACK's MPS sharing serves this pool (its pods need hostIPC)."""
        return self.sharing == ACK_MPS_MODE


PLUGIN_MODES: dict[str, SharingMode] = {
    mode: mode for mode in get_args(SharingMode) if mode in DEVICE_PLUGIN_SHARING_MODES
}
"""``sharing.mode`` values the NVIDIA device plugin serves, on every cloud but ACK."""


def cloud_sharing(cloud: Cloud, pool: GpuPoolSettings) -> SharingMode | None:
    """Map the one ``sharing.mode`` setting to what each cloud does with it."""
    if pool.sharing is None:
        return None
    return cloud_plan(cloud).sharing(pool.sharing.mode)


def resolve_pool(cloud: Cloud, pool: GpuPoolSettings) -> PoolFacts:
    """Resolve a pool that passed validation (raises ``UnknownGpuFact`` on unknown names): what
    its nodes are comes from its cloud's plan (``plan.clouds``), the rest is the same anywhere."""
    plan = cloud_plan(cloud)
    machine = plan.machine(pool)
    model = machine.gpu_model
    mig_profile = plan.mig_profile(pool, model)
    if pool.autoscale is not None:
        min_nodes, max_nodes = pool.autoscale.min, pool.autoscale.max
    else:
        min_nodes = max_nodes = pool.count or 0
    sharing = cloud_sharing(cloud, pool)
    shape = PoolShape(
        gpu_model=model,
        gpus_per_node=machine.gpus_per_node,
        min_nodes=min_nodes,
        max_nodes=max_nodes,
        mig_profile=mig_profile,
        mig_strategy=pool.mig.strategy if pool.mig else None,
        sharing=sharing,
        replicas=(pool.sharing.replicas or 1) if pool.sharing else 1,
        rename_shared=pool.sharing.rename_by_default if pool.sharing else True,
        allocation=pool.allocation,
    )
    return PoolFacts(
        pool=pool,
        cloud=cloud,
        gpu_model=model,
        gpus_per_node=machine.gpus_per_node,
        nvme_disk_count=machine.nvme_disk_count,
        nvme_disk_gib=machine.nvme_disk_gib,
        mig_profile=mig_profile,
        sharing=sharing,
        capacity=pool_capacity(shape),
        nvme_cache=machine.nvme_cache,
        virtual_function_gpus=machine.virtual_function_gpus,
    )


def open_pools(pools: Mapping[str, PoolFacts]) -> list[PoolFacts]:
    """The pools a namespace that lists none may use: not shared, not AMD
    (``PoolFacts.open_to_unlisted_namespaces``)."""
    return [pf for pf in pools.values() if pf.open_to_unlisted_namespaces]


def workload_pools(workload: WorkloadSettings, pools: Mapping[str, PoolFacts]) -> list[PoolFacts]:
    """The pools a workload namespace may use: the listed ones, else the open ones."""
    if workload.pools is not None:
        return [pools[name] for name in workload.pools]
    return open_pools(pools)


@dataclass(frozen=True, slots=True)
class PoolPlacement:
    """What puts a pod on a GPU pool's nodes and keeps every other pod off them: the label that
    names the pool, and the taints its nodes carry (BP-01). The pool components label and taint
    the nodes with it; the pool's Kueue ResourceFlavor selects and tolerates the same
    (``plan.queues``), so a queued pod lands exactly there."""

    labels: Mapping[str, str]
    taints: tuple[Taint, ...]

    def tolerations(self) -> list[dict[str, str]]:
        """A toleration of exactly each taint (``Equal`` on its key and value, its effect)."""
        return [
            {"key": t.key, "operator": "Equal", "value": t.value, "effect": t.effect}
            for t in self.taints
        ]


def pool_placement(pool: PoolFacts) -> PoolPlacement:
    """The pool's identifying label (ours, on every cloud) and its vendor's GPU taint."""
    return PoolPlacement({POOL_LABEL: pool.name}, (pool.vendor.taint,))
