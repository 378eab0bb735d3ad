"""What every GPU DaemonSet chart we install shares: where its pods land, and how user values
merge over ours (as Helm merges values files)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpu_facts.nvidia.device_plugin_chart import CRITICAL_ADDONS_TAINT_KEY
from gpu_facts.scheduling import (
    DEVICE_PLUGIN_CONFIG_LABEL,
    GPU_PRESENT_LABEL,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
    POOL_LABEL,
)


def gpu_node_affinity(pools: Sequence[str] = ()) -> dict[str, Any]:
    """Required node affinity: the GPU-present label AND a per-pool plugin config label, or
    (with ``pools``) our pool label naming one of them.

    Every pool the NVIDIA device plugin serves carries both plugin labels; requiring the config
    label as well keeps our GPU DaemonSets off GPU nodes another plugin serves (ACK's shared
    pools) even if one is mislabelled. A DaemonSet that must run there too (the metrics
    exporter) names those pools: their nodes carry none of the plugin's labels, only ours.
    """
    terms: list[dict[str, Any]] = [
        {
            "matchExpressions": [
                {"key": GPU_PRESENT_LABEL, "operator": "In", "values": ["true"]},
                {"key": DEVICE_PLUGIN_CONFIG_LABEL, "operator": "Exists"},
            ]
        }
    ]
    if pools:
        terms.append(
            {"matchExpressions": [{"key": POOL_LABEL, "operator": "In", "values": sorted(pools)}]}
        )
    return {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}
        }
    }


def gpu_tolerations() -> list[dict[str, str]]:
    """Tolerate the (NVIDIA) GPU taint whatever its value; no CriticalAddonsOnly (keeps off system
    nodes), no AMD taint (keeps off AMD nodes)."""
    return vendor_tolerations(GPU_TAINT_KEY)


def system_tolerations() -> list[dict[str, str]]:
    """For the charts' controllers and webhooks (Deployments): AKS taints every non-GPU node of
    the system pool CriticalAddonsOnly."""
    return [{"key": CRITICAL_ADDONS_TAINT_KEY, "operator": "Exists"}]


def vendor_tolerations(taint_key: str) -> list[dict[str, str]]:
    """Tolerate a vendor's GPU taint whatever its value, and nothing else (keeps off system
    nodes and the other vendor's GPU nodes)."""
    return [{"key": taint_key, "operator": "Exists", "effect": GPU_TAINT_EFFECT}]


def merge_values(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[str, Any]:
    """Helm's merge: mappings key by key, anything else (lists included) replaced."""
    merged = dict(ours)
    for key, value in theirs.items():
        current = merged.get(key)
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            merged[key] = merge_values(current, value)
        else:
            merged[key] = value
    return merged
