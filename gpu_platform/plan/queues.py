"""Queues: Kueue's ResourceFlavors, ClusterQueues and LocalQueues as the stack config means them
(docs/queues.md).

- One **ResourceFlavor per GPU pool**, named after it: its ``nodeLabels`` and ``tolerations``
  (and ``nodeTaints``) are the pool's placement, ``pools.pool_placement``, the very
  function the pool components label and taint the nodes with. Kueue writes the labels into an
  admitted pod's ``nodeSelector`` and appends the tolerations, so a queued pod lands on its
  flavour's pool and nowhere else.
- One **ClusterQueue per workload type**, named after it, admitting that type's namespaces
  only. It covers every GPU resource of the cluster (0 where the type has none, so a pod asking
  for a GPU its type has no quota for waits, visibly, instead of being admitted), with a
  flavour per pool its namespaces may use. The **nominal quota** of a flavour and resource is
  the namespaces' ``gpuQuota``: a namespace's quota of a resource several of its pools expose
  is split across them by their size, and where the types together ask a pool for more than it
  holds they share it in proportion to what they ask (a warning says so). So no flavour ever
  promises more than its pool holds, and the types' quotas add up to the namespaces'.
- Every ClusterQueue joins one **cohort** and lends its idle quota to the others, which borrow
  it; what one lent, it takes back by preemption (``reclaimWithinCohort: Any``). Inference does
  not borrow by default, so no reclaim ever preempts a serving pod; per type, borrowing and
  lending limits (a percentage of the type's own nominal quota) and the preemption policy are
  config.
- One **LocalQueue per workload namespace**, named like its type: GPU workloads name it in the
  label ``kueue.x-k8s.io/queue-name`` (the in-cluster admission policy refuses a GPU workload
  there that does not). The namespace carries ``gpu-platform.io/local-queue: <name>``, which
  also confines Kueue's webhooks to the queued namespaces.

ClusterQueues cover GPU resources only: Kueue checks no other resource against them
(``resources.quotaCheckStrategy: IgnoreUndeclared``), and the namespace's ResourceQuota stays
the hard cap on everything, GPUs included.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gpu_facts import kueue
from gpu_facts.dra import device_class_quota_key, quota_key_device_class
from gpu_facts.network_policy import NAMESPACE_NAME_LABEL
from gpu_facts.nvidia.device_plugin_chart import at_least
from gpu_facts.scheduling import Taint
from gpu_platform.settings import QueuesSettings, QueueTypeSettings, WorkloadSettings

from .pools import PoolFacts, pool_placement, workload_pools
from .problems import Problem

INFERENCE = "inference"
"""The workload type that never borrows unless told to (docs/queues.md)."""


def apportion(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` split in proportion to ``weights`` (whole numbers, largest remainder first;
    ties to the earlier). All-zero weights share evenly."""
    if not weights:
        return []
    if not any(weights):
        weights = [1] * len(weights)
    whole = sum(weights)
    exact = [total * w / whole for w in weights]
    shares = [int(x) for x in exact]
    left = total - sum(shares)
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - shares[i]), i))
    for i in order[:left]:
        shares[i] += 1
    return shares


def queue_resources(pool: PoolFacts) -> dict[str, int]:
    """What one node of the pool holds, by the resource a ClusterQueue quotas it under: the
    extended resources its device plugin advertises, and on a DRA pool its devices per
    DeviceClass as ``<class>.deviceclass.resource.k8s.io/devices`` (the ResourceQuota's key,
    ``gpu_facts.dra``), which Kueue charges claims of that class to (``device_class_mappings``)."""
    devices = {device_class_quota_key(c): n for c, n in pool.capacity.devices.items()}
    return {**pool.capacity.per_node, **devices}


def queue_totals(pool: PoolFacts) -> dict[str, int]:
    """``queue_resources`` at the pool's largest size."""
    return {r: n * pool.capacity.max_nodes for r, n in queue_resources(pool).items()}


def device_class_mappings(pools: Iterable[PoolFacts]) -> list[dict[str, Any]]:
    """Kueue's ``resources.deviceClassMappings``: each DeviceClass a DRA pool publishes, under
    the resource name its ClusterQueues quota it as (``queue_resources``)."""
    classes = sorted({c for pf in pools for c in pf.capacity.devices})
    return [{"name": device_class_quota_key(c), "deviceClassNames": [c]} for c in classes]


