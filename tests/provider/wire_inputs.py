"""Inputs of every hosted component as another language sends them: camelCase property names
from the schema, every number a double (Pulumi's wire has no integers), nested objects, lists
and maps. Values are plain examples, shaped as our stacks' pools and clusters are."""

from typing import Any

A100_MIG: dict[str, Any] = {
    "name": "a100mig",
    "vmSize": "Standard_ND96asr_v4",
    "count": 1.0,
    "osDiskType": "Ephemeral",
    "maxPods": 110.0,
    "mig": {"profile": "MIG1g", "strategy": "mixed"},
    "upgrade": {"maxSurge": "1", "drainTimeoutMinutes": 120.0, "nodeSoakMinutes": 5.0},
}
T4_SHARED: dict[str, Any] = {
    "name": "t4",
    "vmSize": "Standard_NC4as_T4_v3",
    "osDiskType": "Ephemeral",
    "maxPods": 110.0,
    "autoscale": {"min": 0.0, "max": 3.0},
    "sharing": {"mode": "timeSlicing", "replicas": 4.0},
    "labels": {"team": "vision"},
}
A10_MPS: dict[str, Any] = {
    "name": "a10mps",
    "instanceType": "ecs.gn7i-c8g1.2xlarge",
    "autoscale": {"min": 0.0, "max": 2.0},
    "sharing": {"mode": "mps"},
}
H100_DRA: dict[str, Any] = {
    "name": "h100dra",
    "vmSize": "Standard_NC40ads_H100_v5",
    "autoscale": {"min": 0.0, "max": 2.0},
    "allocation": "dra",
}
MI300X: dict[str, Any] = {
    "name": "mi300x",
    "vmSize": "Standard_ND96isr_MI300X_v5",
    "count": 1.0,
    "osDiskType": "Ephemeral",
}
GENERAL: dict[str, Any] = {
    "name": "general",
    "vmSize": "Standard_D4ds_v5",
    "autoscale": {"min": 1.0, "max": 3.0},
    "osDiskType": "Ephemeral",
    "maxPods": 110.0,
}
RG = "rg-gpu-dev"
KUBERNETES_PROVIDER: dict[str, Any] = {
    # A resource reference as the wire carries it (Pulumi's special signature for resources).
    "4dabf18193072939515e22adb298388d": "5cf8f73096256a8f31e491e813e4eb8e",
    "urn": "urn:pulumi:test::consumer::pulumi:providers:kubernetes::gpu-dev",
    "id": "gpu-dev-provider",
}
GROUP_ID = "/subscriptions/0000/resourceGroups/rg-gpu-dev/providers"
CLUSTER_ID = f"{GROUP_ID}/Microsoft.ContainerService/managedClusters/gpu-dev"
MONITOR = f"{GROUP_ID}/Microsoft.Monitor"
INSIGHTS = f"{GROUP_ID}/Microsoft.OperationalInsights"

