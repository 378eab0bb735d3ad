"""What a driver check is (BP-05): a Job or CronJob that runs ``nvidia-smi`` on one pool's nodes.

Shared by the driver-check policy and the GPU-namespace policies (a check is not a workload:
its namespace needs no GPU quota of its own).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpu_facts.scheduling import GPU_TAINT_KEY

from .pod_specs import containers, kubernetes_kind, pod_spec
from .props import items, mapping, mappings
from .tolerations import tolerates

DRIVER_CHECK_TOOL = "nvidia-smi"
"""The tool that talks to the driver: the practice confirms the driver version with it."""
CHECK_KINDS = frozenset({"Job", "CronJob"})


def runs_tool(container: Mapping[str, Any]) -> bool:
    return any(
        isinstance(word, str) and DRIVER_CHECK_TOOL in word
        for key in ("command", "args")
        for word in items(container.get(key))
    )


def check_selector(spec: Mapping[str, Any]) -> dict[str, str] | None:
    """The nodeSelector of a pod spec that is a driver check, else None."""
    selector = {str(k): str(v) for k, v in mapping(spec.get("nodeSelector")).items()}
    if not selector:
        return None
    # Any value: the pool's taint may be "present" or a team's "true"; the toleration policy
    # judges which.
    keys = frozenset({GPU_TAINT_KEY})
    if not any(tolerates(t, keys, "") for t in mappings(spec.get("tolerations"))):
        return None
    if not any(runs_tool(c.spec) for c in containers(spec)):
        return None
    return selector


def is_driver_check(resource_type: str, props: Mapping[str, Any]) -> bool:
    """A Job or CronJob whose pod spec is a driver check."""
    if kubernetes_kind(resource_type) not in CHECK_KINDS:
        return False
    spec = pod_spec(resource_type, props)
    return spec is not None and check_selector(spec) is not None
