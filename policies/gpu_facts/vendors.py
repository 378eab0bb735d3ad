"""GPU vendors: what tells an NVIDIA GPU from an AMD one everywhere the platform asks.

A GPU model belongs to one vendor (``GpuModel.vendor``); the vendor decides the extended
resources its device plugin advertises, the taint its nodes carry (BP-01: ``<vendor>.com/gpu``)
and the management tool that confirms its driver (BP-05: ``nvidia-smi``, ``amd-smi``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .scheduling import (
    ALIYUN_GPU_MEM,
    AMD_GPU,
    AMD_NODE_TAINT,
    GPU_NODE_TAINT,
    NVIDIA_GPU,
    NVIDIA_RESOURCE_DOMAIN,
    Taint,
    is_amd_gpu_resource,
    is_gpu_resource,
)

NVIDIA_NAME = "NVIDIA"
AMD_NAME = "AMD"


@dataclass(frozen=True, slots=True)
class GpuVendor:
    """One GPU vendor as the scheduler and the driver checks see it."""

    name: str
    """``NVIDIA`` or ``AMD``: the value of ``GpuModel.vendor``."""
    gpu_resource: str
    """Whole GPUs: ``nvidia.com/gpu``, ``amd.com/gpu``."""
    taint: Taint
    """The taint of the vendor's GPU nodes (BP-01)."""
    smi: str
    """The tool that talks to the driver (BP-05)."""

    @property
    def taint_key(self) -> str:
        return self.taint.key


NVIDIA = GpuVendor(NVIDIA_NAME, NVIDIA_GPU, GPU_NODE_TAINT, "nvidia-smi")
AMD = GpuVendor(AMD_NAME, AMD_GPU, AMD_NODE_TAINT, "amd-smi")
VENDORS: dict[str, GpuVendor] = {v.name: v for v in (NVIDIA, AMD)}
"""Every vendor the catalog's GPU models name."""


def vendor_named(name: str) -> GpuVendor:
    """The vendor of a ``GpuModel.vendor`` value (``KeyError`` for an unknown one)."""
    return VENDORS[name]


def resource_vendor(resource: str) -> GpuVendor | None:
    """The vendor whose GPUs ``resource`` hands out, None for a resource that is no GPU.
    ACK's ``aliyun.com/gpu-mem`` shares NVIDIA GPUs (ACK's sharing runs on NVIDIA's driver)."""
    if is_amd_gpu_resource(resource):
        return AMD
    if is_gpu_resource(resource) and (
        resource.startswith(NVIDIA_RESOURCE_DOMAIN) or resource == ALIYUN_GPU_MEM
    ):
        return NVIDIA
    return None
