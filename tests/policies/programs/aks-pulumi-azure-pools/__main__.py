"""A platform team's AKS written with pulumi-azure, the classic azurerm-based provider: a
``KubernetesCluster`` with a CPU default pool, a GPU ``KubernetesClusterNodePool`` of T4 nodes
that autoscales from zero, and NVIDIA's dcgm-exporter on them.

As first written the GPU pool carries no ``nvidia.com/gpu`` taint, so any pod may take its
nodes; stack ``fixed`` (``taintGpuPool: true``) adds it. pulumi-azure's resources are declared
with their real type tokens and wire keys (``pulumi.CustomResource``: what the SDK's
``KubernetesCluster`` and ``KubernetesClusterNodePool`` send), so no pulumi-azure is needed.
The cluster sets no node OS channel: pulumi-azure's default is ``NodeImage``.
"""

import pulumi
import pulumi_kubernetes as k8s

config = pulumi.Config()

cluster = pulumi.CustomResource(
    "azure:containerservice/kubernetesCluster:KubernetesCluster",
    "aks",
    {
        "name": "aks-ml",
        "location": "westeurope",
        "resourceGroupName": "rg-ml",
        "dnsPrefix": "aks-ml",
        "defaultNodePool": {
            "name": "system",
            "vmSize": "Standard_D4ds_v5",
            "autoScalingEnabled": True,
            "minCount": 2,
            "maxCount": 4,
        },
        "networkProfile": {"networkPlugin": "azure", "networkPolicy": "cilium"},
        "identity": {"type": "SystemAssigned"},
    },
)
pulumi.CustomResource(
    "azure:containerservice/kubernetesClusterNodePool:KubernetesClusterNodePool",
    "t4",
    {
        "name": "t4",
        "kubernetesClusterId": cluster.id,
        "vmSize": "Standard_NC4as_T4_v3",
        "autoScalingEnabled": True,
        "minCount": 0,
        "maxCount": 3,
        "nodeLabels": {"accelerator": "nvidia-t4"},
        "nodeTaints": (
            ["nvidia.com/gpu=present:NoSchedule"] if config.get_bool("taintGpuPool") else []
        ),
    },
)
k8s.helm.v3.Release(
    "dcgm-exporter",
    chart="dcgm-exporter",
    version="4.8.2",
    namespace="gpu-metrics",
    repository_opts={"repo": "https://nvidia.github.io/dcgm-exporter/helm-charts"},
    values={
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
        "nodeSelector": {"accelerator": "nvidia-t4"},
        "serviceMonitor": {"enabled": False},
    },
)
