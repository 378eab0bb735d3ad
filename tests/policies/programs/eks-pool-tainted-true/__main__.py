"""An EKS team's program: a GPU node group tainted ``nvidia.com/gpu=true:NoSchedule`` (a common
EKS convention), NVIDIA's dcgm-exporter chart and a training Deployment, both tolerating it with
``Equal "true"``.

Resources are declared with their real type tokens (``pulumi.CustomResource``), so no
pulumi-aws SDK is needed. Expected (docs/policies.md): the toleration passes; with the default
pack config ``gpu-node-pools-tainted`` reports the value (the device plugin chart's NFD worker
tolerates only ``present``); with ``policy-config.json`` (the team's value) nothing is reported.
The exporter's toleration is matched against the same taint (``gpu-pools-have-metrics-exporter``).
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "ml-training"

pulumi.CustomResource(
    "aws:eks/nodeGroup:NodeGroup",
    "gpu",
    {
        "clusterName": "team-eks",
        "nodeGroupName": "gpu",
        "nodeRoleArn": "arn:aws:iam::123456789012:role/eks-nodes",
        "subnetIds": ["subnet-0a", "subnet-0b"],
        "instanceTypes": ["g5.2xlarge"],
        "amiType": "AL2023_x86_64_NVIDIA",
        "taints": [{"key": "nvidia.com/gpu", "value": "true", "effect": "NO_SCHEDULE"}],
        "labels": {"accelerator": "nvidia"},
        "scalingConfig": {"desiredSize": 0, "minSize": 0, "maxSize": 4},
    },
)

TOLERATE_GPU_TRUE = {
    "key": "nvidia.com/gpu",
    "operator": "Equal",
    "value": "true",
    "effect": "NoSchedule",
}
# GPU metrics on the node group's nodes; the chart's own tolerations would keep it off them.
k8s.helm.v3.Release(
    "dcgm-exporter",
    chart="dcgm-exporter",
    version="4.8.2",
    namespace="gpu-metrics",
    repository_opts={"repo": "https://nvidia.github.io/dcgm-exporter/helm-charts"},
    values={
        "tolerations": [TOLERATE_GPU_TRUE],
        "nodeSelector": {"accelerator": "nvidia"},
        "serviceMonitor": {"enabled": False},
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
    spec={"hard": {"requests.nvidia.com/gpu": "4"}},
    opts=opts,
)
labels = {"app": "trainer"}
k8s.apps.v1.Deployment(
    "trainer",
    metadata={"name": "trainer", "namespace": NAMESPACE},
    spec={
        "selector": {"match_labels": labels},
        "template": {
            "metadata": {"labels": labels},
            "spec": {
                "node_selector": {"accelerator": "nvidia"},
                "tolerations": [{"key": "nvidia.com/gpu", "operator": "Equal", "value": "true"}],
                "containers": [
                    {
                        "name": "train",
                        "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                        "resources": {"limits": {"nvidia.com/gpu": "1"}},
                    }
                ],
            },
        },
    },
    opts=opts,
)
