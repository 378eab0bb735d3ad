"""Find the DaemonSet that serves a pool's GPUs, and its pod on a given node.

Chart facts: the device-plugin chart names its DaemonSets ``<fullname>``,
``<fullname>-gpu-feature-discovery``, ``<fullname>-mps-control-daemon`` and (NFD subchart)
``<fullname>-node-feature-discovery-worker``; every one contains the chart name. The GPU
Operator names its plugin ``nvidia-device-plugin-daemonset``. ACK's MPS control daemon is found
by what it selects (``ack.node.gpu.schedule=mps``), not by name. The GPU metrics exporter's
DaemonSet carries ``dcgm-exporter`` in its name, from its chart or the GPU Operator.
"""

from __future__ import annotations

from collections.abc import Iterable

from gpu_facts.nvidia.dcgm_exporter_chart import IMAGE_NAME as EXPORTER_NAME
from gpu_facts.nvidia.device_plugin_chart import (
    CHART_NAME,
    GFD_CHART_NAME,
    MPS_CONTROL_DAEMON_SUFFIX,
    NFD_NAME,
)
from gpu_facts.scheduling import ACK_GPU_SCHEDULE_LABEL

from .cluster import Obj
from .objects import entries, mapping, name_of, text

# The chart's other DaemonSets carry the chart name too; their pods have no plugin in them, so
# taking one of them for the plugin's would report a missing plugin as Ready.
_NOT_THE_PLUGIN = (GFD_CHART_NAME, MPS_CONTROL_DAEMON_SUFFIX, NFD_NAME)
# Sidecars the chart adds next to the plugin (and MPS daemon) container when per-node configs are
# used: ``config-manager``, which 0.20.0 names ``<name>-sidecar`` and lists first
# (``daemonset-device-plugin.yml``, ``daemonset-mps-control-daemon.yml``).
_SIDECARS = ("config-manager", "sidecar")

DaemonPods = dict[str, dict[str, Obj]]
"""DaemonSet UID -> node name -> the DaemonSet's pod on that node."""


def uid_of(obj: Obj) -> str:
    return text(obj, "metadata", "uid")


def is_device_plugin(ds: Obj) -> bool:
    name = name_of(ds)
    return CHART_NAME in name and not any(part in name for part in _NOT_THE_PLUGIN)


def _required_node_values(ds: Obj, key: str) -> set[str]:
    """Values the pod template requires for node label ``key`` (nodeSelector or affinity)."""
    spec = mapping(ds, "spec", "template", "spec")
    values = set()
    selector = mapping(spec, "nodeSelector")
    if key in selector:
        values.add(str(selector[key]))
    required = mapping(
        spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"
    )
    for term in entries(required, "nodeSelectorTerms"):
        for expr in entries(term, "matchExpressions"):
            if expr.get("key") == key and expr.get("operator") == "In":
                listed = expr.get("values")
                if isinstance(listed, list):
                    values.update(str(v) for v in listed)
    return values


def is_exporter(ds: Obj) -> bool:
    """A dcgm-exporter DaemonSet: ours (the chart's ``<release>-dcgm-exporter`` or
    ``dcgm-exporter``) or the GPU Operator's ``nvidia-dcgm-exporter``."""
    return EXPORTER_NAME in name_of(ds)


def is_ack_daemon(ds: Obj, schedule_mode: str) -> bool:
    """An ACK GPU-sharing DaemonSet that runs on nodes labelled with ``schedule_mode``."""
    return schedule_mode in _required_node_values(ds, ACK_GPU_SCHEDULE_LABEL)


def is_mps_daemon_pod(pod: Obj) -> bool:
    """A pod of the device plugin's MPS control daemon: the chart's DaemonSet
    ``<fullname>-mps-control-daemon``, or the GPU Operator's
    ``nvidia-device-plugin-mps-control-daemon``."""
    return any(
        owner.get("kind") == "DaemonSet" and MPS_CONTROL_DAEMON_SUFFIX in text(owner, "name")
        for owner in entries(pod, "metadata", "ownerReferences")
    )


def daemon_pods(pods: Iterable[Obj]) -> DaemonPods:
    """Every DaemonSet-owned pod, by owner UID and node, in one pass over the pods.

    Looking up a node's pod is then a dict lookup, whatever the number of nodes and pods.
    Unscheduled pods (no ``nodeName``) are left out. When a DaemonSet has two pods on a node
    (one on its way out during a rolling update), a Ready one is kept.
    """
    out: DaemonPods = {}
    for pod in pods:
        node = text(pod, "spec", "nodeName")
        if not node:
            continue
        for owner in entries(pod, "metadata", "ownerReferences"):
            uid = text(owner, "uid")
            if owner.get("kind") != "DaemonSet" or not uid:
                continue
            on_node = out.setdefault(uid, {})
            kept = on_node.get(node)
            if kept is None or (pod_problem(kept) is not None and pod_problem(pod) is None):
                on_node[node] = pod
    return out


def pod_problem(pod: Obj) -> str | None:
    """Why the pod is not ready, or None when it is."""
    status = mapping(pod, "status")
    conditions = {text(c, "type"): c for c in entries(status, "conditions")}
    if text(conditions.get("Ready"), "status") == "True":
        return None
    for cs in entries(status, "containerStatuses"):
        if cs.get("ready") is True:
            continue
        name = text(cs, "name") or "?"
        waiting, terminated = mapping(cs, "state", "waiting"), mapping(cs, "state", "terminated")
        if waiting:
            return f"container {name} waiting: {text(waiting, 'reason') or '?'}"
        if terminated:
            return f"container {name} terminated: {text(terminated, 'reason') or '?'}"
        return f"container {name} not ready"
    return f"pod {text(status, 'phase') or 'Unknown'}, not Ready"


def exec_container(pod: Obj) -> str | None:
    """The container to run nvidia-smi in: the first one that is not a config sidecar (the
    chart's ``nvidia-device-plugin-ctr`` or ``mps-control-daemon-ctr``)."""
    containers = [text(c, "name") for c in entries(pod, "spec", "containers")]
    for name in containers:
        if name and not any(s in name for s in _SIDECARS):
            return name
    return containers[0] if containers and containers[0] else None
