"""What a plan promised, from the components it registered (``make verify --plan``).

A platform team composing our components has no stack config; its plan (the offline preview's
JSON, ``pulumi preview --json`` or a state export) holds each of our components with the args
it was given (``components/recorded_inputs.py``): from Python in their own names
(``cluster_name``), from another language through the provider in the schema's
(``clusterName``). Each is read as its component reads it and judged with the same ``plan``
functions: pools resolved by ``plan.pools.resolve_pool`` on their cloud, node labels by the
pool component's own function (``aks_node_labels`` with its ``workload_types``,
``ack_node_labels``; ``existing_node_labels`` for pools only in-cluster components name),
quotas by ``plan.namespaces.gpu_quota``, exporter series by ``plan.metrics.node_series``,
DeviceConfigs by ``plan.amd.gpu_operator``. The stack config's path builds its expectations
from the same functions, so for our own stacks the two give the same rows
(``tests/stacks/test_verify_plan.py``).

What a plan does not register is not expected: no exporter row without ``DcgmExporter`` (or
the GPU Operator), no admission row without ``GpuAdmissionPolicy``, no node-image row without
the ``AksCluster`` whose channel it judges.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pydantic import ValidationError

from gpu_facts.lookup import UnknownGpuFact
from gpu_facts.nvidia.dcgm_exporter_chart import METRICS_PORT
from gpu_platform.plan.amd.pools import amd_pools, nvidia_pools
from gpu_platform.plan.clouds import cloud_plan, cloud_plans
from gpu_platform.plan.dra_claims import claim_quota, cluster_device_classes
from gpu_platform.plan.dra_pools import dra_pools
from gpu_platform.plan.metrics import node_series
from gpu_platform.plan.node_labels import existing_node_labels
from gpu_platform.plan.pools import PoolFacts, resolve_pool
from gpu_platform.plan.queues import queue_namespace
from gpu_platform.settings import (
    AksClusterSettings,
    AmdGpuOperatorSettings,
    DevicePluginSettings,
    DraDriverSettings,
    DriverCheckSettings,
    GpuOperatorSettings,
    MetricsSettings,
    QueuesSettings,
    WorkloadSettings,
    gpu_pool_settings,
)

from .amd.expectations import AmdExpectation, amd_pool_of
from .dra_expectations import DraExpectation, dra_pool_of
from .expectations import (
    Expectations,
    ExporterExpectation,
    LogExpectation,
    NamespaceExpectation,
    namespace_gpu_quota,
    only_amd,
    pool_nodes_expectation,
)
from .plan_file import PlanError, PlannedResource
from .queue_expectations import QueueExpectation, queues_expectation
from .seed_expectations import SeedExpectations, channel_applied, seed_pool

TOKEN = "gpu-platform:index:"
POOL_COMPONENTS = {"AksGpuNodePool": "aks", "AckGpuNodePool": "ack"}
"""Pool components and the cloud their pools are on."""
LOG_COMPONENTS = {"AksMonitoring": "aks", "AckMonitoring": "ack"}
"""Monitoring components and the cloud whose log pipeline they set up."""
IN_CLUSTER = (
    "NvidiaDevicePlugin",
    "NvidiaGpuOperator",
    "NvidiaDraDriver",
    "DcgmExporter",
    "AmdGpuOperator",
)
CHECKED = (
    *POOL_COMPONENTS,
    *IN_CLUSTER,
    "GpuWorkloadNamespace",
    "DriverCheck",
    "GpuQueues",
)
"""The components whose args say what the cluster must show."""


def _snake(key: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()


def _args(inputs: dict[str, Any]) -> dict[str, Any]:
    """A component's top-level args in their Python names, whichever way they were written
    (nested settings models take both)."""
    return {_snake(key): value for key, value in inputs.items()}


@dataclass
class _Components:
    by_type: dict[str, list[tuple[str, dict[str, Any]]]] = field(default_factory=dict)
    workloads: dict[str, WorkloadSettings] = field(default_factory=dict)
    """The workload namespaces' settings, as their components read their args."""

    def of(self, component: str) -> list[tuple[str, dict[str, Any]]]:
        return self.by_type.get(component, [])

    def first(self, component: str) -> dict[str, Any] | None:
        found = self.of(component)
        return found[0][1] if found else None