WIRE_INPUTS: dict[str, dict[str, Any]] = {
    "AksCluster": {
        "name": "gpu-dev",
        "location": "westeurope",
        "resourceGroup": {"name": RG},
        "kubernetesVersion": "1.35",
        "systemPool": {"vmSize": "Standard_D4ds_v5", "count": 2.0, "maxPods": 110.0},
        "maintenanceWindow": {"day": "Saturday", "startHour": 2.0, "durationHours": 6.0},
        "apiServer": {"authorizedIpRanges": ["203.0.113.0/24"]},
        "monitoring": {"retentionDays": 30.0},
        "tags": {"environment": "dev"},
    },
    "AksGpuNodePool": {"clusterName": "gpu-dev", "resourceGroupName": RG, "pool": A100_MIG},
    "AksCpuNodePool": {"clusterName": "gpu-dev", "resourceGroupName": RG, "pool": GENERAL},
    "AksMonitoringWorkspaces": {
        "location": "westeurope",
        "resourceGroupName": RG,
        "retentionDays": 30.0,
    },
    "AksMonitoring": {
        "clusterId": CLUSTER_ID,
        "clusterName": "gpu-dev",
        "location": "westeurope",
        "resourceGroupName": RG,
        "azureMonitorWorkspaceId": f"{MONITOR}/accounts/amw-gpu-dev",
        "logAnalyticsWorkspaceId": f"{INSIGHTS}/workspaces/log-gpu-dev",
        "pools": [A100_MIG, T4_SHARED],
        "logNamespaces": ["gpu-training"],
    },
    "AksGrafana": {
        "name": "grafana-gpu-dev",
        "location": "westeurope",
        "resourceGroupName": RG,
        "azureMonitorWorkspaceId": f"{MONITOR}/accounts/amw-gpu-dev",
    },
    "NvmeCache": {
        "clusterName": "gpu-dev",
        "resourceGroupName": RG,
        "pools": [A100_MIG["name"]],
        "kubernetesProvider": KUBERNETES_PROVIDER,
    },
    "AckCluster": {
        "name": "gpu-ack-dev",
        "clusterSpec": "ack.pro.small",
        "vpc": {
            "cidr": "10.0.0.0/8",
            "vswitches": [{"zone": "cn-hangzhou-i", "cidr": "10.1.0.0/16"}],
            "podVswitches": [{"zone": "cn-hangzhou-i", "cidr": "10.11.0.0/16"}],
        },
        "serviceCidr": "172.21.0.0/20",
        "systemPool": {"instanceType": "ecs.g7.xlarge", "count": 2.0},
        "nodeSystemDisk": {"category": "cloud_essd", "sizeGib": 120.0},
        "maintenanceWindow": {"day": "Saturday", "startHour": 18.0, "durationHours": 6.0},
        "kubeconfigMinutes": 120.0,
    },
    "AckGpuNodePool": {"clusterId": "c0ffee", "vswitchIds": ["vsw-1"], "pool": A10_MPS},
    "AckCpuNodePool": {
        "clusterId": "c0ffee",
        "vswitchIds": ["vsw-1"],
        "pool": {"name": "general", "instanceType": "ecs.g7.xlarge", "count": 2.0},
    },
    "AckGpuSharing": {
        "pools": [A10_MPS],
        "aiInstallerVersion": "1.8.2",
        "mpsControlVersion": "0.2.0",
    },
    "AckMonitoring": {
        "clusterId": "c0ffee",
        "pools": [A10_MPS],
        "logs": False,
        "kubernetesProvider": KUBERNETES_PROVIDER,
    },
    "ExistingCluster": {"kubeconfig": "apiVersion: v1\nkind: Config\n", "clusterName": "lab"},
    "NvidiaDevicePlugin": {"pools": [A100_MIG, T4_SHARED], "cloud": "aks"},
    "NvidiaGpuOperator": {"pools": [A100_MIG, T4_SHARED], "cloud": "aks"},
    "NvidiaDraDriver": {
        "pools": [A100_MIG, T4_SHARED, H100_DRA],
        "cloud": "aks",
        "kubernetesVersion": "1.36",
    },
    "DriverCheck": {"pools": [A100_MIG, T4_SHARED], "cloud": "aks"},
    "DcgmExporter": {"pools": [A100_MIG, T4_SHARED], "cloud": "aks"},
    "GpuWorkloadNamespace": {
        "name": "gpu-training",
        "type": "training",
        "pools": [A100_MIG, T4_SHARED],
        "cloud": "aks",
        "gpuQuota": 8.0,
        "quota": {"cpu": "64", "memory": "512Gi", "pods": 100.0},
    },
    "GpuAdmissionPolicy": {"action": "Warn"},
    "AmdGpuOperator": {
        "pools": [MI300X],
        "cloud": "aks",
        "driver": {"version": "6.4", "image": "gpuamddev.azurecr.io/amd/amdgpu-kmod"},
    },
    "CertManager": {"cloud": "aks"},
    "GpuQueues": {
        "pools": [A100_MIG, T4_SHARED],
        "namespaces": [
            {"name": "gpu-training", "type": "training", "gpuQuota": 8.0},
            {
                "name": "gpu-inference",
                "type": "inference",
                "gpuQuotaPerResource": {"nvidia.com/gpu.shared": 4.0},
                "pools": [T4_SHARED["name"]],
            },
        ],
        "cloud": "aks",
        "types": {"inference": {"lendingLimitPercent": 50.0}},
        "scrape": "azureMonitor",
        "scraperNamespaces": ["kube-system"],
    },
}
"""Component class -> its inputs on the wire."""

CHILD_TYPES: dict[str, set[str]] = {
    "AksCluster": {"azure-native:containerservice:ManagedCluster"},
    "AksGpuNodePool": {"azure-native:containerservice:AgentPool"},
    "AksCpuNodePool": {"azure-native:containerservice:AgentPool"},
    "AksMonitoringWorkspaces": {"azure-native:operationalinsights:Workspace"},
    "AksMonitoring": {"azure-native:monitor:DataCollectionRule"},
    "AksGrafana": {"azure-native:dashboard:Grafana"},
    "NvmeCache": {"azure-native:kubernetesconfiguration:Extension"},
    "AckCluster": {"alicloud:cs/managedKubernetes:ManagedKubernetes"},
    "AckGpuNodePool": {"alicloud:cs/nodePool:NodePool"},
    "AckCpuNodePool": {"alicloud:cs/nodePool:NodePool"},
    "AckGpuSharing": {"kubernetes:helm.sh/v3:Release"},
    "AckMonitoring": {"alicloud:cs/kubernetesAddon:KubernetesAddon"},
    "ExistingCluster": {"pulumi:providers:kubernetes"},
    "NvidiaDevicePlugin": {"kubernetes:helm.sh/v3:Release"},
    "NvidiaGpuOperator": {"kubernetes:helm.sh/v3:Release"},
    "NvidiaDraDriver": {"kubernetes:helm.sh/v3:Release", "kubernetes:core/v1:Namespace"},
    "DriverCheck": {"kubernetes:batch/v1:Job"},
    "DcgmExporter": {"kubernetes:helm.sh/v3:Release"},
    "GpuWorkloadNamespace": {"kubernetes:core/v1:Namespace", "kubernetes:core/v1:ResourceQuota"},
    "GpuAdmissionPolicy": {"kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy"},
    "AmdGpuOperator": {"kubernetes:helm.sh/v3:Release", "kubernetes:amd.com/v1alpha1:DeviceConfig"},
    "CertManager": {"kubernetes:helm.sh/v3:Release"},
    "GpuQueues": {
        "kubernetes:helm.sh/v3:Release",
        "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor",
        "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue",
        "kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue",
    },
}
"""Component class -> child resource types its construction must register (at least)."""
