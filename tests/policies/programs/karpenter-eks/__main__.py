"""An EKS team's program with Karpenter: the cluster and a CPU node group for the system pods
(pulumi-aws, by their real type tokens), an ``EC2NodeClass`` and a GPU ``NodePool`` that lets
Karpenter start g5 and g6 instances, NVIDIA's dcgm-exporter, and an inference Deployment that
picks the NodePool's nodes by Karpenter's ``karpenter.sh/nodepool`` label.

As first written the NodePool's nodes come up untainted, so any pod may take them; stack
``fixed`` (``taintGpuNodes: true``) adds the ``nvidia.com/gpu`` taint. The Deployment tolerates
it either way.
"""

import pulumi
import pulumi_kubernetes as k8s

config = pulumi.Config()
NAMESPACE = "inference"
TOLERATE_GPU = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]

cluster = pulumi.CustomResource(
    "aws:eks/cluster:Cluster",
    "ml",
    {
        "name": "ml",
        "roleArn": "arn:aws:iam::123456789012:role/eks-cluster",
        "vpcConfig": {"subnetIds": ["subnet-0a", "subnet-0b"]},
    },
)
pulumi.CustomResource(
    "aws:eks/nodeGroup:NodeGroup",
    "system",
    {
        "clusterName": "ml",
        "nodeGroupName": "system",
        "nodeRoleArn": "arn:aws:iam::123456789012:role/eks-nodes",
        "subnetIds": ["subnet-0a", "subnet-0b"],
        "instanceTypes": ["m6i.large"],
        "scalingConfig": {"desiredSize": 2, "minSize": 2, "maxSize": 3},
    },
    opts=pulumi.ResourceOptions(depends_on=[cluster]),
)

k8s.apiextensions.CustomResource(
    "gpu-class",
    api_version="karpenter.k8s.aws/v1",
    kind="EC2NodeClass",
    metadata={"name": "gpu"},
    spec={
        "role": "KarpenterNodeRole-ml",
        "amiSelectorTerms": [{"alias": "al2023@latest"}],
        "subnetSelectorTerms": [{"tags": {"karpenter.sh/discovery": "ml"}}],
        "securityGroupSelectorTerms": [{"tags": {"karpenter.sh/discovery": "ml"}}],
    },
)
k8s.apiextensions.CustomResource(
    "gpu-pool",
    api_version="karpenter.sh/v1",
    kind="NodePool",
    metadata={"name": "gpu"},
    spec={
        "template": {
            "spec": {
                "nodeClassRef": {
                    "group": "karpenter.k8s.aws",
                    "kind": "EC2NodeClass",
                    "name": "gpu",
                },
                "requirements": [
                    {
                        "key": "karpenter.k8s.aws/instance-family",
                        "operator": "In",
                        "values": ["g5", "g6"],
                    },
                    {
                        "key": "karpenter.sh/capacity-type",
                        "operator": "In",
                        "values": ["on-demand"],
                    },
                ],
                "taints": (
                    [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]
                    if config.get_bool("taintGpuNodes")
                    else []
                ),
            }
        },
        "limits": {"nvidia.com/gpu": 8},
        "disruption": {"consolidationPolicy": "WhenEmpty", "consolidateAfter": "10m"},
    },
)

k8s.helm.v3.Release(
    "dcgm-exporter",
    chart="dcgm-exporter",
    version="4.8.2",
    namespace="gpu-metrics",
    repository_opts={"repo": "https://nvidia.github.io/dcgm-exporter/helm-charts"},
    values={"tolerations": TOLERATE_GPU, "serviceMonitor": {"enabled": False}},
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
    spec={"hard": {"requests.nvidia.com/gpu": "4"}},
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
                "node_selector": {"karpenter.sh/nodepool": "gpu"},
                "tolerations": TOLERATE_GPU,
                "containers": [
                    {
                        "name": "tei",
                        "image": "ghcr.io/huggingface/text-embeddings-inference:1.5",
                        "resources": {"limits": {"nvidia.com/gpu": 1}},
                    }
                ],
            },
        },
    },
    opts=opts,
)
