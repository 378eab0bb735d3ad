"""GPU pool settings for tests: the model of the cloud a pool's machine field names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpu_platform.settings import GpuPoolSettings, gpu_pool_settings


def cloud_of(raw: Mapping[str, Any]) -> str:
    """``vmSize``: AKS; ``instanceType``: ACK; anything else an existing cluster's pool."""
    if {"vmSize", "vm_size"} & raw.keys():
        return "aks"
    if {"instanceType", "instance_type"} & raw.keys():
        return "ack"
    return "existing"


def gpu_pool(raw: Mapping[str, Any], cloud: str | None = None) -> GpuPoolSettings:
    """``raw`` validated as a GPU pool of ``cloud`` (by default the one its fields say)."""
    return gpu_pool_settings(cloud or cloud_of(raw), raw)