def _components(resources: Iterable[PlannedResource]) -> _Components:
    found = _Components()
    for resource in resources:
        if resource.type.startswith(TOKEN):
            component = resource.type.removeprefix(TOKEN)
            found.by_type.setdefault(component, []).append((resource.name, _args(resource.inputs)))
    return found


class _Pools:
    """Every GPU pool the plan names, resolved once on its cloud: a pool component's cloud,
    else the ``cloud`` arg of the in-cluster component that names it."""

    def __init__(self) -> None:
        self.facts: dict[str, PoolFacts] = {}
        self.provisioned: dict[str, tuple[str, list[str]]] = {}
        """Pool -> its pool component's cloud and workload types."""

    def resolve(self, cloud: str, pool: object, where: str) -> PoolFacts:
        """``pool`` read as the pool components read it: a pool of ``cloud``'s model, the keys
        of a former release under their names of today."""
        if cloud not in cloud_plans():
            raise PlanError(f"{where}: cloud {cloud!r} is none of {', '.join(cloud_plans())}")
        plan = cloud_plan(cloud)
        if isinstance(pool, dict):
            pool, _ = plan.former_pool_keys(pool, "pool")
        try:
            settings = gpu_pool_settings(plan.cloud, pool)
        except ValidationError as err:
            first = err.errors()[0]
            path = ".".join(str(p) for p in first["loc"])
            raise PlanError(f"{where}: pool {path}: {first['msg']}") from None
        known = self.facts.get(settings.name)
        if known is not None and known.pool == settings:
            return known
        try:
            facts = resolve_pool(plan.cloud, settings)
        except UnknownGpuFact as err:
            raise PlanError(f"{where}: pool {settings.name}: {err}") from None
        self.facts.setdefault(settings.name, facts)
        return facts

    def listed(self, args: dict[str, Any], where: str) -> list[PoolFacts]:
        pools = args.get("pools")
        if not isinstance(pools, list):
            return []
        cloud = str(args.get("cloud") or "existing")
        return [self.resolve(cloud, pool, where) for pool in pools]


def _labels(pools: _Pools, pf: PoolFacts) -> dict[str, str]:
    """The labels the pool's component gives its nodes, or an existing cluster's must carry."""
    provisioned = pools.provisioned.get(pf.name)
    if provisioned is None:
        return existing_node_labels(pf)
    cloud, workload_types = provisioned
    return cloud_plan(cloud).node_labels(pf, workload_types)


def _namespaces(
    found: _Components, pools: _Pools, action: str
) -> tuple[list[NamespaceExpectation], dict[str, list[PoolFacts]]]:
    namespaces, their_pools = [], {}
    found.workloads = {}
    for name, args in found.of("GpuWorkloadNamespace"):
        where = f"GpuWorkloadNamespace {name}"
        listed = pools.listed(args, where)
        quota = args.get("gpu_quota", args.get("gpu_quota_per_resource", 0))
        try:
            workload = WorkloadSettings.model_validate(
                {
                    "name": args.get("name"),
                    "type": args.get("type"),
                    "gpu_quota": quota,
                    "defaults": args.get("defaults") or {},
                }
            )
        except ValidationError as err:
            raise PlanError(f"{where}: {err.errors()[0]['msg']}") from None
        namespaces.append(
            NamespaceExpectation(
                workload.name,
                namespace_gpu_quota(workload, listed),
                action,
                (workload.defaults.cpu, workload.defaults.memory),
                only_amd(listed),
            )
        )
        their_pools[workload.name] = listed
        found.workloads[workload.name] = workload
    return namespaces, their_pools


