"""Settings of the AMD GPU layer: AMD's GPU Operator (driver through KMM, device plugin, node
labeller, metrics exporter) and the cert-manager it needs. Used only when a GPU pool has an AMD
size; docs/amd.md says what each setting does on AKS."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field, StrictBool

from gpu_facts import cert_manager_chart as cert_manager
from gpu_facts.amd import gpu_operator as amd

from .base import DnsLabel, SettingsModel
from .gpu_layer import pinned_image


def _repository(image: str) -> str:
    """A registry repository without tag or digest: the operator tags the driver image itself
    (``<os>-<kernel>-<driver version>``)."""
    last = image.rsplit("/", 1)[-1]
    if "@" in image or ":" in last or not re.fullmatch(r"[a-z0-9]+([._/:-][a-z0-9]+)*", image):
        raise ValueError(
            "a registry repository without a tag, e.g. myregistry.azurecr.io/amd/amdgpu-kmod "
            "(the operator tags the driver image per kernel and driver version)"
        )
    return image


class AmdDriverSettings(SettingsModel):
    """The amdgpu driver the operator builds and loads with KMM (AKS installs none)."""

    enabled: StrictBool = True
    """Let the operator install the driver. On AKS it must: AMD pools are created without one
    (``gpuProfile.driver: None``). ``false`` only for an existing cluster whose nodes have it."""
    version: str = amd.DEFAULT_DRIVER_VERSION
    """amdgpu driver version as the Radeon repository spells it (``6.4``, not ``6.4.0``)."""
    image: Annotated[str, AfterValidator(_repository)] | None = None
    """Registry repository (no tag) KMM pushes the built driver image to and nodes pull it from,
    e.g. an Azure Container Registry the cluster may pull from. Required while ``enabled``."""
    image_registry_secret: DnsLabel | None = None
    """Name of a docker-registry Secret in the operator's namespace with push and pull access to
    ``image`` (created outside the stack: it holds a credential)."""
    blacklist: StrictBool = True
    """Blacklist the node image's in-box amdgpu module so the built one loads (the AKS lab does;
    the operator needs a node reboot for it)."""


class AmdImagesSettings(SettingsModel):
    """The operands' images, each pinned (the chart's and operator's defaults say ``latest``)."""

    device_plugin: Annotated[str, AfterValidator(pinned_image)] = amd.DEVICE_PLUGIN_IMAGE
    node_labeller: Annotated[str, AfterValidator(pinned_image)] = amd.NODE_LABELLER_IMAGE
    metrics_exporter: Annotated[str, AfterValidator(pinned_image)] = amd.METRICS_EXPORTER_IMAGE
    kmm_tag: str = amd.DEFAULT_VERSION
    """Tag of KMM's controller, webhook, worker and signer images."""


class CertManagerSettings(SettingsModel):
    """cert-manager, which the operator's KMM subchart needs for its webhook certificate."""

    install: StrictBool = True
    """Install cert-manager (jetstack's chart, CRDs included). ``false`` when the cluster already
    runs it: a second install would fight over its CRDs."""
    version: str = cert_manager.DEFAULT_VERSION
    """cert-manager chart version."""
    namespace: DnsLabel = cert_manager.DEFAULT_NAMESPACE
    """Namespace of the release."""


class AmdGpuOperatorSettings(SettingsModel):
    """AMD's GPU Operator: installed when a GPU pool has an AMD size."""

    version: str = amd.DEFAULT_VERSION
    """Chart version of ``gpu-operator-charts``."""
    namespace: DnsLabel = amd.DEFAULT_NAMESPACE
    """Namespace of the release, its DeviceConfigs and operands (Pod Security ``privileged``)."""
    driver: AmdDriverSettings = Field(default_factory=AmdDriverSettings)
    """The amdgpu driver (KMM)."""
    images: AmdImagesSettings = Field(default_factory=AmdImagesSettings)
    """Pinned operand images."""
    cert_manager: CertManagerSettings = Field(default_factory=CertManagerSettings)
    """cert-manager (installed by default)."""
