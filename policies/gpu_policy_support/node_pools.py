"""One view of a GPU node pool, whichever resource declares it.

AKS pools come as azure-native ``AgentPool`` resources or inline in a ``ManagedCluster``'s
``agentPoolProfiles`` (at any API version: ``resource_types.canonical_type``), or as pulumi-azure
(classic) ``KubernetesClusterNodePool`` resources and a ``KubernetesCluster``'s
``defaultNodePool``; ACK pools as ``NodePool`` resources; EKS node groups as pulumi-aws
``NodeGroup`` resources, pulumi-eks node group components or the default node group of a
pulumi-eks ``Cluster``; GKE pools as ``NodePool`` resources or inline in a ``Cluster``'s
``nodePools``; Karpenter NodePools (EKS with Karpenter or Auto Mode, AKS node
auto-provisioning) as the instances their requirements allow. A pool is a GPU pool when its
machine type or accelerator is in the GPU catalog (``gpu_facts``), (EKS) its AMI type carries
the NVIDIA driver, or (Karpenter) a requirement asks for GPU instances
(``gpu_facts.karpenter``). Its GPU vendor (NVIDIA or AMD: ``gpu_facts.vendors``) comes from the
catalog's GPU model of its machine type, or a Karpenter pool's GPU-manufacturer requirement;
pools known only by an accelerated AMI are NVIDIA's.

Each reader is one function of the props of one resource type, registered in ``_READERS``; a
reader for a new way to declare nodes goes there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pulumi_policy import PolicyResource

from gpu_facts import ACCELERATED_AMI_TYPES, AWS_INSTANCE_TYPES, UnknownGpuFact, gpu_model
from gpu_facts.aks.api_versions import CLASSIC_CRITICAL_ADDONS_TAINT
from gpu_facts.eks.nodes import API_TAINT_EFFECTS, EKS_NODE_GROUP_LABEL
from gpu_facts.gke.machine_types import GKE_ACCELERATOR_LABEL, GKE_NODE_POOL_LABEL
from gpu_facts.karpenter import (
    GPU_COUNT_FLOORS,
    GPU_COUNT_LABELS,
    GPU_MANUFACTURER_LABELS,
    GPU_NAME_LABELS,
    INCLUSIVE_BOUNDS,
    INSTANCE_FAMILY_LABELS,
    MACHINE_TYPE_LABELS,
    NODE_CLASS_CLOUDS,
    NODE_POOL_LABEL,
    NODE_POOL_TAINTS,
)
from gpu_facts.models import AzureVmSize
from gpu_facts.scheduling import Taint
from gpu_facts.vendors import NVIDIA, GpuVendor, vendor_named

from .clouds import MachineGpus, PoolCloud, pool_cloud
from .node_placement import Requirement, node_placement, requirement
from .props import is_true, items, mapping, mappings, path, text
from .resource_types import (
    ACK_NODE_POOL,
    AKS_AGENT_POOL,
    AKS_MANAGED_CLUSTER,
    AZURE_CLUSTER,
    AZURE_NODE_POOL,
    EKS_NODE_GROUP,
    GKE_CLUSTER,
    GKE_NODE_POOL,
    KARPENTER_NODE_POOL,
    POOL_TYPES,
    PULUMI_EKS_CLUSTER,
    PULUMI_EKS_MANAGED_NODE_GROUP,
    PULUMI_EKS_NODE_GROUPS,
    aks_api_version,
    canonical_type,
)

# EKS's API spells taint effects in capitals (so does GKE's): NO_SCHEDULE is NoSchedule.
_EFFECTS = {api: kubernetes for kubernetes, api in API_TAINT_EFFECTS.items()}

PoolOrigin = Literal["cloud", "karpenter", "aks-default-pool"]
"""What declares the pool: a cloud's node-pool API; a Karpenter NodePool (Kubernetes taints, on
any cloud); pulumi-azure's ``defaultNodePool``, which takes no taints."""


