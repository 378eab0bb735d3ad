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
        NodeGpuArgs,
        SharingArgs,
        UpgradeArgs,
    )

_PUBLIC: dict[str, tuple[str, ...]] = {
    "ack.cluster": (
        "AckCluster",
        "AckClusterArgs",
        "AckMaintenanceWindowArgs",
        "AckSystemPoolArgs",
        "AckVSwitchArgs",
        "AckVpcArgs",
    ),
    "ack.cpu_node_pool": (
        "AckCpuNodePool",
        "AckCpuNodePoolArgs",
    ),
    "ack.gpu_node_pool": (
        "AckGpuNodePool",
        "AckGpuNodePoolArgs",
    ),
    "ack.gpu_sharing": (
        "AckGpuSharing",
        "AckGpuSharingArgs",
    ),
    "ack.monitoring": (
        "AckMonitoring",
        "AckMonitoringArgs",
    ),
    "aks.cluster": (
        "AksApiServerArgs",
        "AksCluster",
        "AksClusterArgs",
        "AksClusterMonitoringArgs",
        "AksEntraIdArgs",
        "AksMaintenanceWindowArgs",
        "AksResourceGroupArgs",
        "AksSystemPoolArgs",
    ),
    "aks.cpu_node_pool": (
        "AksCpuNodePool",
        "AksCpuNodePoolArgs",
    ),
    "aks.gpu_node_pool": (
        "AksGpuNodePool",
        "AksGpuNodePoolArgs",
    ),
    "aks.grafana": (
        "AksGrafana",
        "AksGrafanaArgs",
    ),
    "aks.monitoring": (
        "AksMonitoring",
        "AksMonitoringArgs",
        "AksMonitoringWorkspaces",
        "AksMonitoringWorkspacesArgs",
    ),
    "aks.nvme_cache": (
        "NvmeCache",
        "NvmeCacheArgs",
    ),
    "amd.gpu_operator": (
        "AmdDriverArgs",
        "AmdGpuOperator",
        "AmdGpuOperatorArgs",
        "AmdImagesArgs",
    ),
    "cert_manager": (
        "CertManager",
        "CertManagerArgs",
    ),
    "driver_check": (
        "DriverCheck",
        "DriverCheckArgs",
    ),
    "existing.cluster": (
        "ExistingCluster",
        "ExistingClusterArgs",
    ),
    "gpu_admission_policy": (
        "GpuAdmissionPolicy",
        "GpuAdmissionPolicyArgs",
    ),
    "gpu_queues": (
        "GpuQueueNamespaceArgs",
        "GpuQueueTypeArgs",
        "GpuQueues",
        "GpuQueuesArgs",
    ),
    "gpu_workload_namespace": (
        "GpuWorkloadComputeQuotaArgs",
        "GpuWorkloadContainerDefaultsArgs",
        "GpuWorkloadLoggingArgs",
        "GpuWorkloadNamespace",
        "GpuWorkloadNamespaceArgs",
        "GpuWorkloadTrafficArgs",
    ),
    "node_hardening": ("AckSystemDiskArgs",),
    "nvidia.dcgm_exporter": (
        "DcgmExporter",
        "DcgmExporterArgs",
    ),
    "nvidia.device_plugin": (
        "ContainerResourcesArgs",
        "GpuComponentResourcesArgs",
        "NvidiaDevicePlugin",
        "NvidiaDevicePluginArgs",
    ),
    "nvidia.dra_driver": (
        "NvidiaDraDriver",
        "NvidiaDraDriverArgs",
    ),
    "nvidia.gpu_operator": (
        "NvidiaGpuOperator",
        "NvidiaGpuOperatorArgs",
    ),
    "platform": ("GpuPlatform",),
    "pool_args": (
        "AutoscaleArgs",
        "CpuPoolArgs",
        "GpuPoolArgs",
        "MigArgs",
        "NodeGpuArgs",
        "SharingArgs",
        "UpgradeArgs",
    ),
}
"""Module of this package -> the public names it defines: the one list (``__all__`` and the
lazy look-up follow from it; ``tests/packaging/test_public_api.py`` holds it, and the imports
above for type checkers, to the modules' classes)."""

_WHERE = {name: module for module, names in _PUBLIC.items() for name in names}
"""Public name -> the module of this package that defines it."""

__all__ = sorted(_WHERE)  # noqa: PLE0605 (derived from _PUBLIC)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
