"""An AKS team's program on node auto-provisioning (NAP): a ``ManagedCluster`` with
``nodeProvisioningProfile.mode: Auto`` (azure-native's default module, by its real token), an
``AKSNodeClass`` and a ``NodePool`` of A100 VMs for fine-tuning, NVIDIA's dcgm-exporter, and a
fine-tuning Job that picks the NodePool's nodes.

As first written the NodePool's nodes come up untainted; stack ``fixed`` (``taintGpuNodes:
true``) taints them ``nvidia.com/gpu``. AKS's default NodePools take the pods that tolerate
nothing. The Job tolerates the GPU taint either way.
"""

import pulumi
import pulumi_kubernetes as k8s

config = pulumi.Config()
NAMESPACE = "finetune"
TOLERATE_GPU = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]

pulumi.CustomResource(
    "azure-native:containerservice:ManagedCluster",
    "aks",
    {
        "resourceName": "aks-nap",
        "resourceGroupName": "rg-ml",
        "dnsPrefix": "aks-nap",
        "agentPoolProfiles": [
            {"name": "system", "mode": "System", "vmSize": "Standard_D4ds_v5", "count": 3}
        ],
        "nodeProvisioningProfile": {"mode": "Auto"},
        "networkProfile": {
            "networkPlugin": "azure",
            "networkPluginMode": "overlay",
            "networkDataplane": "cilium",
            "networkPolicy": "cilium",
        },
    },
)

k8s.apiextensions.CustomResource(
    "gpu-class",
    api_version="karpenter.azure.com/v1beta1",
    kind="AKSNodeClass",
    metadata={"name": "gpu"},
    spec={"imageFamily": "Ubuntu2204", "osDiskSizeGB": 256},
)
k8s.apiextensions.CustomResource(
    "gpu-pool",
    api_version="karpenter.sh/v1",
    kind="NodePool",
    metadata={"name": "a100"},
    spec={
        "template": {
            "metadata": {"labels": {"team": "finetune"}},
            "spec": {
                "nodeClassRef": {
                    "group": "karpenter.azure.com",
                    "kind": "AKSNodeClass",
                    "name": "gpu",
                },
                "requirements": [
                    {
                        "key": "karpenter.azure.com/sku-name",
                        "operator": "In",
                        "values": ["Standard_NC24ads_A100_v4"],
                    }
                ],
                "taints": (
                    [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]
                    if config.get_bool("taintGpuNodes")
                    else []
                ),
            },
        },
        "limits": {"nvidia.com/gpu": 4},
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
    "gpu-quota",
    metadata={"name": "gpu-quota", "namespace": NAMESPACE},
    spec={"hard": {"requests.nvidia.com/gpu": "4"}},
    opts=opts,
)
k8s.batch.v1.Job(
    "lora",
    metadata={"name": "lora", "namespace": NAMESPACE},
    spec={
        "template": {
            "metadata": {"labels": {"workload": "training"}},
            "spec": {
                "restart_policy": "Never",
                "node_selector": {"karpenter.sh/nodepool": "a100"},
                "tolerations": TOLERATE_GPU,
                "containers": [
                    {
                        "name": "train",
                        "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                        "command": ["torchrun", "/workspace/lora.py"],
                        "resources": {"limits": {"nvidia.com/gpu": 1}},
                    }
                ],
            },
        }
    },
    opts=opts,
)