@dataclass(frozen=True, slots=True)
class Flavor:
    """One ResourceFlavor: a GPU pool as Kueue sees it."""

    name: str
    pool: str
    node_labels: Mapping[str, str]
    node_taints: tuple[Taint, ...]
    tolerations: tuple[Mapping[str, str], ...]

    def spec(self) -> dict[str, Any]:
        """The ResourceFlavor's ``spec``."""
        return {
            "nodeLabels": dict(self.node_labels),
            "nodeTaints": [
                {"key": t.key, "value": t.value, "effect": t.effect} for t in self.node_taints
            ],
            "tolerations": [dict(t) for t in self.tolerations],
        }


def pool_flavor(pool: PoolFacts) -> Flavor:
    """The pool's flavour: its placement, from ``pools.pool_placement``."""
    placement = pool_placement(pool)
    return Flavor(
        name=pool.name,
        pool=pool.name,
        node_labels=dict(placement.labels),
        node_taints=placement.taints,
        tolerations=tuple(placement.tolerations()),
    )


@dataclass(frozen=True, slots=True)
class Quota:
    """A ClusterQueue's quota of one GPU resource in one flavour."""

    nominal: int
    borrowing_limit: int | None = None
    """None: no limit."""
    lending_limit: int | None = None
    """None: all of the nominal quota may be lent."""

    def as_resource(self, resource: str) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": resource, "nominalQuota": self.nominal}
        if self.borrowing_limit is not None:
            entry["borrowingLimit"] = self.borrowing_limit
        if self.lending_limit is not None:
            entry["lendingLimit"] = self.lending_limit
        return entry


@dataclass(frozen=True, slots=True)
class TypePolicy:
    """A workload type's sharing, its defaults resolved."""

    borrowing_limit_percent: int | None
    lending_limit_percent: int | None
    reclaim_within_cohort: str
    within_cluster_queue: str
    borrow_within_cohort: str


def type_policy(workload_type: str, settings: QueueTypeSettings | None) -> TypePolicy:
    """The type's settings; ``borrow`` unset: every type but inference borrows."""
    given = settings or QueueTypeSettings()
    borrows = given.borrow if given.borrow is not None else workload_type != INFERENCE
    borrowing = given.borrowing_limit_percent if borrows else 0
    lending = given.lending_limit_percent
    return TypePolicy(
        borrowing_limit_percent=borrowing,
        lending_limit_percent=None if lending == 100 else lending,
        reclaim_within_cohort=given.reclaim_within_cohort,
        within_cluster_queue=given.within_cluster_queue,
        borrow_within_cohort=given.borrow_within_cohort,
    )


def _share(nominal: int, percent: int | None) -> int | None:
    return None if percent is None else nominal * percent // 100


@dataclass(frozen=True, slots=True)
class ClusterQueue:
    """One workload type's ClusterQueue."""

    name: str
    namespaces: tuple[str, ...]
    cohort: str
    queueing_strategy: str
    policy: TypePolicy
    covered: tuple[str, ...]
    """Every GPU resource of the cluster, sorted."""
    quotas: Mapping[str, Mapping[str, int]]
    """Flavour (in order) -> resource -> nominal quota; a resource it does not name is 0."""

    def quota(self, flavor: str, resource: str) -> Quota:
        nominal = self.quotas.get(flavor, {}).get(resource, 0)
        return Quota(
            nominal,
            _share(nominal, self.policy.borrowing_limit_percent),
            _share(nominal, self.policy.lending_limit_percent),
        )

    def spec(self) -> dict[str, Any]:
        """The ClusterQueue's ``spec``: its type's namespaces by name (``null`` would admit
        none, ``{}`` every namespace), one resource group over the cluster's GPU resources."""
        groups = (
            [
                {
                    "coveredResources": list(self.covered),
                    "flavors": [
                        {
                            "name": flavor,
                            "resources": [
                                self.quota(flavor, resource).as_resource(resource)
                                for resource in self.covered
                            ],
                        }
                        for flavor in self.quotas
                    ],
                }
            ]
            if self.quotas and self.covered
            else []
        )
        preemption: dict[str, Any] = {
            "reclaimWithinCohort": self.policy.reclaim_within_cohort,
            "withinClusterQueue": self.policy.within_cluster_queue,
            "borrowWithinCohort": {"policy": self.policy.borrow_within_cohort},
        }
        return {
            "cohortName": self.cohort,
            "namespaceSelector": {
                "matchExpressions": [
                    {
                        "key": NAMESPACE_NAME_LABEL,
                        "operator": "In",
                        "values": sorted(self.namespaces),
                    }
                ]
            },
            "queueingStrategy": self.queueing_strategy,
            "preemption": preemption,
            "resourceGroups": groups,
        }


