"""Reusable Pulumi ComponentResources for GPU-ready Kubernetes: ``gpu_platform.components``.

Every public component and its args type load lazily, from the module that defines them, so a
program importing one ACK component never imports azure-native (nor an AKS one alicloud):
``from gpu_platform.components import AksGpuNodePool`` imports ``aks_gpu_node_pool`` alone.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below resolve to, for type checkers
    from .ack_cluster import (
        AckCluster,
        AckClusterArgs,
        AckMaintenanceWindowArgs,
        AckSystemPoolArgs,
        AckVpcArgs,
        AckVSwitchArgs,
    )
    from .ack_cpu_node_pool import AckCpuNodePool, AckCpuNodePoolArgs
    from .ack_gpu_node_pool import AckGpuNodePool, AckGpuNodePoolArgs
    from .ack_gpu_sharing import AckGpuSharing, AckGpuSharingArgs
    from .ack_monitoring import AckMonitoring, AckMonitoringArgs
    from .aks_cluster import (
        AksApiServerArgs,
        AksCluster,
        AksClusterArgs,
        AksClusterMonitoringArgs,
        AksEntraIdArgs,
        AksMaintenanceWindowArgs,
        AksResourceGroupArgs,
        AksSystemPoolArgs,
    )
    from .aks_cpu_node_pool import AksCpuNodePool, AksCpuNodePoolArgs
    from .aks_gpu_node_pool import AksGpuNodePool, AksGpuNodePoolArgs
    from .aks_grafana import AksGrafana, AksGrafanaArgs
    from .aks_monitoring import (
        AksMonitoring,
        AksMonitoringArgs,
        AksMonitoringWorkspaces,
        AksMonitoringWorkspacesArgs,
    )
    from .amd_gpu_operator import AmdDriverArgs, AmdGpuOperator, AmdGpuOperatorArgs, AmdImagesArgs
    from .cert_manager import CertManager, CertManagerArgs
    from .driver_check import DriverCheck, DriverCheckArgs
    from .existing_cluster import ExistingCluster, ExistingClusterArgs
    from .gpu_admission_policy import GpuAdmissionPolicy, GpuAdmissionPolicyArgs
    from .gpu_metrics import DcgmExporter, DcgmExporterArgs
    from .gpu_operator import NvidiaGpuOperator, NvidiaGpuOperatorArgs
    from .gpu_queues import GpuQueueNamespaceArgs, GpuQueues, GpuQueuesArgs, GpuQueueTypeArgs
    from .gpu_workload_namespace import (
        GpuWorkloadComputeQuotaArgs,
        GpuWorkloadContainerDefaultsArgs,
        GpuWorkloadLoggingArgs,
        GpuWorkloadNamespace,
        GpuWorkloadNamespaceArgs,
        GpuWorkloadTrafficArgs,
    )
    from .node_hardening import AckSystemDiskArgs
    from .nvidia_device_plugin import (
        ContainerResourcesArgs,
        GpuComponentResourcesArgs,
        NvidiaDevicePlugin,
        NvidiaDevicePluginArgs,
    )
    from .nvme_cache import NvmeCache, NvmeCacheArgs
    from .platform import GpuPlatform
    from .pool_args import (
        AutoscaleArgs,
        CpuPoolArgs,
        GpuPoolArgs,
        MigArgs,
        SharingArgs,
        UpgradeArgs,
    )

_WHERE = {
    "AckCluster": "ack_cluster",
    "AckClusterArgs": "ack_cluster",
    "AckCpuNodePool": "ack_cpu_node_pool",
    "AckCpuNodePoolArgs": "ack_cpu_node_pool",
    "AckGpuNodePool": "ack_gpu_node_pool",
    "AckGpuNodePoolArgs": "ack_gpu_node_pool",
    "AckGpuSharing": "ack_gpu_sharing",
    "AckGpuSharingArgs": "ack_gpu_sharing",
    "AckMaintenanceWindowArgs": "ack_cluster",
    "AckMonitoring": "ack_monitoring",
    "AckMonitoringArgs": "ack_monitoring",
    "AckSystemDiskArgs": "node_hardening",
    "AckSystemPoolArgs": "ack_cluster",
    "AckVSwitchArgs": "ack_cluster",
    "AckVpcArgs": "ack_cluster",
    "AksApiServerArgs": "aks_cluster",
    "AksCluster": "aks_cluster",
    "AksClusterArgs": "aks_cluster",
    "AksClusterMonitoringArgs": "aks_cluster",
    "AksCpuNodePool": "aks_cpu_node_pool",
    "AksCpuNodePoolArgs": "aks_cpu_node_pool",
    "AksEntraIdArgs": "aks_cluster",
    "AksGpuNodePool": "aks_gpu_node_pool",
    "AksGpuNodePoolArgs": "aks_gpu_node_pool",
    "AksGrafana": "aks_grafana",
    "AksGrafanaArgs": "aks_grafana",
    "AksMaintenanceWindowArgs": "aks_cluster",
    "AksMonitoring": "aks_monitoring",
    "AksMonitoringArgs": "aks_monitoring",
    "AksMonitoringWorkspaces": "aks_monitoring",
    "AksMonitoringWorkspacesArgs": "aks_monitoring",
    "AksResourceGroupArgs": "aks_cluster",
    "AksSystemPoolArgs": "aks_cluster",
    "AmdDriverArgs": "amd_gpu_operator",
    "AmdGpuOperator": "amd_gpu_operator",
    "AmdGpuOperatorArgs": "amd_gpu_operator",
    "AmdImagesArgs": "amd_gpu_operator",
    "AutoscaleArgs": "pool_args",
    "CertManager": "cert_manager",
    "CertManagerArgs": "cert_manager",
    "ContainerResourcesArgs": "nvidia_device_plugin",
    "CpuPoolArgs": "pool_args",
    "DcgmExporter": "gpu_metrics",
    "DcgmExporterArgs": "gpu_metrics",
    "DriverCheck": "driver_check",
    "DriverCheckArgs": "driver_check",
    "ExistingCluster": "existing_cluster",
    "ExistingClusterArgs": "existing_cluster",
    "GpuAdmissionPolicy": "gpu_admission_policy",
    "GpuAdmissionPolicyArgs": "gpu_admission_policy",
    "GpuComponentResourcesArgs": "nvidia_device_plugin",
    "GpuPlatform": "platform",
    "GpuPoolArgs": "pool_args",
    "GpuQueueNamespaceArgs": "gpu_queues",
    "GpuQueueTypeArgs": "gpu_queues",
    "GpuQueues": "gpu_queues",
    "GpuQueuesArgs": "gpu_queues",
    "GpuWorkloadComputeQuotaArgs": "gpu_workload_namespace",
    "GpuWorkloadContainerDefaultsArgs": "gpu_workload_namespace",
    "GpuWorkloadLoggingArgs": "gpu_workload_namespace",
    "GpuWorkloadNamespace": "gpu_workload_namespace",
    "GpuWorkloadNamespaceArgs": "gpu_workload_namespace",
    "GpuWorkloadTrafficArgs": "gpu_workload_namespace",
    "MigArgs": "pool_args",
    "NvidiaDevicePlugin": "nvidia_device_plugin",
    "NvidiaDevicePluginArgs": "nvidia_device_plugin",
    "NvidiaGpuOperator": "gpu_operator",
    "NvidiaGpuOperatorArgs": "gpu_operator",
    "NvmeCache": "nvme_cache",
    "NvmeCacheArgs": "nvme_cache",
    "SharingArgs": "pool_args",
    "UpgradeArgs": "pool_args",
}
"""Public name -> the module of this package that defines it."""

__all__ = [
    "AckCluster",
    "AckClusterArgs",
    "AckCpuNodePool",
    "AckCpuNodePoolArgs",
    "AckGpuNodePool",
    "AckGpuNodePoolArgs",
    "AckGpuSharing",
    "AckGpuSharingArgs",
    "AckMaintenanceWindowArgs",
    "AckMonitoring",
    "AckMonitoringArgs",
    "AckSystemDiskArgs",
    "AckSystemPoolArgs",
    "AckVSwitchArgs",
    "AckVpcArgs",
    "AksApiServerArgs",
    "AksCluster",
    "AksClusterArgs",
    "AksClusterMonitoringArgs",
    "AksCpuNodePool",
    "AksCpuNodePoolArgs",
    "AksEntraIdArgs",
    "AksGpuNodePool",
    "AksGpuNodePoolArgs",
    "AksGrafana",
    "AksGrafanaArgs",
    "AksMaintenanceWindowArgs",
    "AksMonitoring",
    "AksMonitoringArgs",
    "AksMonitoringWorkspaces",
    "AksMonitoringWorkspacesArgs",
    "AksResourceGroupArgs",
    "AksSystemPoolArgs",
    "AmdDriverArgs",
    "AmdGpuOperator",
    "AmdGpuOperatorArgs",
    "AmdImagesArgs",
    "AutoscaleArgs",
    "CertManager",
    "CertManagerArgs",
    "ContainerResourcesArgs",
    "CpuPoolArgs",
    "DcgmExporter",
    "DcgmExporterArgs",
    "DriverCheck",
    "DriverCheckArgs",
    "ExistingCluster",
    "ExistingClusterArgs",
    "GpuAdmissionPolicy",
    "GpuAdmissionPolicyArgs",
    "GpuComponentResourcesArgs",
    "GpuPlatform",
    "GpuPoolArgs",
    "GpuQueueNamespaceArgs",
    "GpuQueueTypeArgs",
    "GpuQueues",
    "GpuQueuesArgs",
    "GpuWorkloadComputeQuotaArgs",
    "GpuWorkloadContainerDefaultsArgs",
    "GpuWorkloadLoggingArgs",
    "GpuWorkloadNamespace",
    "GpuWorkloadNamespaceArgs",
    "GpuWorkloadTrafficArgs",
    "MigArgs",
    "NvidiaDevicePlugin",
    "NvidiaDevicePluginArgs",
    "NvidiaGpuOperator",
    "NvidiaGpuOperatorArgs",
    "NvmeCache",
    "NvmeCacheArgs",
    "SharingArgs",
    "UpgradeArgs",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
