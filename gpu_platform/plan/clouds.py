"""The one dispatch on cloud: what each cloud's ``plan`` modules say of a GPU pool.

Every rule or fact that differs by cloud lives in that cloud's folder (``plan/aks``,
``plan/ack``, ``plan/existing``); everything else asks here, by the config's ``cloud`` or by the
pool model it picked, and compares no cloud name itself (``tests/unit/test_cloud_names.py``
counts them). A new cloud is one more folder and one more entry below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from gpu_facts import GpuModel
from gpu_facts.ack.addons import ARMS_NAMESPACE
from gpu_facts.aks.monitor import AZURE_MONITOR_SCRAPER_NAMESPACE
from gpu_facts.aks.nodes import AKS_LABEL_DOMAIN
from gpu_facts.capacity import DEVICE_PLUGIN_SHARING_MODES, SharingMode
from gpu_facts.cloud_limits import Limit
from gpu_platform.settings import (
    AckGpuPoolSettings,
    AksGpuPoolSettings,
    AmdGpuOperatorSettings,
    Cloud,
    ExistingGpuPoolSettings,
    GpuPoolSettings,
)

from .machines import PoolMachine
from .problems import Problem

if TYPE_CHECKING:
    from .metrics import ScrapeMode


def _none(pool: Any) -> Iterator[Problem]:
    return iter(())


def _no_limits(pool: Any) -> list[tuple[str, int, Limit]]:
    return []


def _false() -> bool:
    return False


def _none3(version: str, minor: tuple[int, int], pools: Any) -> Iterator[Problem]:
    return iter(())


def _aks_node_labels(pool: Any, workload_types: Sequence[str]) -> dict[str, str]:
    from .node_labels import aks_node_labels

    return aks_node_labels(pool, workload_types)


def _ack_node_labels(pool: Any, workload_types: Sequence[str]) -> dict[str, str]:
    from .node_labels import ack_node_labels

    return ack_node_labels(pool)


def _existing_node_labels(pool: Any, workload_types: Sequence[str]) -> dict[str, str]:
    from .node_labels import existing_node_labels

    return existing_node_labels(pool)


@dataclass(frozen=True)
class ManagedMetrics:
    """A cloud's managed Prometheus: how it scrapes, from which namespace."""

    scrape: ScrapeMode
    scraper_namespace: str
    azure_monitor: bool = False
    arms_prometheus: bool = False


@dataclass(frozen=True)
class ContainerLogs:
    """How a cloud collects the container logs of the namespaces a stack names (BP-07)."""

    collector: str
    """Whose agent collects them (``make verify`` checks it by this name)."""
    every_namespace_when_none_named: bool
    """No namespace named means every namespace (AKS's data collection rule), not none (ACK's
    one log config per namespace)."""


def _as_written(pool: Mapping[str, Any], at: str) -> tuple[dict[str, Any], list[str]]:
    return dict(pool), []


def _plugin_sharing(mode: str) -> SharingMode:
    """The NVIDIA device plugin's modes, named as the config names them."""
    if mode not in DEVICE_PLUGIN_SHARING_MODES:
        # Validation refuses ACK-only modes elsewhere; resolving one here is a bug.
        raise ValueError(f"sharing mode {mode!r} exists only on cloud 'ack'")
    return mode  # type: ignore[return-value]


@dataclass(frozen=True)
class CloudPlan:
    """A cloud's answers about a GPU pool of its model (``pool_model``)."""

    cloud: Cloud
    title: str
    """How messages name it (``AKS``)."""
    pool_model: type[Any]
    machine: Callable[[Any], PoolMachine]
    """The nodes' GPU model, GPUs and NVMe disks (a pool the rules passed)."""
    mig_profile: Callable[[Any, GpuModel], str | None]
    """NVIDIA's name of the pool's MIG profile."""
    sharing: Callable[[str], SharingMode]
    """What the cloud does with ``sharing.mode``."""
    sharing_modes: frozenset[str]
    """The ``sharing.mode`` values the cloud offers."""
    machine_problems: Callable[[Any], Iterator[Problem]]
    mig_problems: Callable[[Any], Iterator[Problem]]
    node_problems: Callable[[Any], Iterator[Problem]]
    """What else the cloud refuses of the nodes (AKS: the NVMe cache, the surge)."""
    creates_nodes: bool
    """Whether the platform creates the cluster and its pools (and so a system pool)."""
    cpu_machine_problems: Callable[[Any], Iterator[Problem]] = _none
    """A CPU pool's machine: the cloud's kind of machine type, without GPUs."""
    reserved_label_domains: tuple[str, ...] = ()
    """Label domains the cloud keeps for itself on the pools we create (AKS's)."""
    pool_size_limits: Callable[[Any], list[tuple[str, int, Limit]]] = _no_limits
    """(key, nodes, limit) of each size of a pool past the cloud's limit per pool."""
    managed_metrics: ManagedMetrics | None = None
    """The cloud's managed Prometheus, scraping with ``scrape: auto``; None: the user's."""
    logstore_name_problem: Callable[[str], str | None] | None = None
    """Where container logs go per namespace needs a name of its rule (ACK's SLS logstores)."""
    managed_grafana: bool = False
    """Azure Managed Grafana reads this cloud's Azure Monitor workspace."""
    own_grafana: str = "point your Grafana at your Prometheus"
    """Where Grafana comes from on this cloud, when it is not Azure Managed Grafana."""
    gpu_operator_refusal: str | None = None
    """Why NVIDIA's GPU Operator may not own the GPUs here, if it may not."""
    dra_default_version_serves: Callable[[], bool] = _false
    """Whether a cluster created without a version gets one that serves DRA."""
    dra_node_problems: Callable[
        [str, tuple[int, int], Sequence[tuple[str, Any]]], Iterator[Problem]
    ] = _none3
    """What the cloud's nodes need to run DRA pools (AKS: CDI), paths under each pool's."""
    node_labels: Callable[[Any, Sequence[str]], dict[str, str]] = _existing_node_labels
    """The labels the stack gives (or, on an existing cluster, expects on) a pool's nodes,
    from its facts and the workload types whose namespaces may use it."""
    container_logs: ContainerLogs | None = None
    """How the cloud collects container logs; None: the platform collects none there."""
    node_image_checks: bool = False
    """Whether the cluster's settings say what ``make verify`` checks of its nodes' images and
    NVMe cache (AKS: the node OS upgrade channel)."""
    former_pool_keys: Callable[[Mapping[str, Any], str], tuple[dict[str, Any], list[str]]] = (
        _as_written
    )
    """A raw pool with the keys of a former release read as today's, and the warnings."""
    amd_pool_problems: Callable[[Any], Iterator[Problem]] = _none
    """What the cloud refuses of a pool of AMD GPUs."""
    amd_layer_problems: Callable[[AmdGpuOperatorSettings], Iterator[Problem]] = _none
    """What the cloud needs of AMD's GPU Operator (paths under ``amdGpuOperator``)."""


