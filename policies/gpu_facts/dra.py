"""Dynamic Resource Allocation (DRA): the Kubernetes API that hands out GPUs through claims, and
the GPU drivers and DeviceClasses the platform and the pack know.

Sources (read for this module):

- **k8s-api**: kubernetes/api at v0.36.0, ``resource/v1/types.go`` (DeviceClass, ResourceClaim,
  ResourceClaimTemplate, ResourceSlice; ``AllocationResultsMaxSize``) and ``core/v1/types.go``
  (``ResourceClaimsPerClass``).
- **quota**: kubernetes/kubernetes ``pkg/quota/v1/evaluator/core/resource_claims.go``
  (``claimEvaluator.Usage``: one ``count/resourceclaims.resource.k8s.io`` per claim, and per
  device class the devices a request may take: ``count`` under ``ExactCount``,
  ``AllocationResultsMaxSize`` under ``All``, the largest alternative of a ``firstAvailable``
  request) and the docs page https://kubernetes.io/docs/concepts/policy/resource-quotas/
  ("Quota for DRA resource claims": ``examplegpu.deviceclass.resource.k8s.io/devices: 4``).
- **status**: https://kubernetes.io/blog/2025/09/01/kubernetes-v1-34-dra-updates/ (DRA GA in
  1.34, ``resource.k8s.io/v1`` served by default), feature gates in kubernetes/kubernetes
  ``pkg/features`` (``DynamicResourceAllocation`` locked on from 1.35).
- **nvidia-dra**: NVIDIA/k8s-dra-driver-gpu at v25.12.0 (0882da87): the chart's
  ``templates/deviceclass-*.yaml`` (read in ``../shared/reference/nvidia-dra-driver-gpu-25.12.0``)
  and ``cmd/gpu-kubelet-plugin/deviceinfo.go`` (device names and attributes),
  ``cmd/gpu-kubelet-plugin/nvlib.go`` (``productName`` is NVML's ``nvmlDeviceGetName``, the
  name ``nvidia-smi`` prints), ``docs/configure-mig.md`` (MIG ``profile`` attribute, ``1g.5gb``).
- **amd-dra**: ROCm/k8s-gpu-dra-driver main (26224272, 2025-10-06; no release tag): DeviceClass
  ``gpu.amd.com`` selecting ``device.driver == 'gpu.amd.com'``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .vendors import AMD, NVIDIA, GpuVendor

RESOURCE_API_GROUP = "resource.k8s.io"
"""The API group of DeviceClass, ResourceClaim(Template) and ResourceSlice."""
RESOURCE_API_VERSION = "resource.k8s.io/v1"
"""The version the platform writes: GA and served by default from Kubernetes 1.34 (status)."""
DRA_GA_MINOR = (1, 34)
"""The first Kubernetes minor that serves ``resource.k8s.io/v1`` with DRA on by default
(status). Managed clusters (AKS, ACK) take no feature gates, so older ones cannot run DRA."""

DEVICE_CLASS = "DeviceClass"
RESOURCE_CLAIM = "ResourceClaim"
RESOURCE_CLAIM_TEMPLATE = "ResourceClaimTemplate"

DEVICE_CLASS_QUOTA_SUFFIX = ".deviceclass.resource.k8s.io/devices"
"""``ResourceQuota`` ``spec.hard`` key suffix: ``<class>.deviceclass.resource.k8s.io/devices``
caps the devices the namespace's claims request from ``<class>`` (k8s-api
``ResourceClaimsPerClass``; quota). A claim naming a class its namespace's quota has no key for
is not capped at all."""
ALLOCATION_RESULTS_MAX_SIZE = 32
"""Devices one claim can hold at most (k8s-api ``AllocationResultsMaxSize``): a request with
``allocationMode: All`` counts as this many against the class's quota (quota)."""
IMPLICIT_EXTENDED_RESOURCE_PREFIX = "deviceclass.resource.kubernetes.io/"
"""Every DeviceClass can also be asked for as the extended resource
``deviceclass.resource.kubernetes.io/<class>`` (KEP-5004 "Implicit Extended Resource Name",
gate ``DRAExtendedResource``: alpha in 1.34, beta and on in 1.36): the scheduler then makes the
claim. The platform refuses such requests in GPU namespaces (ask through a claim)."""
ADMIN_ACCESS_NAMESPACE_LABEL = "resource.kubernetes.io/admin-access"
"""``adminAccess: true`` requests are allowed only in namespaces labelled so (k8s-api): they
ignore other allocations of the device. The platform never labels a GPU namespace so."""


