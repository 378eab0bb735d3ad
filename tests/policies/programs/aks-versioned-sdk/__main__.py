"""A platform team's AKS written with azure-native local SDKs of an explicit API version (``pulumi
package add azure-native containerservice <version>``, whose types carry the version in their
token): a ``ManagedCluster`` and a MIG ``AgentPool`` of A100 nodes, with a driver check and
NVIDIA's dcgm-exporter.

As first written the SDKs are old ones, 2021-07-01: that API has no ``gpuInstanceProfile``, so
AKS makes the pool with whole GPUs, and a cluster without a node OS channel gets no
``NodeImage`` default (that came with 2023-06-01). Stack ``fixed`` (``apiVersion:
2025-08-01``) uses a current one. Resources are declared as the local SDK declares them
(``pulumi.CustomResource`` with the versioned token), so no such SDK is needed here.
"""

import pulumi
import pulumi_kubernetes as k8s

config = pulumi.Config()
VERSION = "v" + (config.get("apiVersion") or "2021-07-01").replace("-", "")
POOL = "a100mig1g"

cluster = pulumi.CustomResource(
    f"azure-native:containerservice/{VERSION}:ManagedCluster",
    "aks",
    {
        "resourceName": "aks-ml",
        "resourceGroupName": "rg-ml",
        "dnsPrefix": "aks-ml",
        "agentPoolProfiles": [
            {"name": "system", "mode": "System", "vmSize": "Standard_D4ds_v5", "count": 2}
        ],
        "networkProfile": {"networkPlugin": "azure", "networkPolicy": "calico"},
    },
)
pulumi.CustomResource(
    f"azure-native:containerservice/{VERSION}:AgentPool",
    POOL,
    {
        "agentPoolName": POOL,
        "resourceName": "aks-ml",
        "resourceGroupName": "rg-ml",
        "mode": "User",
        "vmSize": "Standard_ND96asr_v4",
        "count": 1,
        "gpuInstanceProfile": "MIG1g",
        "nodeTaints": ["nvidia.com/gpu=present:NoSchedule"],
        "nodeLabels": {"gpu-platform.io/pool": POOL},
    },
    opts=pulumi.ResourceOptions(depends_on=[cluster]),
)

TOLERATE_GPU = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
k8s.helm.v3.Release(
    "dcgm-exporter",
    chart="dcgm-exporter",
    version="4.8.2",
    namespace="gpu-metrics",
    repository_opts={"repo": "https://nvidia.github.io/dcgm-exporter/helm-charts"},
    values={"tolerations": TOLERATE_GPU, "serviceMonitor": {"enabled": False}},
)
k8s.batch.v1.Job(
    "driver-check",
    metadata={"name": f"driver-check-{POOL}", "namespace": "gpu-checks"},
    spec={
        "template": {
            "spec": {
                "restart_policy": "Never",
                "node_selector": {"gpu-platform.io/pool": POOL},
                "tolerations": TOLERATE_GPU,
                "containers": [
                    {
                        "name": "nvidia-smi",
                        "image": "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04",
                        "command": ["nvidia-smi"],
                        "resources": {"limits": {"nvidia.com/mig-1g.5gb": 1}},
                    }
                ],
            }
        }
    },
)
