"""One view of a GPU node pool, whichever resource declares it.

AKS pools come as ``AgentPool`` resources or inline in a ``ManagedCluster``'s
``agentPoolProfiles``; ACK pools as ``NodePool`` resources; EKS node groups as pulumi-aws
``NodeGroup`` resources, pulumi-eks node group components or the default node group of a
pulumi-eks ``Cluster``; GKE pools as ``NodePool``
resources or inline in a ``Cluster``'s ``nodePools``. A pool is a GPU pool when its machine
type or accelerator is in the GPU catalog (``gpu_facts``), or (EKS) its AMI type carries the
NVIDIA driver. Its GPU vendor (NVIDIA or AMD: ``gpu_facts.vendors``) comes from the catalog's
GPU model of its machine type; pools known only by an accelerated AMI are NVIDIA's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pulumi_policy import PolicyResource

from gpu_facts import (
    ACCELERATED_AMI_TYPES,
    UnknownGpuFact,
    aws_instance_type,
    azure_vm_size,
    ecs_instance_type,
    gcp_accelerator,
    gpu_model,
)
from gpu_facts.gke.machine_types import GKE_ACCELERATOR_LABEL, GKE_NODE_POOL_LABEL
from gpu_facts.models import AwsInstanceType, AzureVmSize, EcsInstanceType, GcpAccelerator
from gpu_facts.scheduling import Taint
from gpu_facts.vendors import NVIDIA, GpuVendor, vendor_named

from .node_placement import node_placement
from .props import is_true, items, mapping, mappings, path, text
from .resource_types import (
    ACK_NODE_POOL,
    AKS_AGENT_POOL,
    AKS_MANAGED_CLUSTER,
    EKS_NODE_GROUP,
    GKE_CLUSTER,
    GKE_NODE_POOL,
    POOL_TYPES,
    PULUMI_EKS_CLUSTER,
    PULUMI_EKS_MANAGED_NODE_GROUP,
    PULUMI_EKS_NODE_GROUPS,
)

EKS_NODE_GROUP_LABEL = "eks.amazonaws.com/nodegroup"
"""Label EKS puts on the nodes of a managed node group: the node group's name."""
# EKS's API spells taint effects in capitals (so does GKE's): NO_SCHEDULE is NoSchedule.
_EFFECTS = {"NO_SCHEDULE": "NoSchedule", "NO_EXECUTE": "NoExecute"}
_EFFECTS["PREFER_NO_SCHEDULE"] = "PreferNoSchedule"


