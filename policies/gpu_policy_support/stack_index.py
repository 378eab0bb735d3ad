"""Stack-policy helpers: resources indexed by type once, so stack policies stay linear."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from pulumi_policy import PolicyResource
from pulumi_policy.proxy import UnknownValueError

from gpu_facts.scheduling import GPU_NAMESPACE_LABEL, WORKLOAD_TYPE_LABEL

from .claims import GpuDemand, StackClaims, gpu_demand, stack_claims
from .driver_checks import is_driver_check
from .pod_specs import PodSite, is_cluster_scoped, known_namespace, pod_bearing, pod_sites
from .policy_factory import Config, exempt_names, exempt_namespaces, is_exempt
from .props import mapping, path, text
from .resource_types import NAMESPACE, canonical_type

# BP-07: workload namespaces are labelled with their type (workload: training).
WORKLOAD_LABEL = WORKLOAD_TYPE_LABEL
GPU_NAMESPACE_LABELS: tuple[str, ...] = (WORKLOAD_LABEL, GPU_NAMESPACE_LABEL)


def index_by_type(resources: Iterable[PolicyResource]) -> dict[str, list[PolicyResource]]:
    """Resources by type: the canonical type (``resource_types.canonical_type``), so an
    azure-native AKS pool at an explicit API version is found where the default one is."""
    index: dict[str, list[PolicyResource]] = defaultdict(list)
    for resource in resources:
        index[canonical_type(resource.resource_type)].append(resource)
    return index


def object_name(resource: PolicyResource) -> str:
    """A Kubernetes object's metadata.name, else the Pulumi resource name."""
    return text(path(resource.props, "metadata", "name")) or resource.name


def declared_namespaces(
    index: Mapping[str, list[PolicyResource]],
) -> tuple[dict[str, PolicyResource], list[tuple[PolicyResource, UnknownValueError]]]:
    """The Namespaces the program declares, by name; apart, those whose name is known only
    after apply (``generateName``: the API server names them), for ``UnknownInResources``."""
    named: dict[str, PolicyResource] = {}
    unknown: list[tuple[PolicyResource, UnknownValueError]] = []
    for namespace in index[NAMESPACE]:
        try:
            named[object_name(namespace)] = namespace
        except UnknownValueError as err:
            unknown.append((namespace, err))
    return named, unknown


def is_gpu_namespace(resource: PolicyResource) -> bool:
    """A Namespace labelled as a GPU workload namespace."""
    labels = mapping(path(resource.props, "metadata", "labels"))
    return any(label in labels for label in GPU_NAMESPACE_LABELS)


def workload_namespace(resource: PolicyResource) -> str | None:
    """The namespace a workload's pods run in (unset: ``default``); None when it is unknown at
    preview."""
    return known_namespace(resource.props)


def site_demand(resource: PolicyResource, site: PodSite, claims: StackClaims) -> GpuDemand:
    """What GPUs one pod of a resource asks for: resources, or claims in its namespace."""
    return gpu_demand(site.spec, workload_namespace(resource), claims)


class UnknownInResources(UnknownValueError):
    """Values unknown at preview kept a stack policy from judging some resources (it judged
    the others): the analyzer reports the policy as not run during preview, advisory, as it
    reports a resource policy that meets an unknown value, with the resources named."""

    def __init__(self, unknown: Sequence[tuple[PolicyResource, UnknownValueError]]) -> None:
        first = unknown[0][1]
        super().__init__(first.unknown_type_sentinel, first.props)
        self.unknown = list(unknown)
        self.resources = list({resource.urn: resource for resource, _ in unknown}.values())
        self.message = (
            f"{first.message} (in {workload_names(self.resources)}; the stack's other "
            "resources were judged)"
        )


class GpuWorkloads(dict[str, list[PolicyResource]]):
    """Namespace -> the GPU workloads the stack runs there (``gpu_workload_namespaces``), and
    the workloads a value unknown at preview kept out of it."""

    def __init__(self) -> None:
        super().__init__()
        self.unknown: list[tuple[PolicyResource, UnknownValueError]] = []


def raise_if_unknown(*unknown: Sequence[tuple[PolicyResource, UnknownValueError]]) -> None:
    """``UnknownInResources`` naming the resources of ``unknown``, if any."""
    found = [pair for pairs in unknown for pair in pairs]
    if found:
        raise UnknownInResources(found)


def judged_apart(*parts: Callable[[], None]) -> None:
    """Runs every part of a stack policy's check: values unknown at preview that stop one part
    (``UnknownInResources``, raised once it judged what it could) stop no other; they are
    raised together after the last."""
    unknown: list[tuple[PolicyResource, UnknownValueError]] = []
    for part in parts:
        try:
            part()
        except UnknownInResources as err:
            unknown.extend(err.unknown)
    raise_if_unknown(unknown)


