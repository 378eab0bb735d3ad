"""What a workload namespace gets for DRA pools: a ResourceClaimTemplate per GPU shape it may
use, and a quota on every GPU DeviceClass of the cluster.

A shape is a whole GPU of one family (``gpu-a100``: class ``gpu.nvidia.com``, the family a
word of the device's ``productName``) or one MIG profile (``mig-1g-5gb``: class
``mig.nvidia.com``, the device's ``profile``). The quota keys are
``<class>.deviceclass.resource.k8s.io/devices`` (``gpu_facts.dra``): the number ``gpuQuota``
gives the classes the namespace's DRA pools publish (one number for all, or one per class
name), 0 for every other GPU class the cluster's driver ships, so the namespace cannot claim
from a pool it was not given. A class the quota has no key for would be uncapped: the admission
policy refuses claims on one (the namespace's labels, ``gpu_facts.dra.quota_device_class_label``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gpu_facts.dra import (
    MIG_PROFILE_ATTRIBUTE,
    NVIDIA_DRA_DRIVER,
    NVIDIA_GPU_CLASS,
    NVIDIA_MIG_CLASS,
    PRODUCT_NAME_ATTRIBUTE,
    device_class_quota_key,
    family_pattern,
    gpu_family,
    is_device_class_name,
    nvidia_attribute_cel,
    quota_key_device_class,
)
from gpu_platform.settings import WorkloadSettings

from .pools import PoolFacts

GPU_REQUEST = "gpu"
MIG_REQUEST = "mig"


def _cel_string(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


@dataclass(frozen=True, slots=True)
class ClaimShape:
    """One ResourceClaimTemplate of a namespace: one device of a class, picked by a CEL
    selector on NVIDIA's attributes."""

    name: str
    """The template's name: ``gpu-<family>`` or ``mig-<profile>`` (a DNS label)."""
    request: str
    """The request's name, which containers name in ``resources.claims[].request``."""
    device_class: str
    selector: str
    """CEL over the device (``device.attributes['gpu.nvidia.com'].profile == '1g.5gb'``)."""


def _dns_label(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")


def pool_shape(pool: PoolFacts) -> ClaimShape:
    """The shape one device of a DRA pool has."""
    if pool.mig_profile is not None:
        return ClaimShape(
            f"mig-{_dns_label(pool.mig_profile)}",
            MIG_REQUEST,
            NVIDIA_MIG_CLASS,
            f"{nvidia_attribute_cel(MIG_PROFILE_ATTRIBUTE)} == {_cel_string(pool.mig_profile)}",
        )
    family = gpu_family(pool.gpu_model.name)
    return ClaimShape(
        f"gpu-{_dns_label(family)}",
        GPU_REQUEST,
        NVIDIA_GPU_CLASS,
        f"{nvidia_attribute_cel(PRODUCT_NAME_ATTRIBUTE)}.matches("
        f"{_cel_string(family_pattern(family))})",
    )


def claim_shapes(pools: Iterable[PoolFacts]) -> list[ClaimShape]:
    """The templates a namespace on ``pools`` gets: one per shape of its DRA pools, by name."""
    shapes = {s.name: s for s in (pool_shape(pf) for pf in pools if pf.uses_dra)}
    return [shapes[name] for name in sorted(shapes)]


def cluster_device_classes(pools: Iterable[PoolFacts]) -> list[str]:
    """The GPU DeviceClasses the cluster's DRA driver ships (none without a DRA pool)."""
    if not any(pf.uses_dra for pf in pools):
        return []
    return sorted(NVIDIA_DRA_DRIVER.device_classes)


def claim_quota(
    workload: WorkloadSettings, pools: Sequence[PoolFacts], cluster_classes: Iterable[str] = ()
) -> dict[str, str]:
    """The quota keys on DeviceClasses: the number ``gpuQuota`` gives the classes the
    namespace's pools publish, 0 for the cluster's other GPU classes."""
    offered = sorted({c for pf in pools for c in pf.capacity.devices})
    if isinstance(workload.gpu_quota, int):
        amounts = dict.fromkeys(offered, workload.gpu_quota)
    else:
        amounts = {c: workload.gpu_quota.get(c, 0) for c in offered}
        amounts.update({c: n for c, n in workload.gpu_quota.items() if is_device_class_name(c)})
    for device_class in cluster_classes:
        amounts.setdefault(device_class, 0)
    return {device_class_quota_key(c): str(n) for c, n in sorted(amounts.items())}


def quota_device_classes(quota: dict[str, str]) -> list[str]:
    """The classes a namespace's claim quota caps (one namespace label each)."""
    return sorted(c for key in quota if (c := quota_key_device_class(key)) is not None)
