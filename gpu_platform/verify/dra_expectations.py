"""What the stack promised on its DRA pools, in terms a live cluster shows (docs/dra.md).

A DRA pool's GPUs are published by NVIDIA's DRA driver: its kubelet plugin (a DaemonSet in the
driver's namespace) runs on each node and publishes the node's devices in ResourceSlices of
driver ``gpu.nvidia.com``, as many as the capacity model promises, of the pool's model (MIG
devices of the pool's profile). The driver's DeviceClasses exist, each workload namespace's
quota caps them (``plan.dra_claims``), and no device plugin runs on a DRA node. Derived from the
same ``plan`` functions the components provision from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpu_facts.dra import (
    GPU_DEVICE_TYPE,
    MIG_DEVICE_TYPE,
    NVIDIA_DRA_DRIVER,
    gpu_family,
)
from gpu_facts.nvidia.dra_driver_chart import KUBELET_PLUGIN_DAEMONSET
from gpu_platform.plan.dra_claims import claim_quota, cluster_device_classes
from gpu_platform.plan.dra_pools import dra_pools
from gpu_platform.plan.driver_checks import min_driver_major
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.plan.pools import PoolFacts

from .expectations import PoolExpectation, pool_expectation


@dataclass(frozen=True, slots=True)
class DraPoolExpectation:
    """One DRA pool: its nodes (count, labels, taint) and the devices each node publishes."""

    pool: PoolExpectation
    device_class: str
    devices: int
    """Devices one node publishes (GPUs, or MIG devices: GPUs × instances per GPU)."""
    device_type: str
    """NVIDIA's ``type`` attribute of those devices: ``gpu`` or ``mig``."""
    family: str
    """The GPU family their ``productName`` names (``A100``)."""
    mig_profile: str | None
    min_driver_major: int
    """The oldest NVIDIA driver major its devices may report (``plan.driver_checks``: 565 or
    ``driverCheck.minDriverMajor``, the newer)."""

    def promise(self) -> str:
        """``56 mig devices, profile 1g.5gb, of an A100``."""
        what = f"{self.devices} {self.device_type} device{'s' if self.devices != 1 else ''}"
        profile = f", profile {self.mig_profile}" if self.mig_profile else ""
        return f"{what}{profile}, of an {self.family}"


@dataclass(frozen=True, slots=True)
class DraExpectation:
    namespace: str
    """The driver's namespace: its kubelet plugin DaemonSet runs there."""
    pools: list[DraPoolExpectation]
    device_classes: tuple[str, ...] = NVIDIA_DRA_DRIVER.device_classes
    driver: str = NVIDIA_DRA_DRIVER.name
    daemonset: str = KUBELET_PLUGIN_DAEMONSET
    claim_quotas: dict[str, dict[str, int]] = field(default_factory=dict)
    """Workload namespace -> its claim quota keys with their hard limits."""


def dra_pool_expectation(platform: ResolvedPlatform, pf: PoolFacts) -> DraPoolExpectation:
    configured = platform.settings.driver_check.min_driver_major
    return dra_pool_of(pool_expectation(platform, pf), pf, configured)


def dra_pool_of(pool: PoolExpectation, pf: PoolFacts, min_major: int) -> DraPoolExpectation:
    """A DRA pool's nodes and the devices each publishes (the stack's path and a plan's);
    ``min_major`` is ``driverCheck.minDriverMajor``, raised to what NVIDIA's DRA driver needs
    (``plan.driver_checks.min_driver_major``)."""
    ((device_class, devices),) = pf.capacity.devices.items()
    mig = pf.mig_profile is not None
    return DraPoolExpectation(
        pool=pool,
        device_class=device_class,
        devices=devices,
        device_type=MIG_DEVICE_TYPE if mig else GPU_DEVICE_TYPE,
        family=gpu_family(pf.gpu_model.name),
        mig_profile=pf.mig_profile,
        min_driver_major=min_driver_major(pf, min_major),
    )


def dra_expectation(platform: ResolvedPlatform) -> DraExpectation | None:
    """The DRA pools' expectations, None when the stack has no DRA pool."""
    pools = dra_pools(platform.pools.values())
    if not pools:
        return None
    settings = platform.settings
    classes = cluster_device_classes(platform.pools.values())
    quotas = {
        wl.name: {
            key: int(value)
            for key, value in claim_quota(wl, platform.workload_pools(wl), classes).items()
        }
        for wl in settings.workloads
    }
    return DraExpectation(
        namespace=settings.dra_driver.namespace,
        pools=[dra_pool_expectation(platform, pf) for pf in pools],
        claim_quotas=quotas,
    )