def _exporter(found: _Components, pools: _Pools) -> tuple[ExporterExpectation | None, str]:
    operator = found.first("NvidiaGpuOperator")
    if operator is not None:
        watched = nvidia_pools(pools.listed(operator, "NvidiaGpuOperator"))
        namespace = str(operator.get("namespace") or GpuOperatorSettings().namespace)
        title = "GPU Operator's dcgm-exporter"
    elif (exporter := found.first("DcgmExporter")) is not None:
        watched = nvidia_pools(pools.listed(exporter, "DcgmExporter"))
        namespace = str(exporter.get("namespace") or MetricsSettings().namespace)
        title = "dcgm-exporter"
    else:
        return (
            None,
            "the plan registers no DcgmExporter (nor NvidiaGpuOperator): GPU metrics "
            "are not checked",
        )
    if not watched:
        return None, "no NVIDIA GPU pool in the plan: no dcgm-exporter to check"
    series = {pf.name: node_series(pf) for pf in watched}
    return ExporterExpectation(title, namespace, series, METRICS_PORT), ""


def _seeds(found: _Components, pools: _Pools, cloud: str) -> SeedExpectations:
    cluster = found.first("AksCluster")
    if cluster is not None:
        defaults = AksClusterSettings.model_fields
        channel = channel_applied(
            str(cluster.get("upgrade_channel") or defaults["upgrade_channel"].default),
            str(
                cluster.get("node_os_upgrade_channel")
                or defaults["node_os_upgrade_channel"].default
            ),
        )
        return SeedExpectations(cloud, tuple(map(seed_pool, pools.facts.values())), channel)
    not_aks = ""
    if cloud_plan(cloud).node_image_checks:
        not_aks = (
            "the plan's AKS pools are on a cluster it does not create (no AksCluster): its node "
            "OS channel and NVMe cache are not in the plan"
        )
    return SeedExpectations(cloud, tuple(map(seed_pool, pools.facts.values())), None, not_aks)


class PlanExpectations(NamedTuple):
    """What a plan's components promise: the rows of every check, AMD's, DRA's, the queues'."""

    exp: Expectations
    amd: AmdExpectation | None
    dra: DraExpectation | None
    queues: QueueExpectation | None


def plan_expectations(resources: Iterable[PlannedResource]) -> PlanExpectations:
    """What the cluster must show for the components of a plan; ``PlanError`` when it has
    none make verify checks."""
    found = _components(resources)
    if not any(found.of(component) for component in CHECKED):
        raise PlanError(
            "nothing to verify: the plan registers none of the components make verify checks ("
            + ", ".join(CHECKED)
            + ")"
        )
    pools = _Pools()
    for component, cloud in POOL_COMPONENTS.items():
        for name, args in found.of(component):
            facts = pools.resolve(cloud, args.get("pool"), f"{component} {name}")
            types = args.get("workload_types")
            pools.provisioned[facts.name] = (cloud, list(types) if isinstance(types, list) else [])
    for component in (*IN_CLUSTER, "DriverCheck", "GpuWorkloadNamespace", "GpuQueues"):
        for name, args in found.of(component):
            pools.listed(args, f"{component} {name}")
    clouds = {cloud for cloud, _ in pools.provisioned.values()}
    cloud = clouds.pop() if len(clouds) == 1 else "existing"
    if found.first("AksCluster") is not None:
        cloud = "aks"

    operator = found.first("NvidiaGpuOperator")
    plugin = found.first("NvidiaDevicePlugin")
    gfd_running = operator is not None or (plugin is not None and plugin.get("gfd", True) is True)
    if operator is not None:
        plugin_namespace = str(operator.get("namespace") or GpuOperatorSettings().namespace)
    else:
        plugin_namespace = str((plugin or {}).get("namespace") or DevicePluginSettings().namespace)
    policy = found.first("GpuAdmissionPolicy")
    action = "" if policy is None else str(policy.get("action") or "Deny")
    namespaces, namespace_pools = _namespaces(found, pools, action)
    check = found.first("DriverCheck") or {}
    exporter, skipped = _exporter(found, pools)
    all_pools = list(pools.facts.values())
    exp = Expectations(
        pools=[
            pool_nodes_expectation(pf, _labels(pools, pf), gfd_running)
            for pf in nvidia_pools(all_pools)
            if not pf.uses_dra  # DRA pools: their own rows (verify.dra_verify)
        ],
        namespaces=namespaces,
        plugin_namespace=plugin_namespace,
        min_driver_major=int(
            check.get("min_driver_major") or DriverCheckSettings().min_driver_major
        ),
        exporter=exporter,
        exporter_skipped=skipped,
        seeds=_seeds(found, pools, cloud),
        logs=_logs(found),
    )
    return PlanExpectations(
        exp,
        _amd(found, pools, namespace_pools),
        _dra(found, pools, namespaces, exp),
        _queues(found, pools),
    )


