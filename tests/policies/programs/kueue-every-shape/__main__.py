"""An EKS team's program that queues its GPU work with Kueue, on nodes Karpenter starts: a GPU
``NodePool`` of g5 and g6 instances (A10G or L4 GPUs, at most 8 GPUs in all), Kueue flavours that
pick its nodes by the GPU name Karpenter labels them with, a ClusterQueue and a LocalQueue in the
team's ``serving`` namespace, and GPU work of every shape the pack reads there: a NIMService
(NVIDIA's NIM operator), a KAITO InferenceSet, and a Helm v3 Release of the team's own chart.

As first written the ClusterQueue promises 16 GPUs of A10G nodes the pool caps at 8, gives quota
on a flavour of H100 nodes the pool never starts, and nothing in the namespace names the queue:
the NIMService's pods, which its operator gives no toleration, would take GPUs past the quota
and tolerate nothing; the Workspace serves a preset, whose pods carry KAITO's labels only; the
chart's Deployment carries no queue label. Stack ``fixed`` (``queueEverything: true``) promises
what the pool holds, drops the H100 flavour, names the queue in the NIMService's
``spec.labels``, the InferenceSet's template and the release's ``labels`` value, and needs no
toleration in the NIMService or the chart: Kueue adds the flavour's when it admits them.
"""

import pulumi
import pulumi_kubernetes as k8s

config = pulumi.Config()
FIXED = config.get_bool("queueEverything") or False
NAMESPACE = "serving"
QUEUE = "serving"
KUEUE = "kueue.x-k8s.io/v1beta2"
TOLERATE_GPU = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
GPU_NAME = "karpenter.k8s.aws/instance-gpu-name"
QUEUED = {"kueue.x-k8s.io/queue-name": QUEUE} if FIXED else {}

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
                    {"key": GPU_NAME, "operator": "In", "values": ["a10g", "l4"]},
                ],
                "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}],
            }
        },
        "limits": {"nvidia.com/gpu": 8},
    },
)
k8s.helm.v3.Release(
    "device-plugin",
    chart="nvidia-device-plugin",
    version="0.20.0",
    namespace="nvidia-device-plugin",
    repository_opts={"repo": "https://nvidia.github.io/k8s-device-plugin"},
    values={"gfd": {"enabled": True}},
)
k8s.helm.v3.Release(
    "dcgm-exporter",
    chart="dcgm-exporter",
    version="4.8.2",
    namespace="gpu-metrics",
    repository_opts={"repo": "https://nvidia.github.io/dcgm-exporter/helm-charts"},
    values={"tolerations": TOLERATE_GPU, "serviceMonitor": {"enabled": False}},
)


def flavor(gpu: str) -> None:
    k8s.apiextensions.CustomResource(
        f"flavor-{gpu}",
        api_version=KUEUE,
        kind="ResourceFlavor",
        metadata={"name": gpu},
        spec={"nodeLabels": {GPU_NAME: gpu}, "tolerations": TOLERATE_GPU},
    )


quotas = {"a10g": 4, "l4": 4} if FIXED else {"a10g": 16, "h100": 8}
for gpu in quotas:
    flavor(gpu)
k8s.apiextensions.CustomResource(
    "cq-serving",
    api_version=KUEUE,
    kind="ClusterQueue",
    metadata={"name": QUEUE},
    spec={
        "namespaceSelector": {},
        "resourceGroups": [
            {
                "coveredResources": ["nvidia.com/gpu"],
                "flavors": [
                    {"name": gpu, "resources": [{"name": "nvidia.com/gpu", "nominalQuota": n}]}
                    for gpu, n in quotas.items()
                ],
            }
        ],
    },
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
    spec={"hard": {"requests.nvidia.com/gpu": "8"}},
    opts=opts,
)
k8s.apiextensions.CustomResource(
    "lq-serving",
    api_version=KUEUE,
    kind="LocalQueue",
    metadata={"name": QUEUE, "namespace": NAMESPACE},
    spec={"clusterQueue": QUEUE},
    opts=opts,
)

# NVIDIA's NIM operator: a Deployment of the NIMService, with its spec.labels and no toleration.
k8s.apiextensions.CustomResource(
    "llama",
    api_version="apps.nvidia.com/v1alpha1",
    kind="NIMService",
    metadata={"name": "llama", "namespace": NAMESPACE},
    spec={
        "image": {"repository": "nvcr.io/nim/meta/llama-3.1-8b-instruct", "tag": "1.8.4"},
        "authSecret": "ngc-api-secret",
        "storage": {"pvc": {"name": "llama-model"}},
        "resources": {"limits": {"nvidia.com/gpu": 1}},
        "expose": {"service": {"type": "ClusterIP", "port": 8000}},
        "labels": {"workload": "inference", **QUEUED},
    },
    opts=opts,
)

# KAITO: first a preset (its pods carry KAITO's labels only), then the team's own template.
vllm = {
    "metadata": {"labels": {"app": "qwen", "workload": "inference", **QUEUED}},
    "spec": {
        "containers": [
            {
                "name": "vllm",
                "image": "vllm/vllm-openai:v0.6.3",
                "args": ["--model", "Qwen/Qwen2.5-7B-Instruct"],
                "resources": {"limits": {"nvidia.com/gpu": 1}},
            }
        ]
    },
}
k8s.apiextensions.CustomResource(
    "qwen",
    api_version="kaito.sh/v1beta1",
    kind="InferenceSet",
    metadata={"name": "qwen", "namespace": NAMESPACE},
    spec={
        "replicas": 2,
        "labelSelector": {"matchLabels": {"apps": "qwen"}},
        "template": {
            "resource": {"instanceType": "g5.xlarge"},
            "inference": {"template": vllm} if FIXED else {"preset": {"name": "qwen2.5-7b"}},
        },
    },
    opts=opts,
)

# The team's chart: labels on the Deployment through its values, no toleration of its own.
k8s.helm.v3.Release(
    "embedder",
    chart="../../../fixtures/charts/gpu-inference",
    namespace=NAMESPACE,
    values={
        "model": "BAAI/bge-large-en-v1.5",
        "podLabels": {"workload": "inference"},
        "labels": QUEUED,
        "smokeTest": {"enabled": False},
    },
    opts=opts,
)
