"""An EKS team's program whose GPU node group was left untainted, with a GPU Deployment that
tolerates nothing: it schedules today, on the untainted nodes.

Both are wrong: the pool lets any pod take its GPU nodes (``gpu-node-pools-tainted``), and the
Deployment stays Pending the day the pool is tainted as it must be (``gpu-workloads-tolerate-
gpu-taint``: an untainted pool does not excuse a GPU pod). Resources are declared with their
real type tokens (``pulumi.CustomResource``), so no pulumi-aws SDK is needed.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "ml-inference"

pulumi.CustomResource(
    "aws:eks/nodeGroup:NodeGroup",
    "gpu",
    {
        "clusterName": "team-eks",
        "nodeGroupName": "gpu",
        "nodeRoleArn": "arn:aws:iam::123456789012:role/eks-nodes",
        "subnetIds": ["subnet-0a", "subnet-0b"],
        "instanceTypes": ["g6.xlarge"],
        "amiType": "AL2023_x86_64_NVIDIA",
        "labels": {"accelerator": "nvidia"},
        "scalingConfig": {"desiredSize": 0, "minSize": 0, "maxSize": 2},
    },
)
k8s.helm.v3.Release(
    "dcgm-exporter",
    chart="dcgm-exporter",
    version="4.8.2",
    namespace="gpu-metrics",
    repository_opts={"repo": "https://nvidia.github.io/dcgm-exporter/helm-charts"},
    values={"nodeSelector": {"accelerator": "nvidia"}, "serviceMonitor": {"enabled": False}},
)

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
labels = {"app": "embedder", "workload": "inference"}
k8s.apps.v1.Deployment(
    "embedder",
    metadata={"name": "embedder", "namespace": NAMESPACE},
    spec={
        "selector": {"match_labels": labels},
        "template": {
            "metadata": {"labels": labels},
            "spec": {
                "node_selector": {"accelerator": "nvidia"},
                "containers": [
                    {
                        "name": "tei",
                        "image": "ghcr.io/huggingface/text-embeddings-inference:1.5",
                        "resources": {"limits": {"nvidia.com/gpu": "1"}},
                    }
                ],
            },
        },
    },
    opts=opts,
)
