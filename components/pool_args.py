"""Typed args of GPU and CPU pools, shared by every component that takes pools.

Plain types only (no ``Literal`` or unions), and no ``from __future__ import annotations``:
Pulumi's component analyzer (``pulumi.provider.experimental``) reads these annotations at run
time to infer the schema. The settings models (``settings``) hold the allowed values; a
component checks its pool args against them and the rules of ``plan`` (``check_*_args``), and
resolves GPU pools to their facts through ``plan.pools``.
"""

from collections.abc import Callable, Mapping
from typing import Any, NotRequired, TypedDict, cast, get_args

import pulumi
from pydantic import ValidationError

from gpu_platform.plan.cloud_limits import pool_size_problems
from gpu_platform.plan.clouds import cloud_plan
from gpu_platform.plan.cpu_pools import cpu_pool_problems
from gpu_platform.plan.gpu_pools import gpu_pool_problems
from gpu_platform.plan.pools import PoolFacts, resolve_pool
from gpu_platform.plan.problems import under
from gpu_platform.settings import FORMER_CLOUD_NAMES, Cloud, CpuPoolSettings, gpu_pool_settings

from .errors import Problem, property_path, validation_problems


class AutoscaleArgs(TypedDict):
    """Autoscaling range of a pool."""

    min: NotRequired[int]
    """Fewest nodes; 0 lets the pool scale to zero when no GPU pod waits."""
    max: int
    """Most nodes."""


class MigArgs(TypedDict):
    """MIG partitioning of every GPU of a pool."""

    profile: str
    """GPU instance profile of every GPU of the pool, as the pool's cloud names it: on AKS
    ``MIG1g``, ``MIG2g``, ``MIG3g``, ``MIG4g`` or ``MIG7g``; on an existing cluster NVIDIA's name
    (``1g.10gb``), any profile the GPU offers."""
    strategy: NotRequired[str]
    """Device-plugin MIG strategy: ``single`` exposes ``nvidia.com/gpu``, ``mixed`` (default)
    exposes ``nvidia.com/mig-<profile>``."""


class SharingArgs(TypedDict):
    """GPU sharing of a pool: one trust domain per shared GPU."""

    mode: str
    """``timeSlicing`` or ``mps`` (NVIDIA device plugin; on ACK ``mps`` is ACK's MPS with GPU-memory
    isolation), ``cgpu`` or ``share`` (ACK only)."""
    replicas: NotRequired[int]
    """Pods per GPU (2 to 64) for ``timeSlicing`` and device-plugin ``mps``."""
    rename_by_default: NotRequired[bool]
    """Advertise shared GPUs as ``<resource>.shared`` so pods opt in knowingly (default true)."""
    fail_requests_greater_than_one: NotRequired[bool]
    """Refuse pods that ask for more than one shared replica, which would get no more GPU (default
    true)."""


class UpgradeArgs(TypedDict):
    """Node upgrade behaviour of a pool."""

    max_surge: NotRequired[str]
    """Extra nodes during an upgrade, a count or a percentage (default ``1``: GPU capacity is
    scarce)."""
    drain_timeout_minutes: NotRequired[int]
    """How long a node drain waits for pods (training jobs) to finish, 1 to 1440 minutes (default
    60)."""
    node_soak_minutes: NotRequired[int]
    """Wait after draining a node before upgrading the next one, 0 to 30 minutes (default 0)."""


class NodeGpuArgs(TypedDict):
    """The GPUs of each node of an existing cluster's pool."""

    model: str
    """GPU model as the catalogue names it (``gpu_facts.gpu_models``), e.g. ``A100-80GB``,
    ``H100-80GB``, ``T4``, ``MI300X``."""
    count: int
    """GPUs per node, e.g. 8 on a DGX."""


