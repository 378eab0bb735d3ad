"""A training team's namespace as the AKS guide separates workloads: ``gpu-training``, labelled
``workload: training``, with its deny-all NetworkPolicy and GPU quota, and a distributed
training Deployment in it.

The guide labels the GPU pods by type too (``workload: training``); as first written they carry
only their app label. Stack ``fixed`` (``labelPods: true``) adds the workload label.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "gpu-training"
labels = {"app": "bert-pretrain"}
if pulumi.Config().get_bool("labelPods"):
    labels["workload"] = "training"

namespace = k8s.core.v1.Namespace(
    "gpu-training", metadata={"name": NAMESPACE, "labels": {"workload": "training"}}
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
    spec={"hard": {"requests.nvidia.com/gpu": "8"}},
    opts=opts,
)
k8s.apps.v1.Deployment(
    "bert-pretrain",
    metadata={"name": "bert-pretrain", "namespace": NAMESPACE},
    spec={
        "replicas": 2,
        "selector": {"match_labels": {"app": "bert-pretrain"}},
        "template": {
            "metadata": {"labels": labels},
            "spec": {
                "tolerations": [
                    {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
                ],
                "containers": [
                    {
                        "name": "train",
                        "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                        "resources": {"limits": {"nvidia.com/gpu": 4}},
                    }
                ],
            },
        },
    },
    opts=opts,
)