@dataclass(frozen=True, slots=True)
class NodePool:
    """The facts of one node pool that the pool policies check."""

    name: str
    """How messages name the pool: ``gpu`` or ``aks/agentPoolProfiles[gpu]``."""
    cloud: str
    """``aks``, ``ack``, ``eks`` or ``gke`` (``clouds``); empty when nothing says."""
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
    """The fewest nodes the pool can have, None when the props do not say (an autoscaled AKS
    pool without ``minCount``)."""
    max_nodes: float | None = None
    """The most nodes the pool can have (what a quota can ever use): AKS, ACK, EKS and a static
    Karpenter NodePool (``spec.replicas``); None when the props do not say (GKE counts per
    zone, a Karpenter NodePool grows as pods need)."""
    resource_limits: Mapping[str, float] | None = None
    """Karpenter: ``spec.limits``, the most of each resource the pool's nodes hold together
    (``nvidia.com/gpu: 8``)."""
    api_version: str | None = None
    """azure-native AKS pools: the API version their token is written against."""
    origin: PoolOrigin = "cloud"
    gpu_requested: bool = False
    """Karpenter: a requirement asks for GPU instances (a GPU count, name or manufacturer)."""
    requested_vendor: str | None = None
    """Karpenter: the GPU manufacturer its requirements allow, when that is one vendor."""
    requirements: tuple[Requirement, ...] = ()
    """Karpenter: the requirements every node it starts meets (one of several allowed values
    is the label a node gets)."""

    @property
    def on(self) -> PoolCloud:
        """What the pack knows of the pool's cloud (``clouds``: the pack's one dispatch)."""
        return pool_cloud(self.cloud)

    @property
    def gpus(self) -> MachineGpus:
        """The catalogue's rows of the pool's machine types (or accelerators) with GPUs, each
        with the GPUs one node has; empty when the catalogue knows none."""
        types = self.machine_types[:1] if self.on.first_machine_type else self.machine_types
        return self.on.gpus(types, self.accelerators)

    @property
    def allowed_gpus(self) -> MachineGpus:
        """As ``gpus``, of every machine type the pool allows (a Karpenter NodePool's several)."""
        return self.on.gpus(self.machine_types, self.accelerators)

    @property
    def azure_size(self) -> AzureVmSize | None:
        """The GPU VM size of an AKS pool, None when the size has no GPU in the catalog."""
        rows = self.gpus
        return rows[0][0] if rows and isinstance(rows[0][0], AzureVmSize) else None

    @property
    def vendor(self) -> GpuVendor:
        """The vendor of the pool's GPUs (NVIDIA unless the catalog's model says otherwise)."""
        if self.requested_vendor is not None:
            try:
                return vendor_named(self.requested_vendor)
            except KeyError:
                pass
        for row, _ in self.gpus:
            try:
                return vendor_named(gpu_model(row.gpu_model).vendor)
            except (UnknownGpuFact, KeyError):
                continue
        return NVIDIA

    def may_carry(self, selector: Mapping[str, str]) -> bool:
        """Whether some node of the pool carries every label of ``selector`` (a Kueue flavour's
        ``nodeLabels``): the pool's labels, or a value its requirements allow a node's label
        (Karpenter: ``instance-gpu-name In [a100, h100]`` lets a node carry ``a100``)."""
        for key, value in selector.items():
            if key in self.labels:
                if self.labels[key] != value:
                    return False
                continue
            on_key = [r for r in self.requirements if r.key == key]
            allows = any(r.operator in _LABEL_GIVING for r in on_key)
            if not allows or not all(_karpenter_allows(r, value) for r in on_key):
                return False  # NotIn alone puts no such label on a node
        return True

    @property
    def provider_taints_gpu_nodes(self) -> bool:
        """GKE taints GPU nodes and tolerates GPU pods itself: no taint of ours is needed."""
        return self.on.taints_gpu_nodes

    @property
    def is_gpu(self) -> bool:
        return bool(self.gpus) or self.accelerated_image or self.gpu_requested

    @property
    def describe(self) -> str:
        """The pool's machine type, or its accelerator, for messages; a Karpenter NodePool's
        allowed types (the first three), or that it asks for GPU instances by their labels."""
        if self.origin == "karpenter":
            shown = ", ".join(self.machine_types[:3])
            more = ", ..." if len(self.machine_types) > 3 else ""
            return f"{shown}{more}" if shown else "GPU instances"
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


def aks_taints(value: Any) -> tuple[Taint, ...]:
    """AKS ``nodeTaints`` (azure-native and pulumi-azure): ``key=value:Effect`` strings."""
    taints = (parse_aks_taint(t) for t in items(value) if isinstance(t, str))
    return tuple(t for t in taints if t is not None)


