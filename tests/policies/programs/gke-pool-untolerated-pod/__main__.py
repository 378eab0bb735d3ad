"""A GKE team's program: a node pool with one NVIDIA L4 per node and an inference Deployment
that asks for a GPU without a toleration. GKE taints GPU nodes ``nvidia.com/gpu=present`` and
its admission adds the matching toleration, so neither the pool nor the pod is a violation.
The pool has no GPU metrics exporter, though: an advisory.

The node pool uses its real type token (``pulumi.CustomResource``): no pulumi-gcp SDK needed.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "inference"

pulumi.CustomResource(
    "gcp:container/nodePool:NodePool",
    "l4",
    {
        "name": "l4",
        "cluster": "team-gke",
        "location": "europe-west4",
        "autoscaling": {"minNodeCount": 0, "maxNodeCount": 3},
        "nodeConfig": {
            "machineType": "g2-standard-8",
            "guestAccelerators": [
                {
                    "type": "nvidia-l4",
                    "count": 1,
                    "gpuDriverInstallationConfig": {"gpuDriverVersion": "LATEST"},
                }
            ],
        },
    },
)

namespace = k8s.core.v1.Namespace("ns", metadata={"name": NAMESPACE})
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
    spec={"hard": {"requests.nvidia.com/gpu": "3"}},
    opts=opts,
)
labels = {"app": "server"}
k8s.apps.v1.Deployment(
    "server",
    metadata={"name": "server", "namespace": NAMESPACE},
    spec={
        "selector": {"match_labels": labels},
        "template": {
            "metadata": {"labels": labels},
            "spec": {
                "node_selector": {"cloud.google.com/gke-accelerator": "nvidia-l4"},
                "containers": [
                    {
                        "name": "server",
                        "image": "vllm/vllm-openai:v0.6.3",
                        "resources": {"limits": {"nvidia.com/gpu": "1"}},
                    }
                ],
            },
        },
    },
    opts=opts,
)
