"""What the seeds' own checks should show on the live cluster, from the validated stack config.

The practices' sources name commands to run against a GPU cluster (``nvidia-smi -L`` on a MIG
node, ``kubectl inspect cgpu`` and ``nvidia-smi`` on ACK's shared nodes, Azure Container Storage
for the NVMe cache, the newest node image). These are the facts each of those checks compares
with, per pool, resolved once from the same ``plan`` pool facts the components provision from.

Every GPU pool of the stack is here, NVIDIA's and AMD's: node-image age and the NVMe cache are
the cloud's and apply to both; MIG, ACK's GPU sharing and MPS are NVIDIA's (``SeedPool.vendor``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gpu_facts.ack.addons import MPS_CONTROL_CHART
from gpu_facts.aks.nodes import NODE_IMAGE_CLUSTER_CHANNEL
from gpu_facts.capacity import ACK_SHARING_MODES, mig_instances_per_gpu
from gpu_facts.nvidia.device_plugin_chart import MPS_CONTROL_DAEMON_SUFFIX
from gpu_facts.vendors import NVIDIA, GpuVendor
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.settings import AksClusterSettings


class MpsDaemon(StrEnum):
    """Which MPS control daemon runs on a pool's nodes, named by what it is found by."""

    ACK = MPS_CONTROL_CHART
    """ACK's ``ack-mps-control`` (ACK ``sharing.mode: mps``)."""
    DEVICE_PLUGIN = MPS_CONTROL_DAEMON_SUFFIX
    """The NVIDIA device plugin's ``<release>-mps-control-daemon`` (``sharing.mode: mps``
    elsewhere)."""


@dataclass(frozen=True, slots=True)
class MigLayout:
    """The MIG devices ``nvidia-smi -L`` lists on every node of a MIG pool."""

    profile: str
    """NVIDIA's profile name, as ``nvidia-smi -L`` prints it (``1g.5gb``)."""
    per_gpu: int
    """Devices of that profile on each GPU (the capacity model's instances per GPU)."""
    gpus: int
    """GPUs of the VM size."""

    def __str__(self) -> str:
        return f"{self.gpus} GPUs × {self.per_gpu} MIG {self.profile}"


@dataclass(frozen=True, slots=True)
class NvmeDisks:
    """The local NVMe disks of a pool's VM size that back the NVMe cache."""

    count: int
    gib_each: int

    @property
    def total_gib(self) -> int:
        return self.count * self.gib_each

    def __str__(self) -> str:
        disks = "disk" if self.count == 1 else "disks"
        return f"{self.count} local NVMe {disks}, {self.total_gib:,} GiB"


@dataclass(frozen=True, slots=True)
class SeedPool:
    name: str
    gpus: int
    """GPUs per node (the VM size's or instance type's)."""
    mig: MigLayout | None = None
    gpu_mem_ledger: bool = False
    """ACK's GPU sharing (MPS, cGPU, share) books ``aliyun.com/gpu-mem`` per GPU."""
    mps: MpsDaemon | None = None
    nvme: NvmeDisks | None = None
    """Set when the pool offers its NVMe disks to the cache (``nvme: true``, AKS only)."""
    vendor: GpuVendor = NVIDIA
    """Whose GPUs the pool has: the NVIDIA-only checks (MIG devices, ACK GPU memory, the MPS
    server) leave AMD pools out; node images and NVMe disks are checked on every pool."""


@dataclass(frozen=True, slots=True)
class SeedExpectations:
    cloud: str = ""
    pools: tuple[SeedPool, ...] = ()
    node_os_channel: str | None = None
    """AKS: the node OS upgrade channel in effect; None on other clouds."""
    not_aks: str = ""
    """Why the cloud's own checks (node images, the NVMe cache) do not run, when the reason is
    not the cloud (a plan's AKS pools on a cluster it does not create)."""

    @property
    def is_aks(self) -> bool:
        return self.node_os_channel is not None

    @property
    def nvidia_pools(self) -> tuple[SeedPool, ...]:
        """The pools with NVIDIA GPUs, the only ones MIG, ACK's sharing and MPS apply to."""
        return tuple(pool for pool in self.pools if pool.vendor is NVIDIA)


def _mps(pf: PoolFacts) -> MpsDaemon | None:
    if pf.is_ack_mps:
        return MpsDaemon.ACK
    return MpsDaemon.DEVICE_PLUGIN if pf.sharing == "mps" else None


def seed_pool(pf: PoolFacts) -> SeedPool:
    mig = None
    # A DRA pool's MIG devices are read from its ResourceSlices (verify.dra_checks): no device
    # plugin pod runs there to run nvidia-smi -L in.
    if pf.mig_profile is not None and not pf.uses_dra:
        per_gpu = mig_instances_per_gpu(pf.gpu_model, pf.mig_profile)
        mig = MigLayout(pf.mig_profile, per_gpu, pf.gpus_per_node)
    nvme = None
    if pf.nvme_cache and pf.nvme_disk_count:  # AKS only (stack_config.rules.pools)
        nvme = NvmeDisks(pf.nvme_disk_count, pf.nvme_disk_gib)
    return SeedPool(
        name=pf.name,
        gpus=pf.gpus_per_node,
        mig=mig,
        gpu_mem_ledger=pf.sharing in ACK_SHARING_MODES,
        mps=_mps(pf),
        nvme=nvme,
        vendor=pf.vendor,
    )


def node_os_channel(cluster: AksClusterSettings) -> str:
    """The node OS channel AKS applies: the cluster channel ``node-image`` forces ``NodeImage``
    (``gpu_facts.aks.nodes.NODE_IMAGE_CLUSTER_CHANNEL``)."""
    return channel_applied(cluster.upgrade_channel, cluster.node_os_upgrade_channel)


def channel_applied(upgrade_channel: str, node_os_upgrade_channel: str) -> str:
    """:func:`node_os_channel` of the two channels an AKS cluster is given."""
    if upgrade_channel == NODE_IMAGE_CLUSTER_CHANNEL:
        return "NodeImage"
    return node_os_upgrade_channel


def seed_expectations(platform: ResolvedPlatform) -> SeedExpectations:
    cfg = platform.settings
    cluster = cfg.cluster
    aks = isinstance(cluster, AksClusterSettings)
    return SeedExpectations(
        cloud=cfg.cloud,
        pools=tuple(seed_pool(pf) for pf in platform.pools.values()),
        node_os_channel=node_os_channel(cluster) if aks else None,
    )