def _aks_nodes(autoscaling: bool, bound: Any, count: Any) -> float | None:
    """Autoscaled: its bound (``minCount`` or ``maxCount``); fixed: its count (AKS creates 1
    node when none is given)."""
    if autoscaling:
        return node_count(bound)
    return 1.0 if count is None else node_count(count)


@dataclass(frozen=True, slots=True)
class AksFields:
    """Where an AKS pool's fields are, per provider: azure-native's agent pool API names, or
    pulumi-azure's (azurerm's, camelCase on the wire)."""

    mig: str
    os_sku: str
    count: str
    autoscaling: tuple[str, ...]


AZURE_NATIVE_FIELDS = AksFields("gpuInstanceProfile", "osSKU", "count", ("enableAutoScaling",))
PULUMI_AZURE_FIELDS = AksFields(
    "gpuInstance", "osSku", "nodeCount", ("autoScalingEnabled", "enableAutoScaling")
)
"""pulumi-azure v6 renamed ``enable_auto_scaling`` to ``auto_scaling_enabled``: both are read."""


def _aks_pool(
    name: str,
    props: Mapping[str, Any],
    fields: AksFields = AZURE_NATIVE_FIELDS,
    *,
    api_version: str | None = None,
    origin: PoolOrigin = "cloud",
    taints: Any = None,
) -> NodePool:
    """An AKS pool: an azure-native ``AgentPool`` or ``agentPoolProfiles`` entry, a pulumi-azure
    ``KubernetesClusterNodePool`` or ``defaultNodePool`` (``taints`` given: it has no field)."""
    vm_size = text(props.get("vmSize"))
    autoscaling = any(is_true(props.get(key)) for key in fields.autoscaling)
    return NodePool(
        name=name,
        cloud="aks",
        machine_types=(vm_size,) if vm_size else (),
        taints=aks_taints(props.get("nodeTaints") if taints is None else taints),
        labels={str(k): str(v) for k, v in mapping(props.get("nodeLabels")).items()},
        mig_profile=text(props.get(fields.mig)),
        autoscaling=autoscaling,
        os_sku=text(props.get(fields.os_sku)),
        min_nodes=_aks_nodes(autoscaling, props.get("minCount"), props.get(fields.count)),
        max_nodes=_aks_nodes(autoscaling, props.get("maxCount"), props.get(fields.count)),
        api_version=api_version,
        origin=origin,
    )


def _classic_default_pool(name: str, props: Mapping[str, Any]) -> NodePool | None:
    """A pulumi-azure cluster's ``defaultNodePool``: no ``nodeTaints`` field; only
    ``onlyCriticalAddonsEnabled`` taints it (``gpu_facts.aks.api_versions``)."""
    pool = mapping(props.get("defaultNodePool"))
    if not pool:
        return None
    critical = (
        [CLASSIC_CRITICAL_ADDONS_TAINT] if is_true(pool.get("onlyCriticalAddonsEnabled")) else []
    )
    pool_name = text(pool.get("name")) or "default"
    return _aks_pool(
        f"{name}/defaultNodePool[{pool_name}]",
        pool,
        PULUMI_AZURE_FIELDS,
        origin="aks-default-pool",
        taints=critical,
    )


def _ack_nodes(autoscaling: bool, props: Mapping[str, Any], bound: str) -> float | None:
    """Autoscaled: ``scalingConfig.<bound>`` (``minSize`` or ``maxSize``); fixed:
    ``desiredSize`` or the deprecated ``nodeCount`` (0 only when every size given is 0)."""
    if autoscaling:
        return node_count(path(props, "scalingConfig", bound))
    sizes = [node_count(props.get(key)) for key in ("desiredSize", "nodeCount")]
    known = [size for size in sizes if size is not None]
    if not known:
        return None
    return 0.0 if all(size == 0 for size in known) else max(known)


def _ack_pool(name: str, props: Mapping[str, Any]) -> NodePool:
    autoscaling = is_true(path(props, "scalingConfig", "enable"))
    return NodePool(
        name=name,
        cloud="ack",
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
        autoscaling=autoscaling,
        os_sku=text(props.get("imageType")),
        min_nodes=_ack_nodes(autoscaling, props, "minSize"),
        max_nodes=_ack_nodes(autoscaling, props, "maxSize"),
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
        cloud="eks",
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
        cloud="gke",
        machine_types=(machine_type,) if machine_type else (),
        taints=_taints(node_config.get("taints")),
        labels=labels,
        mig_profile=None,
        autoscaling=bool(autoscaling),
        os_sku=text(node_config.get("imageType")),
        accelerators=accelerators,
        min_nodes=node_count(minimum),
    )


