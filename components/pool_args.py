"""Typed args of GPU and CPU pools, shared by every component that takes pools.

Plain types only (no ``Literal`` or unions), and no ``from __future__ import annotations``:
Pulumi's component analyzer (``pulumi.provider.experimental``) reads these annotations at run
time to infer the schema. The settings models (``settings``) hold the allowed values; a
component validates its pool args against them and resolves them through ``plan``.
"""

from typing import NotRequired, TypedDict, cast, get_args

from pydantic import ValidationError

from gpu_facts import UnknownGpuFact, azure_vm_size, ecs_instance_type
from gpu_platform.plan.pools import PoolFacts, resolve_pool
from gpu_platform.settings import Cloud, CpuPoolSettings, GpuPoolSettings

from .errors import Problem, property_path, validation_problems


class AutoscaleArgs(TypedDict):
    """Autoscaling range of a pool."""

    min: int
    """Fewest nodes; 0 lets the pool scale to zero when no GPU pod waits."""
    max: int
    """Most nodes."""


class MigArgs(TypedDict):
    """MIG partitioning of every GPU of a pool."""

    profile: str
    """GPU instance profile as AKS names it: ``MIG1g``, ``MIG2g``, ``MIG3g``, ``MIG4g`` or
    ``MIG7g``."""
    strategy: NotRequired[str]
    """Device-plugin MIG strategy: ``single`` exposes ``nvidia.com/gpu``, ``mixed`` (default)
    exposes ``nvidia.com/mig-<profile>``."""


class SharingArgs(TypedDict):
    """GPU sharing of a pool: one trust domain per shared GPU."""

    mode: str
    """``timeSlicing`` or ``mps`` (NVIDIA device plugin; on ACK ``mps`` is ACK's MPS with
    GPU-memory isolation), ``cgpu`` or ``share`` (ACK only)."""
    replicas: NotRequired[int]
    """Pods per GPU (2 to 64) for ``timeSlicing`` and device-plugin ``mps``."""
    rename_by_default: NotRequired[bool]
    """Advertise shared GPUs as ``<resource>.shared`` (default true)."""
    fail_requests_greater_than_one: NotRequired[bool]
    """Refuse pods that ask for more than one shared replica (default true)."""


class UpgradeArgs(TypedDict):
    """Node upgrade behaviour of a pool."""

    max_surge: NotRequired[str]
    """Extra nodes during an upgrade, a count or a percentage (default ``1``)."""
    drain_timeout_minutes: NotRequired[int]
    """How long a node drain waits for pods, 1 to 1440 minutes (default 60)."""
    node_soak_minutes: NotRequired[int]
    """Wait after draining a node before upgrading the next one, 0 to 30 (default 0)."""


class GpuPoolArgs(TypedDict):
    """A GPU node pool: machine type, size, MIG, sharing, labels."""

    name: str
    """Pool name: lowercase letters and digits, at most 12 characters."""
    vm_size: NotRequired[str]
    """Azure VM size (AKS, or an existing cluster's nodes)."""
    instance_type: NotRequired[str]
    """Alibaba ECS instance type (ACK, or an existing cluster's nodes)."""
    count: NotRequired[int]
    """Fixed node count; give this or ``autoscale``."""
    autoscale: NotRequired[AutoscaleArgs]
    """Autoscaling range (not with MIG)."""
    mig: NotRequired[MigArgs]
    """MIG partitioning of every GPU of the pool."""
    sharing: NotRequired[SharingArgs]
    """GPU sharing (time-slicing or MPS)."""
    labels: NotRequired[dict[str, str]]
    """Extra node labels."""
    nvme: NotRequired[bool]
    """Offer the VM's local NVMe disks as an ephemeral cache (AKS)."""
    os_sku: NotRequired[str]
    """Node OS on AKS: ``Ubuntu`` (default), ``Ubuntu2204``, ``AzureLinux``, ``AzureLinux3``;
    MIG needs Ubuntu."""
    zones: NotRequired[list[str]]
    """Availability zones."""
    upgrade: NotRequired[UpgradeArgs]
    """Node upgrade behaviour."""
    max_pods: NotRequired[int]
    """AKS: most pods per node, 10 to 250 (default 110)."""
    os_disk_type: NotRequired[str]
    """AKS: ``Ephemeral`` or ``Managed``; unset: ``Ephemeral`` when the VM size's cache or temp
    disk holds the OS disk, else ``Managed``."""
    os_disk_size_gb: NotRequired[int]
    """AKS: OS disk size in GiB, 30 to 2048 (default 128)."""


