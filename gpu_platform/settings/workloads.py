"""WorkloadSettings namespace settings: GPU quota, pools, Pod Security, traffic, logging."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool

from .base import DnsLabel, PositiveWhole, Quantity, SettingsModel, WholeNumber


class TrafficSettings(SettingsModel):
    dns: StrictBool = True
    """Allow DNS egress to kube-system."""
    egress_cidrs: list[str] = Field(default_factory=list)
    """CIDRs pods may reach (a dataset store)."""
    egress_namespaces: list[DnsLabel] = Field(default_factory=list)
    """Namespaces pods may reach."""
    ingress_namespaces: list[DnsLabel] = Field(default_factory=list)
    """Namespaces that may reach the pods (an inference gateway)."""
    same_namespace: StrictBool = False
    """Allow traffic between pods of the namespace (distributed training workers)."""


class ComputeQuotaSettings(SettingsModel):
    cpu: Quantity = "64"
    """Total CPU requests."""
    memory: Quantity = "512Gi"
    """Total memory requests."""
    pods: PositiveWhole = 100
    """Most pods."""


class ContainerDefaultsSettings(SettingsModel):
    cpu: Quantity = "500m"
    """Default CPU request and limit."""
    memory: Quantity = "1Gi"
    """Default memory request and limit."""


class LoggingSettings(SettingsModel):
    labels: dict[str, str] = Field(default_factory=dict)
    """Namespace labels the cluster's log pipeline selects on."""
    annotations: dict[str, str] = Field(default_factory=dict)
    """Namespace annotations for the log/audit pipeline."""


class WorkloadSettings(SettingsModel):
    name: DnsLabel
    """Namespace name, e.g. ``gpu-training``."""
    type: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,30}$")]
    """``training``, ``inference`` or a custom type; becomes the ``workload`` label."""
    gpu_quota: WholeNumber | dict[str, WholeNumber]
    """GPU quota: one number for every GPU resource the namespace's pools expose, or a
    number per resource name."""
    pools: list[str] | None = None
    """GPU pools the namespace may use; unset: every pool that is not shared."""
    pod_security: Literal["privileged", "baseline", "restricted"] | None = None
    """Pod Security AdmissionSettings ``enforce`` level; unset: restricted for inference, privileged
    on ACK MPS pools (hostIPC; the admission policy enforces the rest of baseline), else
    baseline."""
    quota: ComputeQuotaSettings = Field(default_factory=ComputeQuotaSettings)
    """CPU, memory and pod quota."""
    defaults: ContainerDefaultsSettings = Field(default_factory=ContainerDefaultsSettings)
    """LimitRange defaults for containers that set none."""
    traffic: TrafficSettings = Field(default_factory=TrafficSettings)
    """TrafficSettings allowed past the deny-all NetworkPolicy."""
    logging: LoggingSettings = Field(default_factory=LoggingSettings)
    """Log/audit labels and annotations."""