@dataclass(frozen=True, slots=True)
class NodePool:
    """The facts of one node pool that the pool policies check."""

    name: str
    """How messages name the pool: ``gpu`` or ``aks/agentPoolProfiles[gpu]``."""
    cloud: str
    """``azure``, ``alicloud``, ``aws`` or ``gcp``."""
    machine_types: tuple[str, ...]
    taints: tuple[Taint, ...]
    labels: Mapping[str, str]
    mig_profile: str | None
    """AKS ``gpuInstanceProfile``."""
    autoscaling: bool
    os_sku: str | None
    """AKS ``osSKU``, ACK ``imageType``, EKS ``amiType``."""
    accelerators: tuple[tuple[str, int], ...] = ()
    """GKE ``guestAccelerators``: (type, count per node)."""
    accelerated_image: bool = False
    """EKS: an AMI type (or pulumi-eks ``gpu: true``) whose nodes carry the NVIDIA driver."""
    min_nodes: float | None = None
    """EKS and GKE: the fewest nodes the pool can have, None when the props do not say."""
    max_nodes: float | None = None
    """AKS, ACK and EKS: the most nodes the pool can have (what a quota can ever use), None
    when the props do not say (GKE counts per zone)."""

    @property
    def azure_size(self) -> AzureVmSize | None:
        """The GPU VM size of an AKS pool, None when the size has no GPU in the catalog."""
        if self.cloud != "azure" or not self.machine_types:
            return None
        try:
            return azure_vm_size(self.machine_types[0])
        except UnknownGpuFact:
            return None

    @property
    def ecs_types(self) -> tuple[EcsInstanceType, ...]:
        """The GPU instance types of an ACK pool."""
        found = []
        for name in self.machine_types if self.cloud == "alicloud" else ():
            try:
                found.append(ecs_instance_type(name))
            except UnknownGpuFact:
                continue
        return tuple(found)

    @property
    def aws_types(self) -> tuple[AwsInstanceType, ...]:
        """The GPU instance types of an EKS node group."""
        found = []
        for name in self.machine_types if self.cloud == "aws" else ():
            try:
                found.append(aws_instance_type(name))
            except UnknownGpuFact:
                continue
        return tuple(found)

    @property
    def gcp_gpus(self) -> tuple[tuple[GcpAccelerator, int], ...]:
        """A GKE pool's GPUs: each accelerator type or GPU machine type, with GPUs per node."""
        if self.cloud != "gcp":
            return ()
        found = []
        for name, count in (*self.accelerators, *((m, 0) for m in self.machine_types)):
            try:
                gpu = gcp_accelerator(name)
            except UnknownGpuFact:
                continue
            found.append((gpu, count or gpu.gpu_count))
        return tuple(found)

    @property
    def vendor(self) -> GpuVendor:
        """The vendor of the pool's GPUs (NVIDIA unless the catalog's model says otherwise)."""
        names = [
            *((self.azure_size.gpu_model,) if self.azure_size is not None else ()),
            *(t.gpu_model for t in self.aws_types),
        ]
        for name in names:
            try:
                return vendor_named(gpu_model(name).vendor)
            except (UnknownGpuFact, KeyError):
                continue
        return NVIDIA

    @property
    def provider_taints_gpu_nodes(self) -> bool:
        """GKE taints GPU nodes and tolerates GPU pods itself: no taint of ours is needed."""
        return self.cloud == "gcp"

    @property
    def is_gpu(self) -> bool:
        return (
            self.azure_size is not None
            or bool(self.ecs_types)
            or bool(self.aws_types)
            or bool(self.gcp_gpus)
            or self.accelerated_image
        )

    @property
    def describe(self) -> str:
        """The pool's machine type, or its accelerator, for messages."""
        if self.machine_types:
            return self.machine_types[0]
        if self.accelerators:
            return self.accelerators[0][0]
        return self.os_sku or "GPU"


def parse_aks_taint(taint: str) -> Taint | None:
    """``key=value:Effect`` or ``key:Effect``; None when the string has neither form."""
    key_value, sep, effect = taint.rpartition(":")
    if not sep or not key_value:
        return None
    key, _, value = key_value.partition("=")
    return Taint(key, value, effect)


def _aks_pool(name: str, props: Mapping[str, Any]) -> NodePool:
    taints = (parse_aks_taint(t) for t in items(props.get("nodeTaints")) if isinstance(t, str))
    vm_size = text(props.get("vmSize"))
    return NodePool(
        name=name,
        cloud="azure",
        machine_types=(vm_size,) if vm_size else (),
        taints=tuple(t for t in taints if t is not None),
        labels={str(k): str(v) for k, v in mapping(props.get("nodeLabels")).items()},
        mig_profile=text(props.get("gpuInstanceProfile")),
        autoscaling=is_true(props.get("enableAutoScaling")),
        os_sku=text(props.get("osSKU")),
        # AKS: maxCount when autoscaled, else count (1 when unset).
        max_nodes=(
            node_count(props.get("maxCount"))
            if is_true(props.get("enableAutoScaling"))
            else node_count(props.get("count", 1))
        ),
    )