class GpuPoolArgs(TypedDict):
    """A GPU node pool: its machines as its cloud describes them, size, MIG, sharing, labels.
    Each cloud takes its own fields (``settings.aks``, ``settings.ack``, ``settings.existing``);
    a field of another cloud is refused with its property path."""

    name: str
    """Pool name: lowercase letters and digits, at most 12 characters (the AKS limit)."""
    count: NotRequired[int]
    """Fixed node count; give this or ``autoscale``."""
    autoscale: NotRequired[AutoscaleArgs]
    """Autoscaling range (not with MIG)."""
    mig: NotRequired[MigArgs]
    """MIG partitioning of every GPU of the pool."""
    sharing: NotRequired[SharingArgs]
    """GPU sharing (time-slicing or MPS); one trust domain per shared GPU."""
    labels: NotRequired[dict[str, str]]
    """Extra node labels."""
    zones: NotRequired[list[str]]
    """Availability zones."""
    upgrade: NotRequired[UpgradeArgs]
    """Node upgrade behaviour."""
    max_pods: NotRequired[int]
    """AKS: most pods per node, 10 to 250 (default 110; system pools 30 or more). AKS reserves
    kubelet memory per possible pod, so fewer leaves pods more."""
    os_disk_type: NotRequired[str]
    """AKS: ``Ephemeral`` (on the VM's cache or temp disk: faster, nothing to pay, gone on reimage)
    or ``Managed``. Unset: ``Ephemeral`` when the size's cache or temp disk holds ``osDiskSizeGb``,
    else ``Managed``; always sent explicitly."""
    os_disk_size_gb: NotRequired[int]
    """AKS: OS disk size in GiB, 30 to 2048 (default 128); an ephemeral disk must fit the size's
    cache or temp disk."""
    vm_size: NotRequired[str]
    """Azure VM size with GPUs, from the catalogue (``gpu_facts.aks.machine_types``)."""
    nvme: NotRequired[bool]
    """Offer the VM's local NVMe disks as an ephemeral cache StorageClass."""
    os_sku: NotRequired[str]
    """Node OS: ``Ubuntu`` (default), ``Ubuntu2204``, ``AzureLinux``, ``AzureLinux3``; MIG needs
    Ubuntu."""
    instance_type: NotRequired[str]
    """Alibaba ECS instance type with GPUs (``gpu_facts.ack.machine_types``), e.g.
    ``ecs.gn7i-c8g1.2xlarge``."""
    gpu: NotRequired[NodeGpuArgs]
    """What each node has: ``{model: A100-80GB, count: 8}`` (on-premises, a DGX, any cloud)."""
    machine_type: NotRequired[str]
    """Or the machine type of the cloud the cluster runs on, from its catalogue: an EKS instance
    type (``p5.48xlarge``), a GKE machine type (``a3-highgpu-8g``), an Azure VM size
    (``Standard_ND96asr_v4``) or an ECS instance type (``ecs.gn7i-c8g1.2xlarge``)."""
    allocation: NotRequired[str]
    """How pods get the pool's GPUs: ``devicePlugin`` (default: extended resources such as
    ``nvidia.com/gpu``) or ``dra`` (ResourceClaims on NVIDIA's DeviceClasses through NVIDIA's DRA
    driver; Kubernetes 1.34 or newer, NVIDIA GPUs, no ``sharing``: docs/dra.md)."""


class CpuPoolArgs(TypedDict):
    """A CPU node pool: no GPUs, no taints, for pods that need no GPU."""

    name: str
    """Pool name: lowercase letters and digits, at most 12 characters, unique across GPU and CPU
    pools."""
    vm_size: NotRequired[str]
    """Azure VM size without GPUs (``cloud: aks``), e.g. ``Standard_D4ds_v5``."""
    instance_type: NotRequired[str]
    """Alibaba ECS instance type without GPUs (``cloud: ack``), e.g. ``ecs.g7.xlarge``."""
    count: NotRequired[int]
    """Fixed node count; give this or ``autoscale``."""
    autoscale: NotRequired[AutoscaleArgs]
    """Autoscaling range: nodes come when pods wait for CPU or memory."""
    labels: NotRequired[dict[str, str]]
    """Extra node labels (e.g. for a gateway's nodeSelector)."""
    zones: NotRequired[list[str]]
    """Availability zones: on AKS ``1``, ``2``, ``3``; on ACK zones of the cluster's node vSwitches
    (``cluster.vpc.vswitches``), whose vSwitches the pool then uses."""
    os_sku: NotRequired[str]
    """Node OS on AKS: ``Ubuntu`` (default), ``Ubuntu2204``, ``AzureLinux``, ``AzureLinux3``."""
    upgrade: NotRequired[UpgradeArgs]
    """Node upgrade behaviour (AKS surge, drain timeout and soak)."""
    max_pods: NotRequired[int]
    """AKS: most pods per node, 10 to 250 (default 110; system pools 30 or more). AKS reserves
    kubelet memory per possible pod, so fewer leaves pods more."""
    os_disk_type: NotRequired[str]
    """AKS: ``Ephemeral`` (on the VM's cache or temp disk: faster, nothing to pay, gone on reimage)
    or ``Managed``. Unset: ``Ephemeral`` when the size's cache or temp disk holds ``osDiskSizeGb``,
    else ``Managed``; always sent explicitly."""
    os_disk_size_gb: NotRequired[int]
    """AKS: OS disk size in GiB, 30 to 2048 (default 128); an ephemeral disk must fit the size's
    cache or temp disk."""


def cpu_pool_args(settings: CpuPoolSettings) -> CpuPoolArgs:
    """A validated CPU pool's settings as component args (what the platform passes on)."""
    return cast(CpuPoolArgs, settings.model_dump(exclude_none=True))


