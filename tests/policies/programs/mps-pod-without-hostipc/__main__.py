"""An ACK MPS client that asks for 4 GiB of ``aliyun.com/gpu-mem`` but does not set
``hostIPC: true``: on an MPS node it cannot reach the MPS control daemon and never starts.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "mps-jobs"

namespace = k8s.core.v1.Namespace(
    "ns", metadata={"name": NAMESPACE, "labels": {"workload": "training"}}
)
opts = pulumi.ResourceOptions(depends_on=[namespace])
k8s.networking.v1.NetworkPolicy(
    "deny-all",
    metadata={"name": "deny-all", "namespace": NAMESPACE},
    spec={"pod_selector": {}, "policy_types": ["Ingress", "Egress"]},
    opts=opts,
)
k8s.core.v1.ResourceQuota(
    "gpu-mem-quota",
    metadata={"name": "gpu-mem-quota", "namespace": NAMESPACE},
    spec={"hard": {"requests.aliyun.com/gpu-mem": "48"}},
    opts=opts,
)
k8s.batch.v1.Job(
    "vector-add",
    metadata={"name": "vector-add", "namespace": NAMESPACE},
    spec={
        "template": {
            "metadata": {"labels": {"workload": "training"}},
            "spec": {
                "restart_policy": "Never",
                "tolerations": [
                    {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
                ],
                "containers": [
                    {
                        "name": "vector-add",
                        "image": "nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda12.5.0",
                        "resources": {"limits": {"aliyun.com/gpu-mem": "4"}},
                    }
                ],
            },
        }
    },
    opts=opts,
)
