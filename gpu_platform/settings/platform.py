"""The whole stack config: one cloud, its cluster, GPU pools, the GPU layer and workloads."""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import Field, TypeAdapter, ValidationInfo, field_validator

from .ack import AckGpuPoolSettings
from .aks import AksGpuPoolSettings
from .amd import AmdGpuOperatorSettings
from .base import Cloud, SettingsModel
from .clusters import (
    AckClusterSettings,
    AksClusterSettings,
    ClusterSettings,
    ExistingClusterSettings,
)
from .existing import ExistingGpuPoolSettings
from .gpu_layer import (
    AckGpuSharingSettings,
    AdmissionSettings,
    DevicePluginSettings,
    DraDriverSettings,
    DriverCheckSettings,
    GpuOperatorSettings,
)
from .observability import ObservabilitySettings
from .pools import CpuPoolSettings
from .queues import QueuesSettings
from .workloads import WorkloadSettings

CLUSTER_SETTINGS: dict[str, type[SettingsModel]] = {
    "aks": AksClusterSettings,
    "ack": AckClusterSettings,
    "existing": ExistingClusterSettings,
}
"""The cluster model of each cloud."""

GpuPoolSettings = AksGpuPoolSettings | AckGpuPoolSettings | ExistingGpuPoolSettings
"""A GPU pool of one cloud; the top-level ``cloud`` key picks the model."""
GPU_POOL_SETTINGS: dict[str, type[GpuPoolSettings]] = {
    "aks": AksGpuPoolSettings,
    "ack": AckGpuPoolSettings,
    "existing": ExistingGpuPoolSettings,
}
"""The GPU pool model of each cloud."""


@cache
def _pool_list(model: type[GpuPoolSettings]) -> TypeAdapter[list[GpuPoolSettings]]:
    return TypeAdapter(list[model])  # type: ignore[valid-type]


def gpu_pool_settings(cloud: str, value: Any) -> GpuPoolSettings:
    """``value`` validated as a GPU pool of ``cloud`` (raises pydantic's ``ValidationError``)."""
    return GPU_POOL_SETTINGS[cloud].model_validate(value)


class PlatformSettings(SettingsModel):
    cloud: Cloud
    """Where the cluster lives."""
    cluster: ClusterSettings
    """Cluster settings for that cloud."""
    gpu_pools: list[GpuPoolSettings] = Field(default_factory=list)
    """GPU node pools."""
    cpu_pools: list[CpuPoolSettings] = Field(default_factory=list)
    """CPU node pools without taints, for pods that need no GPU (ingress, data loaders,
    Prometheus): AKS and ACK only."""
    device_plugin: DevicePluginSettings = Field(default_factory=DevicePluginSettings)
    """NVIDIA device plugin and GFD."""
    gpu_operator: GpuOperatorSettings = Field(default_factory=GpuOperatorSettings)
    """NVIDIA GPU Operator (alternative owner of drivers and the plugin)."""
    dra_driver: DraDriverSettings = Field(default_factory=DraDriverSettings)
    """NVIDIA's DRA driver, for GPU pools with ``allocation: dra``."""
    amd_gpu_operator: AmdGpuOperatorSettings = Field(default_factory=AmdGpuOperatorSettings)
    """AMD's GPU Operator, for GPU pools with an AMD size (driver, device plugin, exporter)."""
    ack_gpu_sharing: AckGpuSharingSettings = Field(default_factory=AckGpuSharingSettings)
    """ACK GPU sharing components (cloud ack)."""
    workloads: list[WorkloadSettings] = Field(default_factory=list)
    """GPU workload namespaces."""
    admission: AdmissionSettings = Field(default_factory=AdmissionSettings)
    """In-cluster admission policy."""
    queues: QueuesSettings | None = None
    """Kueue queues per workload type, sharing GPUs in a cohort; unset: no queues, the
    ResourceQuotas alone (``queues: {}`` takes the documented defaults: docs/queues.md)."""
    driver_check: DriverCheckSettings = Field(default_factory=DriverCheckSettings)
    """The driver check of every GPU pool after deployment (``readiness`` before; the stack
    config still accepts that key)."""
    observability: ObservabilitySettings = Field(default_factory=ObservabilitySettings)
    """GPU metrics per workload, container logs and control-plane audit."""

    @field_validator("gpu_pools", mode="before")
    @classmethod
    def _pools_of_cloud(cls, value: Any, info: ValidationInfo) -> Any:
        """The cloud picks the GPU pools' model too (a bad cloud is reported once, there)."""
        model = GPU_POOL_SETTINGS.get(info.data.get("cloud", ""))
        if model is None or not isinstance(value, list):
            return value
        return _pool_list(model).validate_python(value)  # errors keep each pool's index

    @field_validator("cluster", mode="before")
    @classmethod
    def _cluster_of_cloud(cls, value: Any, info: ValidationInfo) -> Any:
        """The cloud is said once, at the top: it picks the cluster model."""
        model = CLUSTER_SETTINGS.get(info.data.get("cloud", ""))
        if model is None:
            raise ValueError(
                "cluster settings follow cloud: set cloud to one of aks, ack, existing"
            )
        return model.model_validate(value)