# --- Karpenter ------------------------------------------------------------------------------


_LABEL_GIVING = frozenset({"In", "Exists", "Gt", "Lt", *INCLUSIVE_BOUNDS})
"""Requirement operators under which every node Karpenter starts carries the label."""


def _karpenter_allows(req: Requirement, value: str) -> bool:
    """Whether a NodePool requirement lets a node carry ``value`` on its key: Kubernetes'
    operators, and Karpenter's inclusive ``Gte`` and ``Lte`` (``gpu_facts.karpenter``)."""
    if req.operator not in INCLUSIVE_BOUNDS:
        return req.matches({req.key: value})
    if len(req.values) != 1:
        return False  # Karpenter refuses a bound that is not one integer
    try:
        have, bound = int(value), int(req.values[0])
    except ValueError:
        return False
    return have >= bound if req.operator == "Gte" else have <= bound


def _asks_for_gpus(req: Requirement) -> bool:
    """A requirement that admits only GPU instances: a positive GPU count (``In``, or a lower
    bound, ``Gt`` or Karpenter's ``Gte``: ``GPU_COUNT_FLOORS``), or a GPU name or manufacturer
    (only GPU instances carry those labels)."""
    if req.key in GPU_COUNT_LABELS:
        if req.operator == "Exists":
            return True
        counts = [node_count(v) for v in req.values]
        floor = GPU_COUNT_FLOORS.get(req.operator)
        if floor is not None:
            return any(c is not None and c >= floor for c in counts)
        return (
            req.operator == "In" and bool(counts) and all(c is not None and c > 0 for c in counts)
        )
    if req.key in (*GPU_NAME_LABELS, *GPU_MANUFACTURER_LABELS):
        return req.operator == "Exists" or (req.operator == "In" and bool(req.values))
    return False


def _karpenter_cloud(props: Mapping[str, Any], requirements: Sequence[Requirement]) -> str:
    """The cloud of a NodePool's node class (``nodeClassRef.group``), else of the provider
    labels its requirements use; empty when neither says."""
    group = text(path(props, "spec", "template", "spec", "nodeClassRef", "group")) or ""
    if group in NODE_CLASS_CLOUDS:
        return NODE_CLASS_CLOUDS[group]
    for req in requirements:
        for prefix, cloud in NODE_CLASS_CLOUDS.items():
            if req.key.startswith(f"{prefix}/"):
                return cloud
    return ""


def _families(requirements: Sequence[Requirement]) -> tuple[str, ...]:
    """The catalog's GPU instance types of the EC2 families a NodePool allows (``g5``)."""
    families = {
        v
        for r in requirements
        if r.key in INSTANCE_FAMILY_LABELS and r.operator == "In"
        for v in r.values
    }
    return tuple(sorted(t for t, it in AWS_INSTANCE_TYPES.items() if it.family in families))


def _karpenter_pool(name: str, props: Mapping[str, Any]) -> NodePool:
    """A Karpenter NodePool: the machine types, GPUs and labels its requirements allow, the
    ``taints`` of its template; it grows from zero nodes unless it is a static pool
    (``spec.replicas``), up to its ``spec.limits``. Its ``startupTaints`` are not the pool's
    taints: Karpenter expects them removed soon after start and provisions for pods that do not
    tolerate them (``gpu_facts.karpenter.NODE_POOL_TAINTS``)."""
    pool_name = text(path(props, "metadata", "name")) or name
    template = mapping(path(props, "spec", "template"))
    spec = mapping(template.get("spec"))
    requirements = tuple(requirement(r) for r in mappings(spec.get("requirements")))
    machine_types = [
        v
        for r in requirements
        if r.key in MACHINE_TYPE_LABELS and r.operator == "In"
        for v in r.values
    ]
    labels = {str(k): str(v) for k, v in mapping(path(template, "metadata", "labels")).items()}
    for req in requirements:  # a one-value requirement is the label every node gets
        if req.operator == "In" and len(req.values) == 1:
            labels.setdefault(req.key, req.values[0])
    labels[NODE_POOL_LABEL] = pool_name
    makers = {
        v.lower()
        for r in requirements
        if r.key in GPU_MANUFACTURER_LABELS and r.operator == "In"
        for v in r.values
    }
    replicas = node_count(path(props, "spec", "replicas"))
    limits = {
        str(resource): amount
        for resource, value in mapping(path(props, "spec", "limits")).items()
        if (amount := node_count(value)) is not None  # "1000Gi" of memory: not a GPU count
    }
    return NodePool(
        name=pool_name,
        cloud=_karpenter_cloud(props, requirements),
        machine_types=(*machine_types, *_families(requirements)),
        taints=_taints(spec.get(NODE_POOL_TAINTS)),
        labels=labels,
        mig_profile=None,
        autoscaling=replicas is None,
        os_sku=None,
        min_nodes=replicas if replicas is not None else 0.0,
        max_nodes=replicas,
        resource_limits=limits or None,
        requirements=requirements,
        origin="karpenter",
        gpu_requested=any(_asks_for_gpus(r) for r in requirements),
        requested_vendor=makers.pop().upper() if len(makers) == 1 else None,
    )


