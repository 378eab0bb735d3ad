"""A team that runs NVIDIA's MPS control daemon itself, as a DaemonSet on its MPS nodes,
privileged with the host's IPC and PID namespaces as the daemon needs.

As first written the daemon's pods have no priority class: under memory pressure the node may
evict one, and every MPS client on that node fails. Stack ``fixed`` sets
``priorityClassName: system-node-critical``, as ACK's ``ack-mps-control`` does.
"""

import pulumi
import pulumi_kubernetes as k8s

priority = pulumi.Config().get("priorityClassName")
labels = {"app": "mps-control-daemon"}
pod: dict[str, object] = {
    "host_ipc": True,
    "host_pid": True,
    "node_selector": {"ack.node.gpu.schedule": "mps"},
    "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
    "containers": [
        {
            "name": "mps-control",
            "image": "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04",
            "command": ["/bin/sh", "-c", "nvidia-cuda-mps-control -d && sleep infinity"],
            "security_context": {"privileged": True},
        }
    ],
}
if priority:
    pod["priority_class_name"] = priority
k8s.apps.v1.DaemonSet(
    "mps-control",
    metadata={"name": "mps-control", "namespace": "kube-system"},
    spec={
        "selector": {"match_labels": labels},
        "template": {"metadata": {"labels": labels}, "spec": pod},
    },
)