def gpu_workload_namespaces(
    index: Mapping[str, list[PolicyResource]], claims: StackClaims | None = None
) -> GpuWorkloads:
    """Namespace -> the GPU workloads the stack runs there: every pod-bearing resource that
    asks for a GPU resource or claims a GPU DeviceClass (``claims``), except driver checks
    (BP-05 probes of a pool, not a workload type) and cluster-wide runtimes (their pods run
    where they are used). A workload whose namespace is unknown at preview is left out; unset
    means ``default``. One whose GPU demand a value unknown at preview hides (a claim's name)
    is left out too, and kept in ``unknown`` (for ``raise_if_unknown``)."""
    claims = stack_claims(index) if claims is None else claims
    found = GpuWorkloads()
    for resource_type, resources in index.items():
        if pod_bearing(resource_type) is None or is_cluster_scoped(resource_type):
            continue
        for resource in resources:
            namespace = workload_namespace(resource)
            if namespace is None:
                continue
            try:
                sites = pod_sites(resource_type, resource.props)
                if not any(gpu_demand(site.spec, namespace, claims) for site in sites):
                    continue
                if is_driver_check(resource_type, resource.props):
                    continue
            except UnknownValueError as err:
                found.unknown.append((resource, err))
                continue
            found.setdefault(namespace, []).append(resource)
    return found


def pod_resources(
    index: Mapping[str, list[PolicyResource]], config: Config | None = None
) -> Iterator[tuple[str, PolicyResource]]:
    """Every pod-bearing resource of the stack, with its type; without the resources ``config``
    exempts."""
    for resource_type, resources in index.items():
        if pod_bearing(resource_type) is None:
            continue
        for resource in resources:
            if config is not None and is_exempt(resource.name, resource.props, config):
                continue
            yield resource_type, resource


def stack_pods(
    index: Mapping[str, list[PolicyResource]], config: Config | None = None
) -> Iterator[tuple[PolicyResource, PodSite]]:
    """Every pod of the stack's pod-bearing resources (a Deployment's one, a RayCluster's
    head and workers), with its resource; without the resources ``config`` exempts."""
    for resource_type, resource in pod_resources(index, config):
        for site in pod_sites(resource_type, resource.props):
            yield resource, site


def workload_names(workloads: list[PolicyResource]) -> str:
    return ", ".join(f"'{w.name}'" for w in workloads[:3]) + (", ..." if len(workloads) > 3 else "")


def _gpu_pods_of(
    resource_type: str, resource: PolicyResource, claims: StackClaims
) -> Iterator[tuple[PodSite, GpuDemand]]:
    for site in pod_sites(resource_type, resource.props):
        demand = site_demand(resource, site, claims)
        if demand:
            yield site, demand


def stack_gpu_pods(
    index: Mapping[str, list[PolicyResource]],
    config: Config | None = None,
    claims: StackClaims | None = None,
) -> Iterator[tuple[PolicyResource, PodSite, GpuDemand]]:
    """Every pod of the stack that asks for a GPU (a resource, or a claim on a GPU DeviceClass
    the program declares), with its resource and its demand; without exempt resources. A
    resource whose demand a value unknown at preview hides (a claim's name, its namespace where
    a claim resolves) is left out, and named by ``UnknownInResources`` once every other pod is
    yielded: one unknown value never blinds a stack policy to the rest of the stack."""
    claims = stack_claims(index) if claims is None else claims
    unknown: list[tuple[PolicyResource, UnknownValueError]] = []
    for resource_type, resource in pod_resources(index, config):
        try:
            pods = list(_gpu_pods_of(resource_type, resource, claims))
        except UnknownValueError as err:
            unknown.append((resource, err))
            continue
        for site, demand in pods:
            yield resource, site, demand
    raise_if_unknown(unknown)


GpuPodJudge = Callable[[PolicyResource, PodSite, GpuDemand], None]
"""Judges one GPU pod of a resource (and reports what it finds)."""


def judge_gpu_pods(
    index: Mapping[str, list[PolicyResource]], config: Config, judge: GpuPodJudge
) -> None:
    """``judge`` on every GPU pod of the stack (``stack_gpu_pods``), resource by resource, as a
    resource policy would judge them: a resource with a value unknown at preview where the
    judging reads (its namespace, a container's securityContext) is left out and the others
    are still judged; then ``UnknownInResources`` names the left-out ones. One unknown value
    never blinds the policy to the rest of the stack, nor passes its resource silently."""
    unknown: list[tuple[PolicyResource, UnknownValueError]] = []
    skipped: set[str] = set()
    try:
        for resource, site, demand in stack_gpu_pods(index, config):
            if resource.urn in skipped:
                continue
            try:
                judge(resource, site, demand)
            except UnknownValueError as err:
                skipped.add(resource.urn)
                unknown.append((resource, err))
    except UnknownInResources as err:
        unknown.extend(err.unknown)
    raise_if_unknown(unknown)


def checked_gpu_namespaces(
    index: Mapping[str, list[PolicyResource]], config: Config, claims: StackClaims | None = None
) -> Iterator[tuple[str, PolicyResource, str]]:
    """The stack's GPU workload namespaces that are not exempt: (metadata.name, resource, why
    it is one). A declared Namespace is one when it carries a GPU namespace label or runs GPU
    workloads of the stack, labelled by us or not. Namespaces and workloads a value unknown at
    preview kept out are named (``UnknownInResources``) after the last namespace."""
    skip_namespaces, skip_names = exempt_namespaces(config), exempt_names(config)
    running = gpu_workload_namespaces(index, claims)
    named, unknown = declared_namespaces(index)
    for name, namespace in named.items():
        if name in skip_namespaces or name in skip_names or namespace.name in skip_names:
            continue
        if is_gpu_namespace(namespace):
            yield name, namespace, ""
        elif name in running:
            yield name, namespace, f" (it runs GPU workloads: {workload_names(running[name])})"
    raise_if_unknown(unknown, running.unknown)
