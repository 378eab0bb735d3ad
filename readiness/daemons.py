"""Find the DaemonSet that serves a pool's GPUs, and its pod on a given node.

Chart facts: the device-plugin chart names its DaemonSets ``<fullname>``,
``<fullname>-gpu-feature-discovery`` and ``<fullname>-mps-control-daemon`` (fullname contains
the chart name); the GPU Operator names its plugin ``nvidia-device-plugin-daemonset``. ACK's
MPS control daemon is found by what it selects (``ack.node.gpu.schedule=mps``), not by name.
"""

from __future__ import annotations

from gpu_facts.device_plugin_chart import CHART_NAME, GFD_CHART_NAME
from gpu_facts.scheduling import ACK_GPU_SCHEDULE_LABEL

from .cluster import Obj

_NOT_THE_PLUGIN = (GFD_CHART_NAME, "mps-control-daemon")
# Sidecars the chart adds next to the plugin container when per-node configs are used.
_SIDECARS = ("config-manager",)


def name_of(obj: Obj) -> str:
    return str(obj.get("metadata", {}).get("name", "?"))


def is_device_plugin(ds: Obj) -> bool:
    name = name_of(ds)
    return CHART_NAME in name and not any(part in name for part in _NOT_THE_PLUGIN)


def _required_node_values(ds: Obj, key: str) -> set[str]:
    """Values the pod template requires for node label ``key`` (nodeSelector or affinity)."""
    spec = ds.get("spec", {}).get("template", {}).get("spec", {})
    values = set()
    selector = spec.get("nodeSelector") or {}
    if key in selector:
        values.add(selector[key])
    affinity = (spec.get("affinity") or {}).get("nodeAffinity") or {}
    required = affinity.get("requiredDuringSchedulingIgnoredDuringExecution") or {}
    for term in required.get("nodeSelectorTerms") or []:
        for expr in term.get("matchExpressions") or []:
            if expr.get("key") == key and expr.get("operator") == "In":
                values.update(expr.get("values") or [])
    return values


def is_ack_daemon(ds: Obj, schedule_mode: str) -> bool:
    """An ACK GPU-sharing DaemonSet that runs on nodes labelled with ``schedule_mode``."""
    return schedule_mode in _required_node_values(ds, ACK_GPU_SCHEDULE_LABEL)


def pods_by_node(ds: Obj, pods: list[Obj]) -> dict[str, Obj]:
    """The DaemonSet's pods (by owner UID) keyed by the node they run on."""
    uid = ds.get("metadata", {}).get("uid")
    out: dict[str, Obj] = {}
    for pod in pods:
        owners = pod.get("metadata", {}).get("ownerReferences") or []
        if any(o.get("kind") == "DaemonSet" and o.get("uid") == uid for o in owners):
            node = pod.get("spec", {}).get("nodeName")
            if node:
                out[node] = pod
    return out


def pod_problem(pod: Obj) -> str | None:
    """Why the pod is not ready, or None when it is."""
    status = pod.get("status", {})
    conditions = {c.get("type"): c for c in status.get("conditions") or []}
    if conditions.get("Ready", {}).get("status") == "True":
        return None
    for cs in status.get("containerStatuses") or []:
        if cs.get("ready"):
            continue
        state = cs.get("state") or {}
        waiting, terminated = state.get("waiting"), state.get("terminated")
        if waiting:
            return f"container {cs.get('name')} waiting: {waiting.get('reason', '?')}"
        if terminated:
            return f"container {cs.get('name')} terminated: {terminated.get('reason', '?')}"
        return f"container {cs.get('name')} not ready"
    return f"pod {status.get('phase', 'Unknown')}, not Ready"


def exec_container(pod: Obj) -> str | None:
    """The container to run nvidia-smi in: the first one that is not a config sidecar."""
    containers = [c.get("name") for c in pod.get("spec", {}).get("containers") or []]
    for name in containers:
        if name and not any(s in name for s in _SIDECARS):
            return str(name)
    return str(containers[0]) if containers else None