def _queues(found: _Components, pools: _Pools) -> QueueExpectation | None:
    """``GpuQueues``' flavours, ClusterQueues and LocalQueues, from its args as the component
    reads them (``plan.queues.queue_namespace``), through the stack path's builder."""
    entries = found.of("GpuQueues")
    if not entries:
        return None
    name, args = entries[0]
    where = f"GpuQueues {name}"
    listed = pools.listed(args, where)
    given = args.get("namespaces")
    try:
        settings = QueuesSettings.model_validate(
            {key: value for key, value in args.items() if key in QueuesSettings.model_fields}
        )
        workloads = [
            WorkloadSettings.model_validate(queue_namespace(_args(namespace)))
            for namespace in (given if isinstance(given, list) else [])
            if isinstance(namespace, dict)
        ]
    except ValidationError as err:
        first = err.errors()[0]
        path = ".".join(str(p) for p in first["loc"])
        raise PlanError(f"{where}: {path}: {first['msg']}") from None
    return queues_expectation(settings, {pf.name: pf for pf in listed}, workloads)


def _logs(found: _Components) -> LogExpectation | None:
    """AksMonitoring collects logs when it is given a Log Analytics workspace; AckMonitoring
    unless ``logs: false``, into one log config per namespace."""
    aks, ack = found.first("AksMonitoring"), found.first("AckMonitoring")
    if aks is not None and "log_analytics_workspace_id" in aks:
        return _collected("AksMonitoring", aks.get("log_namespaces") or [])
    if ack is not None and ack.get("logs", True) is not False and ack.get("log_namespaces"):
        return _collected("AckMonitoring", ack["log_namespaces"])
    return None


def _collected(component: str, namespaces: Iterable[str]) -> LogExpectation | None:
    collector = cloud_plan(LOG_COMPONENTS[component]).container_logs
    return None if collector is None else LogExpectation(collector, tuple(sorted(namespaces)))


def _dra(
    found: _Components,
    pools: _Pools,
    namespaces: list[NamespaceExpectation],
    exp: Expectations,
) -> DraExpectation | None:
    """NVIDIA's DRA driver and the pools it serves (``allocation: dra``), with each
    namespace's claim quota as ``GpuWorkloadNamespace`` writes it."""
    driver = found.first("NvidiaDraDriver")
    served = dra_pools(pools.facts.values())
    if driver is None or not served:
        return None
    classes = cluster_device_classes(pools.facts.values())
    listed = {ns: pools.listed(args, "GpuWorkloadNamespace") for ns, args in _named(found)}
    quotas = {
        ns.name: {
            key: int(value)
            for key, value in claim_quota(
                found.workloads[ns.name], listed[ns.name], classes
            ).items()
        }
        for ns in namespaces
    }
    return DraExpectation(
        namespace=str(driver.get("namespace") or DraDriverSettings().namespace),
        pools=[
            dra_pool_of(
                pool_nodes_expectation(pf, _labels(pools, pf), False), pf, exp.min_driver_major
            )
            for pf in served
        ],
        claim_quotas=quotas,
    )


def _named(found: _Components) -> list[tuple[str, dict[str, Any]]]:
    """Each workload namespace's name with its component's args."""
    return [(str(args.get("name")), args) for _, args in found.of("GpuWorkloadNamespace")]


def _amd(
    found: _Components, pools: _Pools, namespace_pools: dict[str, list[PoolFacts]]
) -> AmdExpectation | None:
    operator = found.first("AmdGpuOperator")
    served = amd_pools(pools.facts.values())
    if operator is None or not served:
        return None
    names = {pf.name for pf in served}
    return AmdExpectation(
        namespace=str(operator.get("namespace") or AmdGpuOperatorSettings().namespace),
        pools=[
            amd_pool_of(pool_nodes_expectation(pf, _labels(pools, pf), False), pf) for pf in served
        ],
        workload_namespaces=[
            ns for ns, listed in namespace_pools.items() if any(pf.name in names for pf in listed)
        ],
    )