def _ack_pool(name: str, props: Mapping[str, Any]) -> NodePool:
    return NodePool(
        name=name,
        cloud="alicloud",
        machine_types=tuple(t for t in items(props.get("instanceTypes")) if isinstance(t, str)),
        taints=tuple(
            Taint(
                text(t.get("key")) or "",
                text(t.get("value")) or "",
                text(t.get("effect")) or "",
            )
            for t in mappings(props.get("taints"))
        ),
        labels={
            str(label.get("key")): str(label.get("value") or "")
            for label in mappings(props.get("labels"))
        },
        mig_profile=None,
        autoscaling=is_true(path(props, "scalingConfig", "enable")),
        os_sku=text(props.get("imageType")),
        max_nodes=(
            node_count(path(props, "scalingConfig", "maxSize"))
            if is_true(path(props, "scalingConfig", "enable"))
            else node_count(props.get("desiredSize", props.get("nodeCount")))
        ),
    )


def _effect(value: Any) -> str:
    effect = text(value) or ""
    return _EFFECTS.get(effect, effect)


def _taints(value: Any) -> tuple[Taint, ...]:
    """Taints as a list of {key, value, effect} (EKS, GKE, pulumi-eks managed) or a map
    key -> {value, effect} (pulumi-eks self-managed node groups)."""
    if isinstance(value, Mapping):
        return tuple(
            Taint(str(key), text(mapping(t).get("value")) or "", _effect(mapping(t).get("effect")))
            for key, t in value.items()
        )
    return tuple(
        Taint(text(t.get("key")) or "", text(t.get("value")) or "", _effect(t.get("effect")))
        for t in mappings(value)
    )


def _labels(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in mapping(value).items()}


def node_count(value: Any) -> float | None:
    """A node count as providers send it (number or numeric string), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _eks_pool(resource_type: str, name: str, props: Mapping[str, Any]) -> NodePool:
    pool_name = text(props.get("nodeGroupName")) or name
    types = [t for t in items(props.get("instanceTypes")) if isinstance(t, str)]
    single = text(props.get("instanceType"))
    if single:
        types.append(single)
    ami_type = text(props.get("amiType"))
    labels = _labels(props.get("labels"))
    managed = resource_type in (EKS_NODE_GROUP, PULUMI_EKS_MANAGED_NODE_GROUP)
    if managed and text(props.get("nodeGroupName")):
        labels.setdefault(EKS_NODE_GROUP_LABEL, pool_name)  # EKS labels managed nodes only
    scaling = mapping(props.get("scalingConfig"))
    minimum = scaling.get("minSize") if scaling else props.get("minSize")
    maximum = scaling.get("maxSize") if scaling else props.get("maxSize")
    return NodePool(
        name=pool_name,
        cloud="aws",
        machine_types=tuple(types),
        taints=_taints(props.get("taints")),
        labels=labels,
        mig_profile=None,
        autoscaling=False,
        os_sku=ami_type,
        accelerated_image=ami_type in ACCELERATED_AMI_TYPES or is_true(props.get("gpu")),
        min_nodes=node_count(minimum),
        max_nodes=node_count(maximum),
    )


def _eks_default_node_group(name: str, props: Mapping[str, Any]) -> NodePool | None:
    """A pulumi-eks ``Cluster``'s default node group, None when the cluster skips it."""
    fargate = props.get("fargate")
    if is_true(props.get("skipDefaultNodeGroup")) or (fargate is not None and fargate is not False):
        return None
    # nodeGroupOptions and the cluster's own node options are exclusive in pulumi-eks.
    options = mapping(props.get("nodeGroupOptions")) or props
    return _eks_pool(PULUMI_EKS_CLUSTER, f"{name}/defaultNodeGroup", options)


