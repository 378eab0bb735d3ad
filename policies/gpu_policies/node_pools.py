"""One view of a GPU node pool, whichever resource declares it.

AKS pools come as ``AgentPool`` resources or inline in a ``ManagedCluster``'s
``agentPoolProfiles``; ACK pools as ``NodePool`` resources. A pool is a GPU pool when its VM
size or one of its instance types is in the GPU catalog (``gpu_facts``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gpu_facts import UnknownGpuFact, azure_vm_size, ecs_instance_type
from gpu_facts.models import AzureVmSize, EcsInstanceType
from gpu_facts.scheduling import Taint

from .props import is_true, items, mapping, mappings, path, text
from .resource_types import ACK_NODE_POOL, AKS_AGENT_POOL, AKS_MANAGED_CLUSTER


@dataclass(frozen=True, slots=True)
class NodePool:
    """The facts of one node pool that the pool policies check."""

    name: str
    """How messages name the pool: ``gpu`` or ``aks/agentPoolProfiles[gpu]``."""
    cloud: str
    """``azure`` or ``alicloud``."""
    machine_types: tuple[str, ...]
    taints: tuple[Taint, ...]
    labels: Mapping[str, str]
    mig_profile: str | None
    """AKS ``gpuInstanceProfile``."""
    autoscaling: bool
    os_sku: str | None

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
    def is_gpu(self) -> bool:
        return self.azure_size is not None or bool(self.ecs_types)


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


def gpu_node_pools(resource_type: str, name: str, props: Mapping[str, Any]) -> Iterator[NodePool]:
    return (pool for pool in node_pools(resource_type, name, props) if pool.is_gpu)
