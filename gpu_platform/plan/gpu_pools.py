"""What makes a GPU pool sound on its cloud: a machine type of the catalog, a size, MIG and sharing
the machine and the cloud support, labels the platform does not set itself, and what else the
cloud refuses of its nodes (on AKS: the NVMe cache, an upgrade surge AKS takes).

The rules every cloud shares are here; what differs is in the cloud's own folder and asked
through ``plan.clouds``. The stack config's rules (under ``gpuPools[i]``) and every component
that takes GPU pools (under ``pool`` or ``pools[i]``) ask the same questions here, and get the
same messages; the policy pack reads the same facts (``gpu_facts``). Paths are relative to the
pool (``plan.problems``). A pool none of ``gpu_pool_problems`` faults resolves
(``plan.pools.resolve_pool``).
"""

from __future__ import annotations

from collections.abc import Iterator

from gpu_facts.aks.mig import MIG_NO_AUTOSCALER
from gpu_facts.capacity import DEVICE_PLUGIN_SHARING_MODES as DEVICE_PLUGIN_MODES
from gpu_platform.settings import AckClusterSettings, Cloud, GpuPoolSettings, PlatformSettings

from .ack.gpu_sharing import ack_pro_problems
from .clouds import cloud_plan
from .dra_pools import dra_pool_problems
from .node_pools import name_problems, reserved_label_problems, size_problems
from .nvidia.device_plugin_values import mps_version_problems
from .pools import cloud_sharing
from .problems import Problem, under

MACHINE_REQUIRED = "required: the machine type decides GPUs, MIG and NVMe"
MPS_ON_MIG = "MPS cannot share MIG devices (device plugin 0.16+ refuses it)"


def machine_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """A name the system pool does not hold, and a machine the cloud's catalogue knows."""
    yield from name_problems(cloud, pool.name)
    yield from cloud_plan(cloud).machine_problems(pool)


def mig_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """MIG (BP-10, BP-12): a fixed size, no MPS on top, and what the cloud says of the profile
    (on AKS its own names on a size it supports MIG on, elsewhere NVIDIA's)."""
    if pool.mig is None:
        return
    plan = cloud_plan(cloud)
    cloud_side = list(plan.mig_problems(pool))
    if any(path == "mig" for path, _ in cloud_side):  # the cloud has no MIG at all
        yield from cloud_side
        cloud_side = []
    if pool.autoscale is not None:
        yield "autoscale", MIG_NO_AUTOSCALER
    yield from (p for p in cloud_side if p[0] != "mig.profile")
    if pool.sharing is not None and pool.sharing.mode == "mps":
        yield "sharing.mode", MPS_ON_MIG
    yield from (p for p in cloud_side if p[0] == "mig.profile")


def sharing_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """A sharing mode the cloud offers, with the replicas it needs (ACK's own modes split GPU
    memory and take none). What sharing needs of the cluster (ACK Pro, the plugin's version)
    is ``cluster_sharing_problems``."""
    if pool.sharing is None:
        return
    plan = cloud_plan(cloud)
    mode = pool.sharing.mode
    if mode not in plan.sharing_modes:
        yield "sharing.mode", f"'{mode}' is an ACK sharing mode (cloud 'ack')"
    shared_memory = (
        plan.sharing(mode) not in DEVICE_PLUGIN_MODES if mode in plan.sharing_modes else False
    )
    if shared_memory:
        if pool.sharing.replicas is not None:
            yield "sharing.replicas", "ACK sharing splits GPU memory: pods ask aliyun.com/gpu-mem"
        return
    if pool.sharing.replicas is None:
        yield "sharing.replicas", f"required for {mode}: how many pods share one GPU"


def cluster_sharing_problems(
    settings: PlatformSettings, pool: GpuPoolSettings
) -> Iterator[Problem]:
    """What the pool's sharing needs of the cluster (paths from the config's root): ACK Pro for
    ACK's own modes (``ack.gpu_sharing.ack_pro_problems``, which the AckGpuSharing component
    asks), device plugin ``MIN_VERSION_MPS`` for MPS (``mps_version_problems``, which the
    NvidiaDevicePlugin component asks). A mode the cloud does not offer is
    ``sharing_problems``'."""
    if pool.sharing is None or pool.sharing.mode not in cloud_plan(settings.cloud).sharing_modes:
        return
    mode = cloud_sharing(settings.cloud, pool)
    cluster = settings.cluster
    if isinstance(cluster, AckClusterSettings):
        yield from under("cluster", ack_pro_problems(cluster.cluster_spec, [mode]))
    yield from under("devicePlugin", mps_version_problems(settings.device_plugin.version, [mode]))


def nvme_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """What else the cloud refuses of the nodes: on AKS the NVMe cache (BP-18) on a size without
    NVMe disks, and a surge AKS does not take."""
    yield from cloud_plan(cloud).node_problems(pool)


def label_problems(cloud: Cloud, pool: GpuPoolSettings) -> Iterator[Problem]:
    """Labels the platform sets itself (on every cloud), and AKS's own label domain."""
    return reserved_label_problems(cloud, pool.labels, gpu_pool=True)


def gpu_pool_problems(cloud: Cloud, pool: GpuPoolSettings) -> list[Problem]:
    """Every problem of one GPU pool on its own, in the order the stack config reports them."""
    return [
        *machine_problems(cloud, pool),
        *size_problems(pool.count, pool.autoscale),
        *mig_problems(cloud, pool),
        *sharing_problems(cloud, pool),
        *label_problems(cloud, pool),
        *nvme_problems(cloud, pool),
        *dra_pool_problems(cloud, pool),
    ]
