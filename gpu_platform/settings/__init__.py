"""The stack config's schema: what ``Pulumi.<stack>.yaml`` may say under ``gpu-platform:``.

Typed pydantic models, one ``*Settings`` class per section. Field names are snake_case in
Python and camelCase in YAML; every model forbids unknown keys and documents each field.
Cross-field rules live in ``stack_config.rules``, what the settings mean in ``plan``.
"""

from .ack import AckGpuPoolSettings
from .aks import AksGpuPoolSettings
from .amd import AmdDriverSettings, AmdGpuOperatorSettings, AmdImagesSettings, CertManagerSettings
from .base import FORMER_CLOUD_NAMES, MIN_KUBERNETES, SYSTEM_POOL_NAME, Cloud, SettingsModel
from .clusters import (
    AckClusterSettings,
    AckSystemDiskSettings,
    AckVpcSettings,
    AckVSwitchSettings,
    AksClusterSettings,
    ApiServerSettings,
    ClusterSettings,
    EntraIdSettings,
    ExistingClusterSettings,
    MaintenanceWindowSettings,
    ResourceGroupSettings,
    SystemPoolSettings,
)
from .existing import ExistingGpuPoolSettings, NodeGpuSettings
from .gpu_layer import (
    AckGpuSharingSettings,
    AdmissionSettings,
    ContainerResourcesSettings,
    DevicePluginSettings,
    DraDriverSettings,
    DriverCheckSettings,
    GpuComponentResourcesSettings,
    GpuOperatorSettings,
)
from .observability import GrafanaSettings, LogsSettings, MetricsSettings, ObservabilitySettings
from .platform import (
    CLUSTER_SETTINGS,
    GPU_POOL_SETTINGS,
    GpuPoolSettings,
    PlatformSettings,
    gpu_pool_settings,
)
from .pools import (
    DEFAULT_MAX_PODS,
    DEFAULT_OS_DISK_GIB,
    AksNodeSettings,
    AutoscaleSettings,
    CpuPoolSettings,
    GpuPoolSettingsBase,
    ManagedGpuPoolSettings,
    MigSettings,
    SharingSettings,
    UpgradeSettings,
)
from .queues import QueuesSettings, QueueTypeSettings
from .workloads import (
    ComputeQuotaSettings,
    ContainerDefaultsSettings,
    LoggingSettings,
    TrafficSettings,
    WorkloadSettings,
)

__all__ = [
    "CLUSTER_SETTINGS",
    "DEFAULT_MAX_PODS",
    "DEFAULT_OS_DISK_GIB",
    "FORMER_CLOUD_NAMES",
    "GPU_POOL_SETTINGS",
    "MIN_KUBERNETES",
    "SYSTEM_POOL_NAME",
    "AckClusterSettings",
    "AckGpuPoolSettings",
    "AckGpuSharingSettings",
    "AckSystemDiskSettings",
    "AckVSwitchSettings",
    "AckVpcSettings",
    "AdmissionSettings",
    "AksClusterSettings",
    "AksGpuPoolSettings",
    "AksNodeSettings",
    "AmdDriverSettings",
    "AmdGpuOperatorSettings",
    "AmdImagesSettings",
    "ApiServerSettings",
    "AutoscaleSettings",
    "CertManagerSettings",
    "Cloud",
    "ClusterSettings",
    "ComputeQuotaSettings",
    "ContainerDefaultsSettings",
    "ContainerResourcesSettings",
    "CpuPoolSettings",
    "DevicePluginSettings",
    "DraDriverSettings",
    "DriverCheckSettings",
    "EntraIdSettings",
    "ExistingClusterSettings",
    "ExistingGpuPoolSettings",
    "GpuComponentResourcesSettings",
    "GpuOperatorSettings",
    "GpuPoolSettings",
    "GpuPoolSettingsBase",
    "GrafanaSettings",
    "LoggingSettings",
    "LogsSettings",
    "MaintenanceWindowSettings",
    "ManagedGpuPoolSettings",
    "MetricsSettings",
    "MigSettings",
    "NodeGpuSettings",
    "ObservabilitySettings",
    "PlatformSettings",
    "QueueTypeSettings",
    "QueuesSettings",
    "ResourceGroupSettings",
    "SettingsModel",
    "SharingSettings",
    "SystemPoolSettings",
    "TrafficSettings",
    "UpgradeSettings",
    "WorkloadSettings",
    "gpu_pool_settings",
]
