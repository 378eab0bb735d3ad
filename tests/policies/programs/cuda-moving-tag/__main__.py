"""An inference server on a CUDA image whose tag names no version
(``ghcr.io/ggerganov/llama.cpp:server-cuda``): every push moves it to another CUDA build.
Everything else follows the practices, so the only verdict is the advisory for the tag.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "llm"

namespace = k8s.core.v1.Namespace(
    "ns", metadata={"name": NAMESPACE, "labels": {"workload": "inference"}}
)
opts = pulumi.ResourceOptions(depends_on=[namespace])
k8s.networking.v1.NetworkPolicy(
    "deny-all",
    metadata={"name": "deny-all", "namespace": NAMESPACE},
    spec={"pod_selector": {}, "policy_types": ["Ingress", "Egress"]},
    opts=opts,
)
k8s.core.v1.ResourceQuota(
    "gpu-quota",
    metadata={"name": "gpu-quota", "namespace": NAMESPACE},
    spec={"hard": {"requests.nvidia.com/gpu": "2"}},
    opts=opts,
)
labels = {"app": "llama", "workload": "inference"}
k8s.apps.v1.Deployment(
    "llama",
    metadata={"name": "llama", "namespace": NAMESPACE},
    spec={
        "selector": {"match_labels": labels},
        "template": {
            "metadata": {"labels": labels},
            "spec": {
                "tolerations": [
                    {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
                ],
                "containers": [
                    {
                        "name": "server",
                        "image": "ghcr.io/ggerganov/llama.cpp:server-cuda",
                        "args": ["--model", "/models/model.gguf", "--n-gpu-layers", "99"],
                        "resources": {"limits": {"nvidia.com/gpu": "1"}},
                    }
                ],
            },
        },
    },
    opts=opts,
)
