"""Settings of the GPU layer: device plugin or GPU Operator, ACK sharing, driver checks,
admission."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StrictBool, StrictInt, model_validator

from gpu_facts.name_rules import DNS1123_LABEL
from gpu_facts.nvidia.device_plugin_chart import (
    DEFAULT_NAMESPACE,
    DEFAULT_VERSION,
    GPU_OPERATOR_DEFAULT_NAMESPACE,
)
from gpu_facts.nvidia.dra_driver_chart import DEFAULT_NAMESPACE as DRA_DEFAULT_NAMESPACE
from gpu_facts.nvidia.dra_driver_chart import DEFAULT_VERSION as DRA_DEFAULT_VERSION

from .base import DnsLabel, Quantity, SettingsModel, following, quantity_value


class ContainerResourcesSettings(SettingsModel):
    cpu: Quantity
    """CPU request."""
    memory: Quantity
    """Memory request."""
    memory_limit: Quantity | None = None
    """Memory limit, at least the request; unset: the chart's own (none for the plugin and
    GFD, 4Gi/512Mi/1Gi for the NFD master/worker/gc)."""

    @model_validator(mode="after")
    def _limit_covers_request(self) -> ContainerResourcesSettings:
        if self.memory_limit is not None and quantity_value(self.memory_limit) < quantity_value(
            self.memory
        ):
            raise ValueError(f"memoryLimit {self.memory_limit} is below memory {self.memory}")
        return self

    def as_values(self) -> dict[str, dict[str, str]]:
        """As a chart's ``resources`` value. Without a limit the chart's own stays: Helm merges
        values over the chart's defaults, and the null that would drop one never reaches Helm
        (Pulumi's SDK and the Kubernetes provider drop null values)."""
        limits = {"limits": {"memory": self.memory_limit}} if self.memory_limit else {}
        return {"requests": {"cpu": self.cpu, "memory": self.memory}, **limits}


class GpuComponentResourcesSettings(SettingsModel):
    # Defaults built on first use (default_factory), not at import: an instance built here
    # would build the model's validator in every process that imports the settings.
    plugin: ContainerResourcesSettings = Field(
        default_factory=lambda: ContainerResourcesSettings(cpu="50m", memory="64Mi")
    )
    """The device plugin and GPU Feature Discovery containers (and the MPS control daemon's:
    chart 0.20 gives the three one ``resources`` value; its config-manager sidecars get none).
    No memory limit by default: an OOM kill of the plugin takes its GPUs off the node's
    allocatable, and the MPS daemon's container also holds the MPS server, whose restart
    crashes every MPS client on the node. The requests follow Kubernetes' former NVIDIA addon
    (50m CPU) and a resident size of about 25Mi reported for the plugin."""
    nfd_master: ContainerResourcesSettings = Field(
        default_factory=lambda: ContainerResourcesSettings(
            cpu="100m", memory="128Mi", memory_limit="4Gi"
        )
    )
    """NFD master (default: the NFD chart's own, node-feature-discovery 0.19.0 values.yaml)."""
    nfd_worker: ContainerResourcesSettings = Field(
        default_factory=lambda: ContainerResourcesSettings(
            cpu="5m", memory="64Mi", memory_limit="512Mi"
        )
    )
    """NFD worker, one per GPU node (default: the NFD chart's own)."""
    nfd_gc: ContainerResourcesSettings = Field(
        default_factory=lambda: ContainerResourcesSettings(
            cpu="10m", memory="128Mi", memory_limit="1Gi"
        )
    )
    """NFD garbage collector (default: the NFD chart's own)."""


class DevicePluginSettings(SettingsModel):
    enabled: StrictBool = True
    """Install the NVIDIA device plugin (off when the GPU Operator owns it)."""
    version: str = DEFAULT_VERSION
    """Chart version, 0.15.0 or newer."""
    gfd: StrictBool = True
    """GPU Feature Discovery from the same chart (needed for MPS and node labels); must stay on
    while the plugin is enabled (BP-14)."""
    namespace: DnsLabel = DEFAULT_NAMESPACE
    """Namespace of the release."""
    resources: GpuComponentResourcesSettings = Field(default_factory=GpuComponentResourcesSettings)
    """Requests (and memory limits) of the plugin, GFD and NFD pods."""
    values: dict[str, object] = Field(default_factory=dict)
    """Extra chart values, merged over ours."""


class GpuOperatorSettings(SettingsModel):
    enabled: StrictBool = False
    """Let the NVIDIA GPU Operator own drivers and the device plugin instead."""
    version: str = "v25.10.1"
    """GPU Operator chart version."""
    namespace: DnsLabel = GPU_OPERATOR_DEFAULT_NAMESPACE
    """Namespace of the release."""
    resources: GpuComponentResourcesSettings = Field(default_factory=GpuComponentResourcesSettings)
    """Requests (and memory limits) of the operator's device plugin and GFD (``plugin``) and
    of its NFD pods."""


class DraDriverSettings(SettingsModel):
    """NVIDIA's DRA driver for GPUs (chart ``nvidia-dra-driver-gpu``), installed when a GPU pool
    has ``allocation: dra``; its kubelet plugin runs on exactly those pools."""

    version: str = DRA_DEFAULT_VERSION
    """Chart version (pinned; default 25.12.0, the version the platform's values were read
    against)."""
    namespace: DnsLabel = DRA_DEFAULT_NAMESPACE
    """Namespace of the release (Pod Security ``privileged``: the kubelet plugin is)."""
    compute_domains: StrictBool = False
    """Also run the ComputeDomain side (multi-node NVLink, IMEX; GB200-class systems): its
    controller on CPU nodes and a second privileged container in each kubelet plugin. Off by
    default: nothing the platform's pools offer needs it."""


class AckGpuSharingSettings(SettingsModel):
    ai_installer_version: str | None = None
    """Chart version of ``ack-ai-installer``; required when a pool uses ACK GPU sharing."""
    mps_control_version: str | None = None
    """Chart version of ``ack-mps-control``; required when a pool uses ACK MPS (an unpinned
    chart would upgrade itself, and with it crash the running MPS clients)."""
    allow_mps_control_changes: StrictBool = False
    """Allow upgrading or removing ack-mps-control (disrupts running GPU apps: off-peak only)."""


def pinned_image(image: str) -> str:
    """BP-19: an image pinned to a tag other than ``latest``, or to a digest."""
    if "@" in image:
        if not re.fullmatch(r"[^@\s]+@sha256:[0-9a-f]{64}", image):
            raise ValueError("digest must be @sha256:<64 hex digits>")
        return image
    last = image.rsplit("/", 1)[-1]
    tag = last.rsplit(":", 1)[1] if ":" in last else ""
    if tag in ("", "latest"):
        raise ValueError("pin the image to a tag other than 'latest', or a digest (BP-19)")
    return image


MPS_CHECKS_SUFFIX = "-mps"
AMD_CHECKS_SUFFIX = "-amd"


class DriverCheckSettings(SettingsModel):
    min_driver_major: Annotated[StrictInt, Field(ge=400)] = 535
    """Lowest acceptable NVIDIA driver major version."""
    schedule: str | None = None
    """Cron schedule to repeat the driver check, as Kubernetes takes it (``0 6 * * *``,
    ``@daily``; ``plan.schedules``); unset: run once."""
    image: Annotated[str, AfterValidator(pinned_image)] = (
        "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04"
    )
    """Image of the check (pinned: BP-19)."""
    amd_image: Annotated[str, AfterValidator(pinned_image)] = (
        "docker.io/rocm/dev-ubuntu-22.04:6.4.1"
    )
    """Image of the AMD pools' check, with ``amd-smi`` (pinned: ROCm 6.4, whose ``amd-smi``
    reads the amdgpu 6.4 driver the operator installs)."""
    namespace: Annotated[
        str, Field(max_length=63 - len(MPS_CHECKS_SUFFIX)), following(DNS1123_LABEL)
    ] = "gpu-readiness"
    """Namespace of the check Jobs (Pod Security ``restricted``); the ACK MPS pools' checks
    use ``<namespace>-mps``, the AMD pools' ``<namespace>-amd``, so at most 59 characters. (The
    default keeps the name it had when the driver check was called readiness: a new name would
    replace deployed namespaces.)"""

    @property
    def mps_namespace(self) -> str:
        """Namespace of the ACK MPS pools' checks (Pod Security ``privileged``: hostIPC)."""
        return self.namespace + MPS_CHECKS_SUFFIX

    @property
    def amd_namespace(self) -> str:
        """Namespace of the AMD pools' checks (Pod Security ``baseline``: they run as root, the
        owner of AMD's device nodes; docs/amd.md)."""
        return self.namespace + AMD_CHECKS_SUFFIX


class AdmissionSettings(SettingsModel):
    action: Literal["Deny", "Warn", "Audit"] = "Deny"
    """What the in-cluster admission policy does with a violating pod."""
