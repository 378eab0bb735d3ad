"""AKS AgentPool, ManagedCluster (agentPoolProfiles) and ACK NodePool/cluster props in the wire
shape, compliant by default; keyword changes make one-field mutations (``None`` drops a key)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .harness import Res

AGENT_POOL = "azure-native:containerservice:AgentPool"
MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
ACK_NODE_POOL = "alicloud:cs/nodePool:NodePool"


def aks_gpu_pool(**changes: Any) -> dict[str, Any]:
    pool: dict[str, Any] = {
        "agentPoolName": "a100",
        "resourceGroupName": "rg",
        "resourceName": "aks",
        "vmSize": "Standard_ND96asr_v4",
        "count": 2,
        "enableAutoScaling": False,
        "osSKU": "Ubuntu",
        "gpuInstanceProfile": "MIG1g",
        "nodeTaints": ["nvidia.com/gpu=present:NoSchedule"],
        "nodeLabels": {"gpu-platform.io/pool": "a100"},
    }
    pool.update(changes)
    return {k: v for k, v in pool.items() if v is not None}


def profile(**changes: Any) -> dict[str, Any]:
    entry = aks_gpu_pool(**changes)
    entry["name"] = entry.pop("agentPoolName")
    del entry["resourceGroupName"], entry["resourceName"]
    return entry


SYSTEM_PROFILE = {
    "name": "system",
    "vmSize": "Standard_D4s_v5",
    "mode": "System",
    "nodeTaints": ["CriticalAddonsOnly=true:NoSchedule"],
}


def cluster(**changes: Any) -> dict[str, Any]:
    props: dict[str, Any] = {
        "resourceGroupName": "rg",
        "dnsPrefix": "aks",
        "agentPoolProfiles": [SYSTEM_PROFILE, profile()],
        "autoUpgradeProfile": {"upgradeChannel": "patch", "nodeOSUpgradeChannel": "NodeImage"},
        "networkProfile": {"networkPlugin": "azure", "networkPolicy": "cilium"},
    }
    props.update(changes)
    return {k: v for k, v in props.items() if v is not None}


def ack_pool(**changes: Any) -> dict[str, Any]:
    props: dict[str, Any] = {
        "clusterId": "c-123",
        "nodePoolName": "a10",
        "instanceTypes": ["ecs.gn7i-c8g1.2xlarge"],
        "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}],
        "labels": [{"key": "gpu-platform.io/pool", "value": "a10"}],
        "desiredSize": "2",
    }
    props.update(changes)
    return props


TERWAY = {"name": "terway-eniip", "config": '{"IPVlan": "false", "NetworkPolicy": "true"}'}


def ack_cluster(addons: Sequence[dict[str, Any]] | None = (TERWAY,)) -> tuple[Res, ...]:
    props: dict[str, Any] = {"name": "ack", "clusterSpec": "ack.pro.small"}
    if addons is not None:
        props["addons"] = list(addons)
    return (Res("alicloud:cs/managedKubernetes:ManagedKubernetes", "ack", props),)


def agent_pool(**changes: Any) -> tuple[Res, ...]:
    return (Res(AGENT_POOL, "a100", aks_gpu_pool(**changes)),)


def managed_cluster(**changes: Any) -> tuple[Res, ...]:
    return (Res(MANAGED_CLUSTER, "aks", cluster(**changes)),)


def in_cluster(**changes: Any) -> tuple[Res, ...]:
    """The GPU pool inline in a ManagedCluster's agentPoolProfiles, with ``changes``."""
    return managed_cluster(agentPoolProfiles=[SYSTEM_PROFILE, profile(**changes)])


def ack(**changes: Any) -> tuple[Res, ...]:
    return (Res(ACK_NODE_POOL, "a10", ack_pool(**changes)),)


T4 = {"vmSize": "Standard_NC4as_T4_v3", "gpuInstanceProfile": None}
NO_TAINT = "lacks the taint nvidia.com/gpu:NoSchedule"
REPLACE = "mig-pools-replaceable-on-profile-change"
NOT_REPLACEABLE = "neither sets deleteBeforeReplace nor carries its profile in its name"