@dataclass(frozen=True, slots=True)
class LocalQueue:
    namespace: str
    name: str
    cluster_queue: str

    def spec(self) -> dict[str, Any]:
        return {"clusterQueue": self.cluster_queue}


@dataclass(frozen=True)
class QueuesPlan:
    """Every queue object of the stack, and what the config is warned about."""

    flavors: tuple[Flavor, ...]
    cluster_queues: tuple[ClusterQueue, ...]
    local_queues: tuple[LocalQueue, ...]
    warnings: list[str] = field(default_factory=list)

    def local_queue(self, namespace: str) -> LocalQueue | None:
        return next((q for q in self.local_queues if q.namespace == namespace), None)


def local_queue_name(workload: WorkloadSettings) -> str:
    """A namespace's LocalQueue: named like its workload type."""
    return workload.type


def _asked(workload: WorkloadSettings, resource: str) -> int:
    """The namespace's ``gpuQuota`` of a queue resource: one number for all, else its entry
    (a DRA pool's devices are keyed by their DeviceClass there, as ``dra_claims.claim_quota``
    reads it)."""
    if isinstance(workload.gpu_quota, int):
        return workload.gpu_quota
    device_class = quota_key_device_class(resource)
    return workload.gpu_quota.get(device_class or resource, 0)


def type_demands(
    workloads: Sequence[WorkloadSettings], pools: Mapping[str, PoolFacts]
) -> dict[tuple[str, str, str], int]:
    """(type, pool, resource) -> the GPUs the type's namespaces ask of the pool: each
    namespace's quota of a resource, split across its pools that expose it by their size."""
    demands: dict[tuple[str, str, str], int] = defaultdict(int)
    for wl in workloads:
        allowed = workload_pools(wl, pools)
        offered = sorted({r for pf in allowed for r in queue_resources(pf)})
        for resource in offered:
            holders = [pf for pf in allowed if resource in queue_resources(pf)]
            sizes = [queue_totals(pf).get(resource, 0) for pf in holders]
            for pf, share in zip(holders, apportion(_asked(wl, resource), sizes), strict=True):
                demands[(wl.type, pf.name, resource)] += share
    return demands


def nominal_quotas(
    demands: Mapping[tuple[str, str, str], int], pools: Mapping[str, PoolFacts]
) -> tuple[dict[tuple[str, str, str], int], list[str]]:
    """The demands, each pool and resource capped at what the pool holds (the types share it in
    proportion to their asks), and a warning per pool and resource that was capped."""
    by_slot: dict[tuple[str, str], list[tuple[str, int]]] = defaultdict(list)
    for (workload_type, pool, resource), asked in sorted(demands.items()):
        by_slot[(pool, resource)].append((workload_type, asked))
    nominal: dict[tuple[str, str, str], int] = {}
    warnings: list[str] = []
    for (pool, resource), asks in by_slot.items():
        holds = queue_totals(pools[pool]).get(resource, 0)
        wanted = sum(asked for _, asked in asks)
        shares = (
            [asked for _, asked in asks]
            if wanted <= holds
            else apportion(holds, [asked for _, asked in asks])
        )
        if wanted > holds:
            given = ", ".join(f"{t} {s}" for (t, _), s in zip(asks, shares, strict=True))
            warnings.append(
                f"queues: the namespaces ask pool {pool!r} for {wanted} {resource}, more than it "
                f"holds ({holds}); the ClusterQueues' nominal quotas share it: {given}"
            )
        for (workload_type, _), share in zip(asks, shares, strict=True):
            nominal[(workload_type, pool, resource)] = share
    return nominal, warnings


