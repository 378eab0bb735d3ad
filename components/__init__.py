"""Reusable Pulumi ComponentResources for GPU-ready Kubernetes: ``gpu_platform.components``.

Every public component and its args type load lazily, from the module that defines them, so a
program importing one ACK component never imports azure-native (nor an AKS one alicloud):
``from gpu_platform.components import AksGpuNodePool`` imports ``aks.gpu_node_pool`` alone.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below resolve to, for type checkers
    from .ack.cluster import (
        AckCluster,
        AckClusterArgs,
        AckMaintenanceWindowArgs,
        AckSystemPoolArgs,
        AckVpcArgs,
        AckVSwitchArgs,
    )
    from .ack.cpu_node_pool import AckCpuNodePool, AckCpuNodePoolArgs
    from .ack.gpu_node_pool import AckGpuNodePool, AckGpuNodePoolArgs
    from .ack.gpu_sharing import AckGpuSharing, AckGpuSharingArgs
    from .ack.monitoring import AckMonitoring, AckMonitoringArgs
    from .aks.cluster import (
        AksApiServerArgs,
        AksCluster,
        AksClusterArgs,
        AksClusterMonitoringArgs,
        AksEntraIdArgs,
        AksMaintenanceWindowArgs,
        AksResourceGroupArgs,
        AksSystemPoolArgs,
    )
    from .aks.cpu_node_pool import AksCpuNodePool, AksCpuNodePoolArgs
    from .aks.gpu_node_pool import AksGpuNodePool, AksGpuNodePoolArgs
    from .aks.grafana import AksGrafana, AksGrafanaArgs
    from .aks.monitoring import (
        AksMonitoring,
        AksMonitoringArgs,
        AksMonitoringWorkspaces,
        AksMonitoringWorkspacesArgs,
    )
    from .aks.nvme_cache import NvmeCache, NvmeCacheArgs
    from .amd.gpu_operator import AmdDriverArgs, AmdGpuOperator, AmdGpuOperatorArgs, AmdImagesArgs
    from .cert_manager import CertManager, CertManagerArgs
    from .driver_check import DriverCheck, DriverCheckArgs
    from .existing.cluster import ExistingCluster, ExistingClusterArgs
    from .gpu_admission_policy import GpuAdmissionPolicy, GpuAdmissionPolicyArgs
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
    from .nvidia.dcgm_exporter import DcgmExporter, DcgmExporterArgs
    from .nvidia.device_plugin import (
        ContainerResourcesArgs,
        GpuComponentResourcesArgs,
        NvidiaDevicePlugin,
        NvidiaDevicePluginArgs,
    )
    from .nvidia.dra_driver import NvidiaDraDriver, NvidiaDraDriverArgs
    from .nvidia.gpu_operator import NvidiaGpuOperator, NvidiaGpuOperatorArgs
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
    "AckCluster": "ack.cluster",
    "AckClusterArgs": "ack.cluster",
    "AckCpuNodePool": "ack.cpu_node_pool",
    "AckCpuNodePoolArgs": "ack.cpu_node_pool",
    "AckGpuNodePool": "ack.gpu_node_pool",
    "AckGpuNodePoolArgs": "ack.gpu_node_pool",
    "AckGpuSharing": "ack.gpu_sharing",
    "AckGpuSharingArgs": "ack.gpu_sharing",
    "AckMaintenanceWindowArgs": "ack.cluster",
    "AckMonitoring": "ack.monitoring",
    "AckMonitoringArgs": "ack.monitoring",
    "AckSystemDiskArgs": "node_hardening",
    "AckSystemPoolArgs": "ack.cluster",
    "AckVSwitchArgs": "ack.cluster",
    "AckVpcArgs": "ack.cluster",
    "AksApiServerArgs": "aks.cluster",
    "AksCluster": "aks.cluster",
    "AksClusterArgs": "aks.cluster",
    "AksClusterMonitoringArgs": "aks.cluster",
    "AksCpuNodePool": "aks.cpu_node_pool",
    "AksCpuNodePoolArgs": "aks.cpu_node_pool",
    "AksEntraIdArgs": "aks.cluster",
    "AksGpuNodePool": "aks.gpu_node_pool",
    "AksGpuNodePoolArgs": "aks.gpu_node_pool",
    "AksGrafana": "aks.grafana",
    "AksGrafanaArgs": "aks.grafana",
    "AksMaintenanceWindowArgs": "aks.cluster",
    "AksMonitoring": "aks.monitoring",
    "AksMonitoringArgs": "aks.monitoring",
    "AksMonitoringWorkspaces": "aks.monitoring",
    "AksMonitoringWorkspacesArgs": "aks.monitoring",
    "AksResourceGroupArgs": "aks.cluster",
    "AksSystemPoolArgs": "aks.cluster",
    "AmdDriverArgs": "amd.gpu_operator",
    "AmdGpuOperator": "amd.gpu_operator",
    "AmdGpuOperatorArgs": "amd.gpu_operator",
    "AmdImagesArgs": "amd.gpu_operator",
    "AutoscaleArgs": "pool_args",
    "CertManager": "cert_manager",
    "CertManagerArgs": "cert_manager",
    "ContainerResourcesArgs": "nvidia.device_plugin",
    "CpuPoolArgs": "pool_args",
    "DcgmExporter": "nvidia.dcgm_exporter",
    "DcgmExporterArgs": "nvidia.dcgm_exporter",
    "DriverCheck": "driver_check",
    "DriverCheckArgs": "driver_check",
    "ExistingCluster": "existing.cluster",
    "ExistingClusterArgs": "existing.cluster",
    "GpuAdmissionPolicy": "gpu_admission_policy",
    "GpuAdmissionPolicyArgs": "gpu_admission_policy",
    "GpuComponentResourcesArgs": "nvidia.device_plugin",
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
    "NvidiaDevicePlugin": "nvidia.device_plugin",
    "NvidiaDevicePluginArgs": "nvidia.device_plugin",
    "NvidiaDraDriver": "nvidia.dra_driver",
    "NvidiaDraDriverArgs": "nvidia.dra_driver",
    "NvidiaGpuOperator": "nvidia.gpu_operator",
    "NvidiaGpuOperatorArgs": "nvidia.gpu_operator",
    "NvmeCache": "aks.nvme_cache",
    "NvmeCacheArgs": "aks.nvme_cache",
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
    "NvidiaDraDriver",
    "NvidiaDraDriverArgs",
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
