"""The pack's one dispatch on cloud: what differs by cloud in reading a node pool and in
saying how to fix it.

Each pool reader (``node_pools``) names its pool's cloud as the catalogues name them (``aks``,
``ack``, ``eks``, ``gke``: ``gpu_facts.lookup.CatalogueMachine.service``; empty for a
Karpenter NodePool whose cloud nothing says); what a policy needs of that cloud it asks here,
through ``NodePool.on``, and no policy compares a cloud name (``tests/unit/test_cloud_names.py``).
A cloud the pack reads is one more entry below, with its facts in ``gpu_facts/<cloud>/``. (The
platform's own dispatch is ``gpu_platform.plan.clouds``: the pack loads without the platform.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from gpu_facts import (
    UnknownGpuFact,
    aws_instance_type,
    azure_vm_size,
    ecs_instance_type,
    gcp_accelerator,
)
from gpu_facts.ack.addons import ARMS_PROMETHEUS_ADDON
from gpu_facts.eks.nodes import API_TAINT_EFFECTS, EKS_NODE_GROUP_LABEL
from gpu_facts.gke.machine_types import GKE_DCGM_COMPONENT, GKE_NODE_POOL_LABEL
from gpu_facts.models import AwsInstanceType, AzureVmSize, EcsInstanceType, GcpAccelerator
from gpu_facts.scheduling import ACK_GPU_SCHEDULE_LABEL

GpuMachine = AzureVmSize | EcsInstanceType | AwsInstanceType | GcpAccelerator
"""A catalogue's row of a machine type (or GKE accelerator) with GPUs."""
MachineGpus = tuple[tuple[GpuMachine, int], ...]
"""The catalogue's rows of a pool's machines, each with the GPUs one node has."""


def _rows(lookup: Callable[[str], GpuMachine], names: Sequence[str]) -> MachineGpus:
    found = []
    for name in names:
        try:
            row = lookup(name)
        except UnknownGpuFact:
            continue
        found.append((row, row.gpu_count))
    return tuple(found)


def _aks_gpus(machine_types: Sequence[str], accelerators: Sequence[tuple[str, int]]) -> MachineGpus:
    return _rows(azure_vm_size, machine_types)


def _ack_gpus(machine_types: Sequence[str], accelerators: Sequence[tuple[str, int]]) -> MachineGpus:
    return _rows(ecs_instance_type, machine_types)


def _eks_gpus(machine_types: Sequence[str], accelerators: Sequence[tuple[str, int]]) -> MachineGpus:
    return _rows(aws_instance_type, machine_types)


def _gke_gpus(machine_types: Sequence[str], accelerators: Sequence[tuple[str, int]]) -> MachineGpus:
    """Each accelerator type with its count per node, then each GPU machine type's own GPUs."""
    found = []
    for name, count in (*accelerators, *((m, 0) for m in machine_types)):
        try:
            gpu = gcp_accelerator(name)
        except UnknownGpuFact:
            continue
        found.append((gpu, count or gpu.gpu_count))
    return tuple(found)


def _no_gpus(machine_types: Sequence[str], accelerators: Sequence[tuple[str, int]]) -> MachineGpus:
    return ()


def _taint_in_list(key: str, value: str, effect: str) -> str:
    return f"Add a taint {{key: {key}, value: {value}, effect: {effect}}} to the pool."


def _aks_taint(key: str, value: str, effect: str) -> str:
    return f"Add '{key}={value}:{effect}' to the pool's nodeTaints."


def _eks_taint(key: str, value: str, effect: str) -> str:
    return _taint_in_list(key, value, API_TAINT_EFFECTS.get(effect, effect))


@dataclass(frozen=True, slots=True)
class PoolCloud:
    """What the pack knows of one cloud's node pools."""

    name: str
    """As the catalogues name it: ``aks``, ``ack``, ``eks``, ``gke`` (empty: not known)."""
    gpus: Callable[[Sequence[str], Sequence[tuple[str, int]]], MachineGpus] = _no_gpus
    """The catalogue's rows of machine types (and accelerators), with GPUs per node."""
    first_machine_type: bool = False
    """A pool's GPUs are its first machine type's (an AKS pool has one VM size; a Karpenter
    NodePool on AKS is read the same way)."""
    add_taint: Callable[[str, str, str], str] = _taint_in_list
    """How to add a taint (key, value, Kubernetes' effect) where the cloud declares a pool."""
    own_pool_label: str | None = None
    """The label the cloud puts on a pool's nodes, the pool's name (GKE, EKS)."""
    taints_gpu_nodes: bool = False
    """The cloud taints GPU nodes and tolerates GPU pods itself (GKE): no taint of ours."""
    sharing_label: str | None = None
    """The node label that turns on the cloud's own GPU sharing (ACK's)."""
    managed_exporter: str = ""
    """How the cloud's own GPU exporter comes to watch a pool, for a fix ("" when it has none)."""


POOL_CLOUDS: Mapping[str, PoolCloud] = {
    cloud.name: cloud
    for cloud in (
        PoolCloud("aks", _aks_gpus, first_machine_type=True, add_taint=_aks_taint),
        PoolCloud(
            "ack",
            _ack_gpus,
            sharing_label=ACK_GPU_SCHEDULE_LABEL,
            managed_exporter=(
                f"on an untainted pool, ACK's own GPU exporter (cluster add-on "
                f"{ARMS_PROMETHEUS_ADDON}) also does, as it tolerates no custom taint"
            ),
        ),
        PoolCloud("eks", _eks_gpus, add_taint=_eks_taint, own_pool_label=EKS_NODE_GROUP_LABEL),
        PoolCloud(
            "gke",
            _gke_gpus,
            own_pool_label=GKE_NODE_POOL_LABEL,
            taints_gpu_nodes=True,
            managed_exporter=(
                "or turn on GKE's managed DCGM metrics (the cluster's "
                f"monitoringConfig.enableComponents with {GKE_DCGM_COMPONENT})"
            ),
        ),
    )
}
"""Every cloud whose node pools the pack reads, by name."""
UNKNOWN_CLOUD = PoolCloud("")
"""A pool whose cloud nothing says (a Karpenter NodePool without a known node class)."""


def pool_cloud(name: str) -> PoolCloud:
    """The cloud ``name`` (a ``NodePool.cloud``); ``UNKNOWN_CLOUD`` for any other."""
    return POOL_CLOUDS.get(name, UNKNOWN_CLOUD)