def device_class_quota_key(device_class: str) -> str:
    """The ``ResourceQuota`` key that caps the devices claimed from ``device_class``."""
    return device_class + DEVICE_CLASS_QUOTA_SUFFIX


def quota_key_device_class(key: str) -> str | None:
    """The device class a ``ResourceQuota`` key caps, None for any other key."""
    if key.endswith(DEVICE_CLASS_QUOTA_SUFFIX) and len(key) > len(DEVICE_CLASS_QUOTA_SUFFIX):
        return key[: -len(DEVICE_CLASS_QUOTA_SUFFIX)]
    return None


@dataclass(frozen=True, slots=True)
class GpuDraDriver:
    """A DRA driver that publishes GPUs: the name its ResourceSlices and CEL selectors carry
    (``device.driver``), the domain of its attributes, and the DeviceClasses it ships."""

    name: str
    vendor: GpuVendor
    attribute_domain: str
    """``device.attributes['<domain>'].<name>`` in CEL."""
    device_classes: tuple[str, ...]
    """The DeviceClasses its chart creates that hand out GPUs (not ComputeDomain channels)."""
    released: bool
    """Whether the driver has a release the platform can pin."""
    source: str


NVIDIA_DRA_DRIVER = GpuDraDriver(
    name="gpu.nvidia.com",
    vendor=NVIDIA,
    attribute_domain="gpu.nvidia.com",
    device_classes=("gpu.nvidia.com", "mig.nvidia.com", "vfio.gpu.nvidia.com"),
    released=True,
    source="NVIDIA/k8s-dra-driver-gpu v25.12.0 templates/deviceclass-{gpu,mig,vfio-gpu}.yaml",
)
AMD_DRA_DRIVER = GpuDraDriver(
    name="gpu.amd.com",
    vendor=AMD,
    attribute_domain="gpu.amd.com",
    device_classes=("gpu.amd.com",),
    released=False,
    source="ROCm/k8s-gpu-dra-driver main (26224272, 2025-10-06): no release tag",
)
GPU_DRA_DRIVERS: dict[str, GpuDraDriver] = {d.name: d for d in (NVIDIA_DRA_DRIVER, AMD_DRA_DRIVER)}
"""Every DRA driver known to publish GPUs, by driver name."""
GPU_DEVICE_CLASSES: dict[str, GpuDraDriver] = {
    c: d for d in GPU_DRA_DRIVERS.values() for c in d.device_classes
}
"""Every DeviceClass known to hand out GPUs (NVIDIA's and AMD's drivers ship them), with its
driver."""

NVIDIA_GPU_CLASS = "gpu.nvidia.com"
"""Whole NVIDIA GPUs (``type == 'gpu'``). Rendered as ``resource.k8s.io/v1`` the chart gives it
``extendedResourceName: nvidia.com/gpu`` (nvidia-dra), so with ``DRAExtendedResource`` on
(beta in 1.36) a plain ``nvidia.com/gpu`` request may be served from a DRA node."""
PLATFORM_EXTENDED_RESOURCE_CLASSES: dict[str, str] = {"gpu.nvidia.com": "nvidia.com/gpu"}
"""The DeviceClasses that map a GPU resource and that the platform itself installs, on purpose:
NVIDIA's driver chart renders ``gpu.nvidia.com`` with ``extendedResourceName: nvidia.com/gpu``
as ``resource.k8s.io/v1`` (nvidia-dra ``templates/deviceclass-gpu.yaml``), so that on a DRA
pool's nodes, which no device plugin serves, a plain ``nvidia.com/gpu`` request is served
through DRA (gate ``DRAExtendedResource``, beta in 1.36). Any other class mapping a GPU
resource takes such requests over cluster-wide: of two classes naming one resource, the newer
wins (k8s-api ``DeviceClassSpec.ExtendedResourceName``)."""
NVIDIA_MIG_CLASS = "mig.nvidia.com"
"""NVIDIA MIG devices (``type == 'mig'``), one per MIG device the GPUs are partitioned into."""
NVIDIA_VFIO_CLASS = "vfio.gpu.nvidia.com"
"""Whole NVIDIA GPUs passed through VFIO (alpha ``PassthroughSupport``; none published unless
it is on)."""