def queue_namespace(namespace: Mapping[str, Any]) -> dict[str, Any]:
    """One queued namespace as ``GpuQueues`` takes it (``name``, ``type``, ``gpu_quota`` or
    ``gpu_quota_per_resource``, ``pools``) in the shape ``WorkloadSettings`` reads: a quota per
    resource under ``gpu_quota``, as the stack config writes it. The component and ``make verify
    --plan`` read its namespaces so."""
    raw = {key: value for key, value in namespace.items() if key != "gpu_quota_per_resource"}
    if "gpu_quota_per_resource" in namespace:
        raw["gpu_quota"] = namespace["gpu_quota_per_resource"]
    return raw


def queues_plan(
    settings: QueuesSettings,
    pools: Mapping[str, PoolFacts],
    workloads: Sequence[WorkloadSettings],
) -> QueuesPlan:
    """The queue objects of a config that passed ``queue_problems``."""
    flavors = tuple(pool_flavor(pf) for pf in pools.values())
    covered = tuple(sorted({r for pf in pools.values() for r in queue_resources(pf)}))
    nominal, warnings = nominal_quotas(type_demands(workloads, pools), pools)
    types: dict[str, list[WorkloadSettings]] = {}
    for wl in workloads:
        types.setdefault(wl.type, []).append(wl)
    queues = []
    for workload_type, members in types.items():
        used = {pf.name: pf for wl in members for pf in workload_pools(wl, pools)}
        quotas = {
            name: {
                r: nominal.get((workload_type, name, r), 0)
                for r in covered
                if nominal.get((workload_type, name, r), 0)
            }
            for name in pools
            if name in used
        }
        queues.append(
            ClusterQueue(
                name=workload_type,
                namespaces=tuple(wl.name for wl in members),
                cohort=settings.cohort,
                queueing_strategy=settings.queueing_strategy,
                policy=type_policy(workload_type, settings.types.get(workload_type)),
                covered=covered,
                quotas=quotas,
            )
        )
    local = tuple(LocalQueue(wl.name, local_queue_name(wl), wl.type) for wl in workloads)
    return QueuesPlan(flavors, tuple(queues), local, warnings)


# --- problems of the queues section, paths relative to it ------------------------------------


def queue_problems(
    settings: QueuesSettings,
    pools: Iterable[PoolFacts],
    workloads: Sequence[WorkloadSettings],
) -> list[Problem]:
    """What Kueue or the platform would refuse in the queues section next to the workloads and
    pools it queues; paths relative to ``queues``."""
    problems: list[Problem] = []
    try:
        if not at_least(settings.version, kueue.MIN_VERSION):
            problems.append(
                (
                    "version",
                    f"{settings.version} is older than {kueue.MIN_VERSION}: the ClusterQueues "
                    "cover GPU resources only, which needs quotaCheckStrategy IgnoreUndeclared "
                    "(beta from Kueue 0.19)",
                )
            )
    except ValueError:
        problems.append(("version", f"not a chart version: {settings.version!r}"))
    if not workloads:
        problems.append(("", "no workload namespaces to queue: add workloads, or drop queues"))
    types = sorted({wl.type for wl in workloads})
    for name, policy in settings.types.items():
        if workloads and name not in types:
            problems.append(
                (f"types.{name}", f"no workload namespace has type {name!r}; types: {types}")
            )
        if policy.borrow_within_cohort != "Never" and policy.reclaim_within_cohort == "Never":
            problems.append(
                (
                    f"types.{name}.borrowWithinCohort",
                    "Kueue refuses borrowWithinCohort other than Never while "
                    "reclaimWithinCohort is Never",
                )
            )
    pool_list = list(pools)
    resources = {r for pf in pool_list for r in queue_resources(pf)}
    if len(resources) > kueue.COVERED_RESOURCES_MAX:
        problems.append(
            (
                "",
                f"the pools expose {len(resources)} GPU resources; a ClusterQueue covers at "
                f"most {kueue.COVERED_RESOURCES_MAX}",
            )
        )
    mappings = device_class_mappings(pool_list)
    if len(mappings) > kueue.DEVICE_CLASS_MAPPINGS_MAX:
        problems.append(
            (
                "",
                f"the DRA pools publish {len(mappings)} DeviceClasses; Kueue maps at most "
                f"{kueue.DEVICE_CLASS_MAPPINGS_MAX}",
            )
        )
    if len(pool_list) > kueue.FLAVORS_MAX:
        problems.append(
            (
                "",
                f"{len(pool_list)} GPU pools; a ClusterQueue takes at most "
                f"{kueue.FLAVORS_MAX} flavours",
            )
        )
    return problems