@cache
def cloud_plans() -> dict[str, CloudPlan]:
    """Each cloud's plan, by the config's ``cloud``. Built on first use: the clouds' modules
    ask the layer's shared modules, which ask here."""
    from .ack import pools as ack
    from .ack.observability import CONTAINER_LOGS as ACK_CONTAINER_LOGS
    from .aks import pools as aks
    from .aks.observability import CONTAINER_LOGS as AKS_CONTAINER_LOGS
    from .existing import pools as existing
    from .existing.former_keys import former_pool_keys

    return {
        "aks": CloudPlan(
            "aks",
            "AKS",
            AksGpuPoolSettings,
            aks.aks_machine,
            aks.aks_mig,
            _plugin_sharing,
            frozenset(DEVICE_PLUGIN_SHARING_MODES),
            aks.aks_machine_problems,
            aks.aks_mig_problems,
            aks.aks_node_problems,
            creates_nodes=True,
            amd_pool_problems=aks.aks_amd_problems,
            amd_layer_problems=aks.aks_amd_layer_problems,
            cpu_machine_problems=aks.aks_cpu_machine_problems,
            reserved_label_domains=(AKS_LABEL_DOMAIN,),
            pool_size_limits=aks.aks_pool_size_limits,
            managed_metrics=ManagedMetrics(
                "azureMonitor", AZURE_MONITOR_SCRAPER_NAMESPACE, azure_monitor=True
            ),
            managed_grafana=True,
            dra_node_problems=aks.aks_dra_node_problems,
            node_labels=_aks_node_labels,
            container_logs=AKS_CONTAINER_LOGS,
            node_image_checks=True,
        ),
        "ack": CloudPlan(
            "ack",
            "ACK",
            AckGpuPoolSettings,
            ack.ack_machine,
            ack.ack_mig,
            ack.ack_sharing,
            frozenset({*DEVICE_PLUGIN_SHARING_MODES, *ack.ACK_MODES}),
            ack.ack_machine_problems,
            ack.ack_mig_problems,
            ack.ack_node_problems,
            creates_nodes=True,
            cpu_machine_problems=ack.ack_cpu_machine_problems,
            pool_size_limits=ack.ack_pool_size_limits,
            managed_metrics=ManagedMetrics("armsPrometheus", ARMS_NAMESPACE, arms_prometheus=True),
            logstore_name_problem=ack.logstore_name_problem,
            own_grafana="ACK's Managed Service for Prometheus comes with its own Grafana",
            gpu_operator_refusal=ack.GPU_OPERATOR_ON_ACK,
            dra_default_version_serves=ack.newest_version_serves_dra,
            node_labels=_ack_node_labels,
            container_logs=ACK_CONTAINER_LOGS,
        ),
        "existing": CloudPlan(
            "existing",
            "existing clusters",
            ExistingGpuPoolSettings,
            existing.existing_machine,
            existing.existing_mig,
            _plugin_sharing,
            frozenset(DEVICE_PLUGIN_SHARING_MODES),
            existing.existing_machine_problems,
            existing.existing_mig_problems,
            existing.existing_node_problems,
            creates_nodes=False,
            former_pool_keys=former_pool_keys,
        ),
    }


def cloud_plan(cloud: str) -> CloudPlan:
    return cloud_plans()[cloud]


def pool_key_elsewhere(cloud: str, key: str) -> str | None:
    """Why a GPU pool of ``cloud`` has no ``key`` that another cloud's pools have, or None."""
    others = [
        plan
        for plan in cloud_plans().values()
        if plan.cloud != cloud
        and any(key in (name, f.alias) for name, f in plan.pool_model.model_fields.items())
    ]
    if not others:
        return None
    titles = " and ".join(plan.title for plan in others)
    clouds = ", ".join(repr(plan.cloud) for plan in others)
    return f"{titles} only (cloud {clouds}); on cloud '{cloud}' remove it"


def pool_plan(pool: GpuPoolSettings) -> CloudPlan:
    """The plan of the cloud whose model ``pool`` is."""
    for plan in cloud_plans().values():
        if isinstance(pool, plan.pool_model):
            return plan
    raise TypeError(f"not a GPU pool model: {type(pool).__name__}")