GPU_DEVICE_TYPE = "gpu"
MIG_DEVICE_TYPE = "mig"
TYPE_ATTRIBUTE = "type"
"""NVIDIA's device type attribute: ``gpu``, ``mig`` or ``vfio`` (nvidia-dra deviceinfo.go)."""
PRODUCT_NAME_ATTRIBUTE = "productName"
"""NVML's device name (``NVIDIA A100-SXM4-40GB``, ``Tesla T4``); MIG devices carry their
parent's."""
MIG_PROFILE_ATTRIBUTE = "profile"
"""A MIG device's profile as NVIDIA names it (``1g.5gb``), the same name as the pool's."""


def nvidia_attribute_cel(name: str) -> str:
    """CEL for one of NVIDIA's device attributes: ``device.attributes['gpu.nvidia.com'].x``."""
    return f"device.attributes['{NVIDIA_DRA_DRIVER.attribute_domain}'].{name}"


def gpu_family(model_name: str) -> str:
    """The GPU family of a catalog model (``A100-40GB`` -> ``A100``, ``H100-NVL-94GB`` ->
    ``H100``): the part of the model that NVML's device name always carries as a word. The
    memory is not always in it (``NVIDIA H100 NVL``), the form factor is
    (``NVIDIA A100-SXM4-40GB``); the recorded ``nvidia-smi`` outputs in ``tests/data`` show
    ``NVIDIA A100-SXM4-40GB``, ``NVIDIA H100 80GB HBM3``, ``NVIDIA A10``, ``Tesla T4`` and
    ``Tesla V100-PCIE-16GB``."""
    return model_name.split("-", 1)[0]


def family_pattern(family: str) -> str:
    """An RE2 pattern that finds ``family`` as a word of a product name (``A10`` is not a word
    of ``NVIDIA A100-SXM4-40GB``)."""
    return f"(^|[^A-Za-z0-9]){re.escape(family)}([^A-Za-z0-9]|$)"


def names_family(product_name: str, family: str) -> bool:
    """Whether a device's ``productName`` names the GPU family (what verify compares)."""
    return re.search(family_pattern(family), product_name) is not None


def is_device_class_name(name: str) -> bool:
    """Whether a ``gpuQuota`` key names a DeviceClass (``gpu.nvidia.com``) rather than an
    extended resource, which always has a domain prefix (``nvidia.com/gpu``)."""
    return "/" not in name


QUOTA_DEVICE_CLASS_LABEL_PREFIX = "device-class.gpu-platform.io/"
"""Namespace labels the platform writes on a GPU workload namespace, one per DeviceClass its
ResourceQuota caps: ``device-class.gpu-platform.io/<class>: capped``. The in-cluster admission
policy refuses a claim (or claim template) there that names any other class: a class without a
quota key is uncapped. (Labels, not one annotation listing them: CEL finds a label key exactly,
with no string function beyond the CEL core.)"""
QUOTA_DEVICE_CLASS_LABEL_VALUE = "capped"


def quota_device_class_label(device_class: str) -> str:
    """The namespace label that says its quota caps ``device_class``."""
    return QUOTA_DEVICE_CLASS_LABEL_PREFIX + device_class
