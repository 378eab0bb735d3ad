"""The values of NVIDIA's DRA driver chart: its kubelet plugin on exactly the DRA pools, its
controller (ComputeDomains only) on CPU nodes, the GPU side on.

Read against the chart's ``values.yaml`` and templates (25.12.0,
``gpu_facts.nvidia.dra_driver_chart``). Helm merges maps key by key and replaces lists, so the
chart's default affinities (NFD labels for the kubelet plugin, control-plane nodes for the
controller) are replaced by giving their ``nodeSelectorTerms`` lists, never by an empty map.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpu_facts.dra import RESOURCE_API_VERSION
from gpu_facts.nvidia.device_plugin_chart import at_least
from gpu_facts.nvidia.dra_driver_chart import (
    CHART_NAME,
    DEFAULT_VERSION,
    GPU_RESOURCES_OVERRIDE,
    HOST_DRIVER_ROOT,
    NEW_CHART_NAME,
    RESOURCE_API_VERSION_VALUE,
)
from gpu_facts.scheduling import GPU_PRESENT_LABEL, POOL_LABEL

from ..chart_values import gpu_tolerations, system_tolerations
from ..problems import Problem


def _required(*expressions: dict[str, Any]) -> dict[str, Any]:
    terms = [{"matchExpressions": list(expressions)}]
    return {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}
        }
    }


def kubelet_plugin_affinity(dra_pools: Sequence[str]) -> dict[str, Any]:
    """Exactly the DRA pools' nodes, by our pool label (every pool the platform creates carries
    it; on an existing cluster its nodes are labelled so: docs/dra.md)."""
    return _required({"key": POOL_LABEL, "operator": "In", "values": sorted(dra_pools)})


def controller_affinity() -> dict[str, Any]:
    """CPU nodes only: no node labelled as having NVIDIA GPUs. (It tolerates no GPU taint
    either; on AKS it runs in the system pool, whose CriticalAddonsOnly taint it tolerates.)"""
    return _required({"key": GPU_PRESENT_LABEL, "operator": "DoesNotExist"})


def dra_driver_values(dra_pools: Sequence[str], compute_domains: bool) -> dict[str, Any]:
    """The release's values: the driver for the node image's NVIDIA driver (``/``), GPUs on with
    the override the chart asks for (no device plugin runs on a DRA pool: ``plan.node_labels``),
    ``resource.k8s.io/v1`` said explicitly (the chart fails when it cannot detect a version, as
    in an offline render), and each pod placed."""
    return {
        "nvidiaDriverRoot": HOST_DRIVER_ROOT,
        GPU_RESOURCES_OVERRIDE: True,
        RESOURCE_API_VERSION_VALUE: RESOURCE_API_VERSION,
        "resources": {
            "gpus": {"enabled": True},
            "computeDomains": {"enabled": compute_domains},
        },
        "kubeletPlugin": {
            "affinity": kubelet_plugin_affinity(dra_pools),
            "tolerations": gpu_tolerations(),
        },
        "controller": {
            "affinity": controller_affinity(),
            "tolerations": system_tolerations(),
        },
    }


def version_problems(version: str) -> list[Problem]:
    """A chart version the release cannot install with these values: not a version, or older
    than the chart they were read against (``gpu_facts.nvidia.dra_driver_chart``); the driver's
    0.4.x releases are another chart under another name. Relative to the driver's settings
    (``version``)."""
    try:
        current = at_least(version, DEFAULT_VERSION)
    except ValueError:
        return [("version", f"not a version: {version!r}")]
    if current:
        return []
    return [
        (
            "version",
            f"{version} is older than {DEFAULT_VERSION}, the {CHART_NAME} chart the platform's "
            f"values were read against (the driver's 0.4.x releases are the {NEW_CHART_NAME} "
            "chart, not published under this name)",
        )
    ]
