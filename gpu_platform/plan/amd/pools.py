"""What an AMD GPU pool may be, and what the AMD GPU layer needs: one rule in one place.

Pure functions returning ``(relative path, message)`` problems: the stack config's rules prefix
the path with ``gpuPools[i]`` (or ``amdGpuOperator``), the AKS pool component with ``pool``.
Sources: AKS "Use AMD GPUs" (``gpu_facts.aks.nodes.AKS_AMD_GPUS_SOURCE``) and the operator's
facts (``gpu_facts.amd.gpu_operator``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from gpu_facts import UnknownGpuFact
from gpu_facts.vendors import AMD, GpuVendor, vendor_named
from gpu_platform.settings import AmdGpuOperatorSettings, Cloud, GpuPoolSettings, PlatformSettings

from ..clouds import cloud_plan, pool_plan
from ..pools import PoolFacts
from ..problems import Problem


def pool_vendor(pool: GpuPoolSettings) -> GpuVendor | None:
    """The vendor of a pool's GPUs by what its cloud says the nodes are, None when the catalog
    does not know it (the machine rule reports that)."""
    try:
        return vendor_named(pool_plan(pool).machine(pool).gpu_model.vendor)
    except (UnknownGpuFact, AssertionError):
        return None


def is_amd_pool(pool: GpuPoolSettings) -> bool:
    return pool_vendor(pool) is AMD


def amd_pool_problems(cloud: Cloud, pool: GpuPoolSettings) -> list[Problem]:
    """What AKS, or AMD's components, refuse in an AMD pool (none for other pools). MIG on an
    AMD size is refused by the MIG rules (no AMD size supports it)."""
    if not is_amd_pool(pool):
        return []
    problems: list[Problem] = list(cloud_plan(cloud).amd_pool_problems(pool))
    if pool.sharing is not None:
        problems.append(
            (
                "sharing",
                f"{pool.sharing.mode} is NVIDIA's device plugin (or ACK's) sharing; AMD's device "
                "plugin hands out whole GPUs (amd.com/gpu)",
            )
        )
    return problems


def amd_pools(pools: Iterable[PoolFacts]) -> list[PoolFacts]:
    """The pools AMD's GPU Operator serves."""
    return [pool for pool in pools if pool.is_amd]


def nvidia_pools(pools: Iterable[PoolFacts]) -> list[PoolFacts]:
    """The pools NVIDIA's components (device plugin or GPU Operator, dcgm-exporter) serve."""
    return [pool for pool in pools if not pool.is_amd]


def amd_layer_problems(
    cloud: Cloud, settings: AmdGpuOperatorSettings, pools: Sequence[GpuPoolSettings]
) -> Iterator[Problem]:
    """What the AMD GPU layer needs once a pool has an AMD size (paths under
    ``amdGpuOperator``)."""
    if not any(is_amd_pool(pool) for pool in pools):
        return
    driver = settings.driver
    yield from cloud_plan(cloud).amd_layer_problems(settings)
    if driver.enabled and driver.image is None:
        yield (
            "driver.image",
            "required with AMD pools: the registry repository (no tag) KMM pushes the built "
            "amdgpu driver image to and the nodes pull it from, e.g. "
            "myregistry.azurecr.io/amd/amdgpu-kmod",
        )
    if driver.version.count(".") > 1:
        yield (
            "driver.version",
            f"the operator takes the Radeon repository's version string ({driver.version!r} "
            "is refused: give e.g. '6.4', not '6.4.0')",
        )
    if settings.cert_manager.install and settings.cert_manager.namespace == settings.namespace:
        yield (
            "certManager.namespace",
            f"{settings.namespace!r} is also the operator's namespace; cert-manager needs its own",
        )


def amd_namespaces(platform: PlatformSettings) -> list[tuple[str, str, bool]]:
    """The AMD layer's namespaces as (key, name, whether the config sets it), for the collision
    checks of the platform's namespaces: the operator's, cert-manager's (when installed) and
    the AMD pools' checks' (``<driverCheck.namespace>-amd``)."""
    settings = platform.amd_gpu_operator
    driver_check = platform.driver_check
    entries = [
        (
            "driverCheck.namespace",
            driver_check.amd_namespace,
            "namespace" in driver_check.model_fields_set,
        ),
        ("amdGpuOperator.namespace", settings.namespace, "namespace" in settings.model_fields_set),
    ]
    manager = settings.cert_manager
    if manager.install:
        entries.append(
            (
                "amdGpuOperator.certManager.namespace",
                manager.namespace,
                "namespace" in manager.model_fields_set,
            )
        )
    return entries
