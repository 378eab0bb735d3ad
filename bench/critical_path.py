"""The modelled ``pulumi up`` critical path of a plan, against the chain no plan can avoid.

``pulumi up`` creates a resource once everything it waits for exists (``offline_preview.graph``)
and runs independent creations in parallel, so the time to a finished ``up`` is the longest
path through the plan's dependency graph, each resource weighted by how long its creation
takes. No plan gets below the GPU pools: a pool needs its cluster, and the driver check of a
pool needs its nodes. The unavoidable chain is therefore cluster -> GPU pool -> that pool's
check (with whatever the cluster itself waits for). A plan whose critical path is longer makes
something else wait for a pool (or for a chart that waited for all of them), and one pool's
failure then holds that back too.

Creation times are per resource type (``DURATIONS``), each with where it comes from; none of
them is measured here (no cloud is reached), so most are labelled estimates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gpu_platform.components.type_tokens import type_token
from gpu_platform.offline_preview.graph import waits_for

if TYPE_CHECKING:
    from gpu_platform.offline_preview import PreviewResult

POOL_PARENT_TYPES = frozenset({type_token("AksGpuNodePool"), type_token("AckGpuNodePool")})
"""Components whose custom resources are the GPU pools themselves."""
CHECK_PARENT_TYPE = type_token("DriverCheck")
CHECK_TYPE = "kubernetes:batch/v1:Job"


@dataclass(frozen=True)
class Duration:
    minutes: float
    source: str


ESTIMATE = "estimate"
DURATIONS: dict[str, Duration] = {
    "azure-native:containerservice:ManagedCluster": Duration(
        8, f"{ESTIMATE}: AKS control plane and system pool; Microsoft gives no figure"
    ),
    "azure-native:containerservice:AgentPool": Duration(
        10, f"{ESTIMATE}: VMs allocated and booted (GPU pools: from the AKS GPU node image)"
    ),
    "alicloud:cs/managedKubernetes:ManagedKubernetes": Duration(
        8, f"{ESTIMATE}: ACK Pro control plane; Alibaba Cloud gives no firm figure"
    ),
    "alicloud:cs/nodePool:NodePool": Duration(
        10, f"{ESTIMATE}: ECS instances (GPU, CPU or system) created and joined"
    ),
    "kubernetes:helm.sh/v3:Release": Duration(
        2, f"{ESTIMATE}: Pulumi waits for the release's workloads to be ready (image pulls)"
    ),
    CHECK_TYPE: Duration(
        3,
        f"{ESTIMATE}: CUDA image pulled on a new node, then nvidia-smi; Pulumi waits for "
        "completion (deadline 30 min: plan.driver_checks.CHECK_DEADLINE_SECONDS)",
    ),
    "azure-native:kubernetesconfiguration:Extension": Duration(
        5, f"{ESTIMATE}: Azure Container Storage's installer rolled out"
    ),
    "azure-native:operationalinsights:Workspace": Duration(1, ESTIMATE),
    "azure-native:monitor:AzureMonitorWorkspace": Duration(1, ESTIMATE),
    "azure-native:resources:ResourceGroup": Duration(0.1, ESTIMATE),
}
KUBERNETES_OBJECT = Duration(0.05, f"{ESTIMATE}: one API call (any other kubernetes: type)")
OTHER_CLOUD_RESOURCE = Duration(0.5, f"{ESTIMATE}: any other cloud resource")
NOTHING_CREATED = Duration(0, "components and providers create nothing in the cloud")


def duration(resource_type: str) -> Duration:
    """How long creating a resource of ``resource_type`` takes in the model."""
    if resource_type in DURATIONS:
        return DURATIONS[resource_type]
    if resource_type.startswith(("gpu-platform:", "pulumi:")):
        return NOTHING_CREATED
    if resource_type.startswith("kubernetes:"):
        return KUBERNETES_OBJECT
    return OTHER_CLOUD_RESOURCE


def finish_times(graph: Mapping[str, Iterable[str]], cost: Mapping[str, float]) -> dict[str, float]:
    """When each resource is created, starting at 0 with everything in parallel that may be:
    its own cost after the latest of what it waits for. Raises ``ValueError`` on a cycle."""
    finish: dict[str, float] = {}
    visiting: set[str] = set()
    for start in graph:
        stack: list[tuple[str, bool]] = [(start, False)]
        while stack:
            node, expanded = stack.pop()
            if node in finish:
                continue
            edges = [e for e in graph.get(node, ()) if e in graph]
            if expanded:
                visiting.discard(node)
                finish[node] = cost.get(node, 0.0) + max((finish[e] for e in edges), default=0.0)
                continue
            if node in visiting:
                raise ValueError(f"dependency cycle through {node}")
            visiting.add(node)
            stack.append((node, True))
            stack.extend((e, False) for e in edges if e not in finish)
    return finish


def _path_to(
    node: str, graph: Mapping[str, Iterable[str]], finish: Mapping[str, float]
) -> list[str]:
    """The chain that decides ``node``'s finish time, first resource first."""
    path = [node]
    while True:
        edges = [e for e in graph.get(path[-1], ()) if e in finish]
        if not edges:
            return list(reversed(path))
        path.append(max(edges, key=lambda e: (finish[e], e)))