def _gke_pool(name: str, props: Mapping[str, Any], node_pool: str | None = None) -> NodePool:
    """A GKE pool; ``node_pool`` is its GKE name when ``name`` (for messages) differs."""
    node_config = mapping(props.get("nodeConfig"))
    accelerators = tuple(
        (text(a.get("type")) or "", int(node_count(a.get("count")) or 1))
        for a in mappings(node_config.get("guestAccelerators"))
    )
    machine_type = text(node_config.get("machineType"))
    labels = {GKE_NODE_POOL_LABEL: node_pool or name, **_labels(node_config.get("labels"))}
    if accelerators:
        labels.setdefault(GKE_ACCELERATOR_LABEL, accelerators[0][0])
    autoscaling = mapping(props.get("autoscaling"))
    if autoscaling:
        # Per zone or for the whole pool: GKE takes one pair or the other.
        minimum = autoscaling.get("minNodeCount")
        if minimum is None:
            minimum = autoscaling.get("totalMinNodeCount")
    else:
        minimum = props.get("nodeCount")
        if minimum is None:  # absent, or null: the pool's size is its initial count
            minimum = props.get("initialNodeCount")
    return NodePool(
        name=name,
        cloud="gcp",
        machine_types=(machine_type,) if machine_type else (),
        taints=_taints(node_config.get("taints")),
        labels=labels,
        mig_profile=None,
        autoscaling=bool(autoscaling),
        os_sku=text(node_config.get("imageType")),
        accelerators=accelerators,
        min_nodes=node_count(minimum),
    )


def node_pools(resource_type: str, name: str, props: Mapping[str, Any]) -> Iterator[NodePool]:
    """Every node pool a resource declares (none for resources that declare no pool)."""
    if resource_type == AKS_AGENT_POOL:
        yield _aks_pool(text(props.get("agentPoolName")) or name, props)
    elif resource_type == AKS_MANAGED_CLUSTER:
        for index, profile in enumerate(mappings(props.get("agentPoolProfiles"))):
            pool_name = text(profile.get("name")) or f"#{index}"
            yield _aks_pool(f"{name}/agentPoolProfiles[{pool_name}]", profile)
    elif resource_type == ACK_NODE_POOL:
        yield _ack_pool(text(props.get("nodePoolName")) or text(props.get("name")) or name, props)
    elif resource_type == EKS_NODE_GROUP or resource_type in PULUMI_EKS_NODE_GROUPS:
        yield _eks_pool(resource_type, name, props)
    elif resource_type == PULUMI_EKS_CLUSTER:
        default = _eks_default_node_group(name, props)
        if default is not None:
            yield default
    elif resource_type == GKE_NODE_POOL:
        yield _gke_pool(text(props.get("name")) or name, props)
    elif resource_type == GKE_CLUSTER:
        for index, pool in enumerate(mappings(props.get("nodePools"))):
            pool_name = text(pool.get("name")) or f"#{index}"
            yield _gke_pool(f"{name}/nodePools[{pool_name}]", pool, pool_name)


def gpu_node_pools(resource_type: str, name: str, props: Mapping[str, Any]) -> Iterator[NodePool]:
    return (pool for pool in node_pools(resource_type, name, props) if pool.is_gpu)


def stack_gpu_pools(
    index: Mapping[str, list[PolicyResource]],
) -> Iterator[tuple[NodePool, PolicyResource]]:
    """Every GPU node pool of a stack (``stack_index.index_by_type``), with its resource."""
    for resource_type in POOL_TYPES:
        for resource in index.get(resource_type, ()):
            for pool in gpu_node_pools(resource_type, resource.name, resource.props):
                yield pool, resource


def admitted_pools(pools: Sequence[NodePool], spec: Mapping[str, Any]) -> tuple[NodePool, ...]:
    """The pools a pod spec's placement (nodeSelector and required node affinity,
    ``node_placement``) admits; every pool when it admits none of them (its labels may come
    from elsewhere, e.g. GPU Feature Discovery)."""
    placement = node_placement(spec)
    admitted = tuple(p for p in pools if placement.admits(p.labels))
    return admitted or tuple(pools)
