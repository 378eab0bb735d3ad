"""An AKS team's KAITO program: a preset ``Workspace`` serving phi-4 on an A100 node that node
auto-provisioning brings, and an ``InferenceSet`` of three Workspaces running the team's own
vLLM pod template, in its ``llm`` namespace.

KAITO (the cluster's ``workspace`` chart, installed by the platform team) makes a StatefulSet of
GPU pods from each Workspace, in the Workspace's namespace, and gives them the GPU toleration
itself. As first written the namespace has no deny-all NetworkPolicy and no GPU quota; stack
``fixed`` (``governNamespace: true``) adds both. The cluster's KAITO version is not in this
program: ``policy-config.json`` names it.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "llm"
config = pulumi.Config()

namespace = k8s.core.v1.Namespace(
    "llm", metadata={"name": NAMESPACE, "labels": {"workload": "inference"}}
)
opts = pulumi.ResourceOptions(depends_on=[namespace])
if config.get_bool("governNamespace"):
    k8s.networking.v1.NetworkPolicy(
        "default-deny",
        metadata={"name": "default-deny", "namespace": NAMESPACE},
        spec={"pod_selector": {}, "policy_types": ["Ingress", "Egress"]},
        opts=opts,
    )
    k8s.core.v1.ResourceQuota(
        "gpus",
        metadata={"name": "gpus", "namespace": NAMESPACE},
        spec={"hard": {"requests.nvidia.com/gpu": "4"}},
        opts=opts,
    )

# A preset: KAITO's own image and command, the GPUs of the instance type. A Workspace has no
# ``spec`` (``resource`` and ``inference`` sit at its root), which apiextensions.CustomResource
# cannot write: the object goes through yaml/v2, as it is written.
workspace = {
    "apiVersion": "kaito.sh/v1beta1",
    "kind": "Workspace",
    "metadata": {"name": "phi-4", "namespace": NAMESPACE},
    "resource": {
        "instanceType": "Standard_NC24ads_A100_v4",
        "labelSelector": {"matchLabels": {"apps": "phi-4"}},
    },
    "inference": {"preset": {"name": "phi-4-mini-instruct"}},
}
k8s.yaml.v2.ConfigGroup("phi-4", objs=[workspace], opts=opts)

# The team's own server: its template, with KAITO's tolerations and node affinity added.
vllm = {
    "metadata": {"labels": {"app": "qwen", "workload": "inference"}},
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
        "replicas": 3,
        "labelSelector": {"matchLabels": {"apps": "qwen"}},
        "template": {
            "resource": {"instanceType": "Standard_NC24ads_A100_v4"},
            "inference": {"template": vllm},
        },
    },
    opts=opts,
)
