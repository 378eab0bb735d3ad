"""The NVIDIA device plugin deployed as the project's static manifest does it: a DaemonSet in
kube-system running ``nvcr.io/nvidia/k8s-device-plugin:v0.14.1``, no GPU Feature Discovery;
beside it, the GPU Operator's Helm release with its own device plugin (the default).
"""

import pulumi_kubernetes as k8s

labels = {"name": "nvidia-device-plugin-ds"}
k8s.apps.v1.DaemonSet(
    "nvidia-device-plugin",
    metadata={"name": "nvidia-device-plugin-daemonset", "namespace": "kube-system"},
    spec={
        "selector": {"match_labels": labels},
        "update_strategy": {"type": "RollingUpdate"},
        "template": {
            "metadata": {"labels": labels},
            "spec": {
                "tolerations": [
                    {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
                ],
                "priority_class_name": "system-node-critical",
                "containers": [
                    {
                        "name": "nvidia-device-plugin-ctr",
                        "image": "nvcr.io/nvidia/k8s-device-plugin:v0.14.1",
                        "env": [{"name": "FAIL_ON_INIT_ERROR", "value": "false"}],
                        "security_context": {
                            "allow_privilege_escalation": False,
                            "capabilities": {"drop": ["ALL"]},
                        },
                        "volume_mounts": [
                            {
                                "name": "device-plugin",
                                "mount_path": "/var/lib/kubelet/device-plugins",
                            }
                        ],
                    }
                ],
                "volumes": [
                    {
                        "name": "device-plugin",
                        "host_path": {"path": "/var/lib/kubelet/device-plugins"},
                    }
                ],
            },
        },
    },
)

k8s.helm.v3.Release(
    "gpu-operator",
    chart="gpu-operator",
    version="v24.9.0",
    namespace="gpu-operator",
    create_namespace=True,
    repository_opts={"repo": "https://helm.ngc.nvidia.com/nvidia"},
)
