"""What a driver check is (BP-05): a Job or CronJob that runs the vendor's management tool
(``nvidia-smi``, ``amd-smi``) on one pool's nodes, tolerating that vendor's GPU taint.

Shared by the driver-check policy and the GPU-namespace policies (a check is not a workload:
its namespace needs no GPU quota of its own).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpu_facts.vendors import NVIDIA, VENDORS

from .pod_specs import containers, kubernetes_kind, pod_spec
from .props import items, mapping, mappings
from .tolerations import tolerates

DRIVER_CHECK_TOOL = NVIDIA.smi
"""The tool that talks to NVIDIA's driver: the practice confirms the driver version with it
(``amd-smi`` for AMD's: ``GpuVendor.smi``)."""
CHECK_KINDS = frozenset({"Job", "CronJob"})


def runs_tool(container: Mapping[str, Any], tool: str) -> bool:
    return any(
        isinstance(word, str) and tool in word
        for key in ("command", "args")
        for word in items(container.get(key))
    )


def checked_vendors(spec: Mapping[str, Any]) -> frozenset[str]:
    """The vendors a pod spec checks the driver of: it tolerates the vendor's GPU taint (any
    value: the pool's taint may be "present" or a team's "true"; the toleration policy judges
    which) and one of its containers runs the vendor's tool."""
    tolerations = list(mappings(spec.get("tolerations")))
    found = {
        vendor.name
        for vendor in VENDORS.values()
        if any(tolerates(t, frozenset({vendor.taint_key}), "") for t in tolerations)
        and any(runs_tool(c.spec, vendor.smi) for c in containers(spec))
    }
    return frozenset(found)


def driver_check(spec: Mapping[str, Any]) -> tuple[dict[str, str], frozenset[str]] | None:
    """A pod spec that is a driver check: its nodeSelector (the pool it checks) and the vendors
    whose driver it checks; None for any other spec."""
    selector = {str(k): str(v) for k, v in mapping(spec.get("nodeSelector")).items()}
    if not selector:
        return None
    vendors = checked_vendors(spec)
    return (selector, vendors) if vendors else None


def is_driver_check(resource_type: str, props: Mapping[str, Any]) -> bool:
    """A Job or CronJob whose pod spec is a driver check."""
    if kubernetes_kind(resource_type) not in CHECK_KINDS:
        return False
    spec = pod_spec(resource_type, props)
    return spec is not None and driver_check(spec) is not None