# --- Dispatch -------------------------------------------------------------------------------


def _agent_pools(resource_type: str, name: str, props: Mapping[str, Any]) -> Iterator[NodePool]:
    api_version = aks_api_version(resource_type)
    yield _aks_pool(text(props.get("agentPoolName")) or name, props, api_version=api_version)


def _managed_cluster(resource_type: str, name: str, props: Mapping[str, Any]) -> Iterator[NodePool]:
    api_version = aks_api_version(resource_type)
    for index, profile in enumerate(mappings(props.get("agentPoolProfiles"))):
        pool_name = text(profile.get("name")) or f"#{index}"
        yield _aks_pool(f"{name}/agentPoolProfiles[{pool_name}]", profile, api_version=api_version)


def _classic_cluster(_: str, name: str, props: Mapping[str, Any]) -> Iterator[NodePool]:
    default = _classic_default_pool(name, props)
    if default is not None:
        yield default


def _eks_cluster(resource_type: str, name: str, props: Mapping[str, Any]) -> Iterator[NodePool]:
    default = _eks_default_node_group(name, props)
    if default is not None:
        yield default


def _gke_cluster(_: str, name: str, props: Mapping[str, Any]) -> Iterator[NodePool]:
    for index, pool in enumerate(mappings(props.get("nodePools"))):
        pool_name = text(pool.get("name")) or f"#{index}"
        yield _gke_pool(f"{name}/nodePools[{pool_name}]", pool, pool_name)


Reader = Callable[[str, str, Mapping[str, Any]], Iterator[NodePool]]
_READERS: dict[str, Reader] = {
    AKS_AGENT_POOL: _agent_pools,
    AKS_MANAGED_CLUSTER: _managed_cluster,
    AZURE_NODE_POOL: lambda _, name, props: iter(
        (_aks_pool(text(props.get("name")) or name, props, PULUMI_AZURE_FIELDS),)
    ),
    AZURE_CLUSTER: _classic_cluster,
    ACK_NODE_POOL: lambda _, name, props: iter(
        (_ack_pool(text(props.get("nodePoolName")) or text(props.get("name")) or name, props),)
    ),
    EKS_NODE_GROUP: lambda t, name, props: iter((_eks_pool(t, name, props),)),
    **{
        t: (lambda t, name, props: iter((_eks_pool(t, name, props),)))
        for t in PULUMI_EKS_NODE_GROUPS
    },
    PULUMI_EKS_CLUSTER: _eks_cluster,
    GKE_NODE_POOL: lambda _, name, props: iter(
        (_gke_pool(text(props.get("name")) or name, props),)
    ),
    GKE_CLUSTER: _gke_cluster,
    KARPENTER_NODE_POOL: lambda _, name, props: iter((_karpenter_pool(name, props),)),
}
"""The reader of each (canonical) type that declares node pools: ``POOL_TYPES``."""


def node_pools(resource_type: str, name: str, props: Mapping[str, Any]) -> Iterator[NodePool]:
    """Every node pool a resource declares (none for resources that declare no pool)."""
    reader = _READERS.get(canonical_type(resource_type))
    return reader(resource_type, name, props) if reader is not None else iter(())


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