class CpuPoolArgs(TypedDict):
    """A CPU node pool: no GPUs, no taints, for pods that need no GPU."""

    name: str
    """Pool name: lowercase letters and digits, at most 12 characters."""
    vm_size: NotRequired[str]
    """Azure VM size without GPUs (AKS), e.g. ``Standard_D4ds_v5``."""
    instance_type: NotRequired[str]
    """Alibaba ECS instance type without GPUs (ACK), e.g. ``ecs.g7.xlarge``."""
    count: NotRequired[int]
    """Fixed node count; give this or ``autoscale``."""
    autoscale: NotRequired[AutoscaleArgs]
    """Autoscaling range."""
    labels: NotRequired[dict[str, str]]
    """Extra node labels."""
    zones: NotRequired[list[str]]
    """AKS availability zones (``1``, ``2``, ``3``); on ACK the vSwitches place the pool."""
    os_sku: NotRequired[str]
    """Node OS on AKS: ``Ubuntu`` (default), ``Ubuntu2204``, ``AzureLinux``, ``AzureLinux3``."""
    upgrade: NotRequired[UpgradeArgs]
    """Node upgrade behaviour (AKS)."""
    max_pods: NotRequired[int]
    """AKS: most pods per node, 10 to 250 (default 110)."""
    os_disk_type: NotRequired[str]
    """AKS: ``Ephemeral`` or ``Managed``; unset: ``Ephemeral`` when the VM size's cache or temp
    disk holds the OS disk, else ``Managed``."""
    os_disk_size_gb: NotRequired[int]
    """AKS: OS disk size in GiB, 30 to 2048 (default 128)."""


def cpu_pool_args(settings: CpuPoolSettings) -> CpuPoolArgs:
    """A validated CPU pool's settings as component args (what the platform passes on)."""
    return cast(CpuPoolArgs, settings.model_dump(exclude_none=True))


def cpu_pool_settings(
    args: CpuPoolArgs, *path: str | int
) -> tuple[CpuPoolSettings | None, list[Problem]]:
    """CPU pool args checked against the settings schema and for a size: the settings, or None
    and the problems with property paths under ``path``."""
    try:
        settings = CpuPoolSettings.model_validate(args)
    except ValidationError as err:
        return None, validation_problems(err, *path)
    problems: list[Problem] = []
    if (settings.count is None) == (settings.autoscale is None):
        problems.append((property_path(*path), "give exactly one of count or autoscale"))
    if settings.autoscale is not None and settings.autoscale.min > settings.autoscale.max:
        problems.append((property_path(*path, "autoscale", "min"), "must not exceed autoscale.max"))
    return (None if problems else settings), problems


def gpu_pool_args(settings: GpuPoolSettings) -> GpuPoolArgs:
    """A validated pool's settings as component args (what the platform passes on)."""
    return cast(GpuPoolArgs, settings.model_dump(exclude_none=True))


def resolve_pool_args(
    cloud: Cloud, args: GpuPoolArgs, *path: str | int
) -> tuple[PoolFacts | None, list[Problem]]:
    """Validate pool args against the settings schema and resolve them against the GPU
    catalog: the pool's facts, or None and the problems with property paths under ``path``."""
    try:
        settings = GpuPoolSettings.model_validate(args)
    except ValidationError as err:
        return None, validation_problems(err, *path)
    if settings.vm_size is None and settings.instance_type is None:
        return None, [(property_path(*path), "give vmSize or instanceType")]
    # The size rules of stack_config.rules.pools, which the settings model leaves to them:
    # the capacity model refuses a size it cannot mean.
    if (settings.count is None) == (settings.autoscale is None):
        return None, [(property_path(*path), "give exactly one of count or autoscale")]
    if settings.autoscale is not None and settings.autoscale.min > settings.autoscale.max:
        return None, [(property_path(*path, "autoscale", "min"), "must not exceed autoscale.max")]
    machine = "vm_size" if settings.vm_size is not None else "instance_type"
    try:
        if settings.vm_size is not None:
            azure_vm_size(settings.vm_size)
        else:
            ecs_instance_type(settings.instance_type or "")
    except UnknownGpuFact as err:
        return None, [(property_path(*path, machine), str(err))]
    # Checked here, not left to the capacity model: its ValueError would be taken for a
    # sharing problem below.
    if settings.autoscale is not None and settings.autoscale.min > settings.autoscale.max:
        return None, [(property_path(*path, "autoscale", "min"), "must not exceed autoscale.max")]
    try:
        return resolve_pool(cloud, settings), []
    except UnknownGpuFact as err:  # the machine is known: its GPU has no such MIG profile
        return None, [(property_path(*path, "mig", "profile"), str(err))]
    except ValueError as err:  # a sharing mode this cloud does not offer
        return None, [(property_path(*path, "sharing", "mode"), str(err))]


CLOUDS: tuple[str, ...] = get_args(Cloud)
DEFAULT_CLOUD = "existing"
"""``cloud`` of a component that takes pools, when unset: no cloud-specific sharing modes."""


def resolve_pools_args(
    cloud: str, pools: list[GpuPoolArgs], *path: str | int
) -> tuple[list[PoolFacts], list[Problem]]:
    """The ``cloud`` and ``pools`` args of a component that takes pools (``pools`` at ``path``):
    the pools' facts, or the problems with property paths (then the facts are incomplete)."""
    if cloud not in CLOUDS:
        return [], [("cloud", f"must be one of {', '.join(CLOUDS)}, not {cloud!r}")]
    facts: list[PoolFacts] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, pool in enumerate(pools):
        pf, found = resolve_pool_args(cast(Cloud, cloud), pool, *path, i)
        problems += found
        if pf is None:
            continue
        if pf.name in seen:  # config maps, labels and quotas are keyed by pool name
            problems.append((property_path(*path, i, "name"), f"duplicate pool {pf.name!r}"))
        seen.add(pf.name)
        facts.append(pf)
    return facts, problems
