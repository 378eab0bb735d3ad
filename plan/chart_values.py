"""What every GPU DaemonSet chart we install shares: where its pods land, and how user values
merge over ours (as Helm merges values files)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpu_facts.scheduling import (
    DEVICE_PLUGIN_CONFIG_LABEL,
    GPU_PRESENT_LABEL,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
)


def gpu_node_affinity() -> dict[str, Any]:
    """Required node affinity: the GPU-present label AND a per-pool plugin config label.

    Every pool the NVIDIA device plugin serves carries both; requiring the config label as well
    keeps our GPU DaemonSets off GPU nodes another plugin serves (ACK's shared pools) even if
    one is mislabelled.
    """
    return {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchExpressions": [
                            {"key": GPU_PRESENT_LABEL, "operator": "In", "values": ["true"]},
                            {"key": DEVICE_PLUGIN_CONFIG_LABEL, "operator": "Exists"},
                        ]
                    }
                ]
            }
        }
    }


def gpu_tolerations() -> list[dict[str, str]]:
    """Tolerate the GPU taint whatever its value; no CriticalAddonsOnly (keeps off system nodes)."""
    return [{"key": GPU_TAINT_KEY, "operator": "Exists", "effect": GPU_TAINT_EFFECT}]


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