def validate_cpu_pool_args(
    cloud: Cloud,
    args: CpuPoolArgs,
    *path: str | int,
    rules: Callable[[CpuPoolSettings], list[Problem]] | None = None,
) -> tuple[CpuPoolSettings | None, list[Problem]]:
    """CPU pool args checked against the settings schema and the rules of a CPU pool on
    ``cloud`` (``plan.cpu_pools``, which the stack config asks too; a component with more rules
    passes its own superset as ``rules``, property paths included): the settings, or None and
    the problems with property paths under ``path``."""
    try:
        settings = CpuPoolSettings.model_validate(args)
    except ValidationError as err:
        return None, validation_problems(err, *path)
    if rules is None:
        problems = under(property_path(*path), cpu_pool_problems(cloud, settings))
    else:
        problems = rules(settings)
    problems += under(property_path(*path), pool_size_problems(cloud, settings))
    return (None if problems else settings), problems


class _PoolArgsWithFacts(dict[str, Any]):
    """GPU pool args made from a resolved pool (``gpu_pool_args``): they carry its facts, so
    the components that take them resolve nothing again (one resolution per pool and program
    run). Args that no longer say what the facts were resolved from are checked afresh."""

    __slots__ = ("facts",)

    def __init__(self, facts: PoolFacts) -> None:
        super().__init__(facts.pool.model_dump(exclude_none=True))
        self.facts = facts

    def facts_for(self, cloud: str) -> PoolFacts | None:
        """The facts, when the args still describe the same pool on ``cloud``."""
        facts = self.facts
        if facts.cloud != cloud or self != facts.pool.model_dump(exclude_none=True):
            return None
        return facts


def gpu_pool_args(facts: PoolFacts) -> GpuPoolArgs:
    """A resolved pool's settings as component args (what the platform passes on), carrying
    the facts they were resolved to."""
    return cast(GpuPoolArgs, _PoolArgsWithFacts(facts))


def validate_gpu_pool_args(
    cloud: Cloud,
    args: GpuPoolArgs,
    *path: str | int,
    rules: Callable[[Any], list[Problem]] | None = None,
) -> tuple[PoolFacts | None, list[Problem]]:
    """GPU pool args checked against the settings schema and the rules of a GPU pool on
    ``cloud`` (``plan.gpu_pools``, which the stack config asks too; a component with more
    rules passes its own superset as ``rules``, property paths included), then resolved
    against the GPU catalog: the pool's facts, or None and the problems with property paths
    under ``path``. Args from ``gpu_pool_args`` are not validated or resolved again."""
    known = args.facts_for(cloud) if isinstance(args, _PoolArgsWithFacts) else None
    if known is not None:
        settings = known.pool
    else:
        read, former = cloud_plan(cloud).former_pool_keys(args, property_path(*path))
        for warning in former:
            pulumi.log.warn(warning)
        try:
            settings = gpu_pool_settings(cloud, read)
        except ValidationError as err:
            return None, validation_problems(err, *path)
    if rules is None:
        problems = under(property_path(*path), gpu_pool_problems(cloud, settings))
    else:
        problems = rules(settings)
    problems += under(property_path(*path), pool_size_problems(cloud, settings))
    if problems:
        return None, problems
    return (known or resolve_pool(cloud, settings)), []


CLOUDS: tuple[str, ...] = get_args(Cloud)
DEFAULT_CLOUD = "existing"
"""``cloud`` of a component that takes pools, when unset: no cloud-specific sharing modes."""


def cloud_arg(args: Mapping[str, Any]) -> str:
    """A component's ``cloud`` arg (``DEFAULT_CLOUD`` when unset), a name of a former release
    (``azure``) read as today's (``cloud_problems`` warns of it)."""
    cloud = args.get("cloud", DEFAULT_CLOUD)
    return FORMER_CLOUD_NAMES.get(cloud, cloud) if isinstance(cloud, str) else cloud


def cloud_problems(cloud: str) -> list[Problem]:
    """A component's ``cloud`` arg: one of ours (a former name is read with a warning)."""
    if isinstance(cloud, str) and cloud in FORMER_CLOUD_NAMES:
        new = FORMER_CLOUD_NAMES[cloud]
        pulumi.log.warn(f"cloud: {cloud} is the old name of {new} (read as {new}; pass {new})")
        return []
    return (
        [] if cloud in CLOUDS else [("cloud", f"must be one of {', '.join(CLOUDS)}, not {cloud!r}")]
    )


def validate_gpu_pools_args(
    cloud: str, pools: list[GpuPoolArgs], *path: str | int
) -> tuple[list[PoolFacts], list[Problem]]:
    """The ``cloud`` and ``pools`` args of a component that takes pools (``pools`` at ``path``):
    the pools' facts, or the problems with property paths (then the facts are incomplete)."""
    if problems := cloud_problems(cloud):
        return [], problems
    cloud = FORMER_CLOUD_NAMES.get(cloud, cloud)
    facts: list[PoolFacts] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, pool in enumerate(pools):
        pf, found = validate_gpu_pool_args(cast(Cloud, cloud), pool, *path, i)
        problems += found
        if pf is None:
            continue
        if pf.name in seen:  # config maps, labels and quotas are keyed by pool name
            problems.append((property_path(*path, i, "name"), f"duplicate pool {pf.name!r}"))
        seen.add(pf.name)
        facts.append(pf)
    return facts, problems