@dataclass(frozen=True)
class Chain:
    minutes: float
    path: tuple[str, ...]
    """URNs, first created first."""


def critical_path(graph: Mapping[str, Iterable[str]], cost: Mapping[str, float]) -> Chain:
    """The longest chain of the graph: the modelled duration of ``up``."""
    finish = finish_times(graph, cost)
    if not finish:
        return Chain(0.0, ())
    last = max(finish, key=lambda n: (finish[n], n))
    return Chain(finish[last], tuple(_path_to(last, graph, finish)))


def unavoidable_chain(
    graph: Mapping[str, Iterable[str]],
    cost: Mapping[str, float],
    checks_of: Mapping[str, Iterable[str]],
) -> Chain:
    """The longest of: each GPU pool (a key of ``checks_of``) with everything it needs, then
    the longest of its own checks. What any other dependency of a check adds is not
    unavoidable, so it is left out."""
    finish = finish_times(graph, cost)
    best = Chain(0.0, ())
    for pool, checks in checks_of.items():
        ends = [(cost.get(c, 0.0), c) for c in checks]
        tail, check = max(ends, default=(0.0, ""))
        chain = Chain(
            finish[pool] + tail, (*_path_to(pool, graph, finish), *([check] if check else []))
        )
        if chain.minutes > best.minutes:
            best = chain
    return best


@dataclass(frozen=True)
class PlanTiming:
    stack: str
    critical: Chain
    unavoidable: Chain
    names: dict[str, str]
    """URN -> ``type name`` for the report."""

    @property
    def at_floor(self) -> bool:
        return abs(self.critical.minutes - self.unavoidable.minutes) < 1e-9

    def as_dict(self) -> dict[str, Any]:
        return {
            "stack": self.stack,
            "critical_minutes": self.critical.minutes,
            "critical_path": [self.names[u] for u in self.critical.path],
            "unavoidable_minutes": self.unavoidable.minutes,
            "unavoidable_path": [self.names[u] for u in self.unavoidable.path],
            "at_floor": self.at_floor,
        }


def plan_timing(stack: str, resources: Sequence[Mapping[str, Any]]) -> PlanTiming:
    """The model applied to a JSON plan's resources (``offline_preview.render.as_document``)."""
    graph = waits_for(resources)
    types = {r["urn"]: r["type"] for r in resources}
    cost = {r["urn"]: duration(r["type"]).minutes for r in resources}
    pools = {r["urn"] for r in resources if types.get(r.get("parent") or "") in POOL_PARENT_TYPES}
    checks_of: dict[str, list[str]] = {pool: [] for pool in pools}
    for r in resources:
        if r["type"] == CHECK_TYPE and types.get(r.get("parent") or "") == CHECK_PARENT_TYPE:
            for pool in pools & set(r.get("dependsOn", ())):
                checks_of[pool].append(r["urn"])
    names = {r["urn"]: f"{r['type']} {r['name']}" for r in resources}
    return PlanTiming(
        stack, critical_path(graph, cost), unavoidable_chain(graph, cost, checks_of), names
    )


TIMED_STACKS = ("dev", "prod")
"""The stacks whose plans ``make bench`` times (their pools get driver checks)."""


def stack_timings(
    stacks: Iterable[str] = TIMED_STACKS,
    preview_of: Callable[[str], PreviewResult] | None = None,
) -> list[PlanTiming]:
    """Each stack's plan through the offline preview (``preview_of``: a stack's preview, for a
    caller that already has it), then the model."""
    from gpu_platform.offline_preview import preview
    from gpu_platform.offline_preview.render import as_document

    timings = []
    for stack in stacks:
        result = preview_of(stack) if preview_of else preview(stack=stack)
        document = as_document(result.run, result.violations)
        timings.append(plan_timing(stack, document["resources"]))
    return timings


def _created(chain: Chain, timing: PlanTiming) -> str:
    """The chain's resources that take time, by name."""
    kept = [timing.names[u] for u in chain.path if duration(timing.names[u].split()[0]).minutes]
    return " -> ".join(name.split()[1] for name in kept)


def report_lines(timings: list[PlanTiming]) -> list[str]:
    """The durations table, then per stack the modelled critical path against the floor."""
    lines = ["Modelled `pulumi up` critical path (minutes per resource type; source)"]
    for resource_type, item in sorted(DURATIONS.items()):
        lines.append(f"  {item.minutes:>5g}  {resource_type:<50}{item.source}")
    for label, item in (
        ("other kubernetes:", KUBERNETES_OBJECT),
        ("other cloud types", OTHER_CLOUD_RESOURCE),
        ("components, providers", NOTHING_CREATED),
    ):
        lines.append(f"  {item.minutes:>5g}  {label:<50}{item.source}")
    for t in timings:
        verdict = "at the floor" if t.at_floor else "LONGER than the floor"
        lines += [
            f"  {t.stack}: critical path {t.critical.minutes:.1f} min, unavoidable chain "
            f"{t.unavoidable.minutes:.1f} min: {verdict}",
            f"    critical:    {_created(t.critical, t)}",
            f"    unavoidable: {_created(t.unavoidable, t)}",
        ]
    return lines
