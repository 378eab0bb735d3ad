"""Kueue's queues in a program: its ResourceFlavors, ClusterQueues and LocalQueues, which queue
a workload names, and its pods as Kueue admits them.

Kueue admits a workload to a flavour of its ClusterQueue, then writes the flavour's
``nodeLabels`` into the pods' ``nodeSelector`` and appends its ``tolerations``
(``gpu_facts.kueue``). So a queued pod that tolerates nothing may still tolerate its nodes'
GPU taint, and land only on its flavour's pool: ``admitted_specs`` gives the pod once per
flavour it can be admitted to (``eligible``: as Kueue's flavour assigner matches a pod to a
flavour), with what that flavour adds, for the policies to judge as they judge any pod. A
queue the program does not declare (the platform's, made by another stack) adds nothing the
pack can see: its pods are judged as written.

Objects are matched on their API group and kind, whatever the version (``v1beta2``, or
``v1beta1`` whose ClusterQueue names its cohort ``cohort``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from pulumi_policy import PolicyResource
from pulumi_policy.proxy import UnknownValueError

from gpu_facts import kueue
from gpu_facts.dra import (
    GPU_DEVICE_CLASSES,
    RESOURCE_CLAIM_TEMPLATE,
    device_class_quota_key,
    quota_key_device_class,
)
from gpu_facts.scheduling import Taint, is_gpu_resource

from .claims import ClaimKey, GpuDemand, resource_kind
from .node_placement import NodePlacement, Term, node_placement
from .operator_pods import CREATED_CLAIM
from .pod_shapes import Overlay
from .pod_specs import PodSite, known_namespace, kubernetes_kind, pod_bearing
from .policy_factory import known_text
from .props import is_true, items, mapping, mappings, path, text
from .resource_types import NAMESPACE
from .tolerations import may_schedule


def kueue_kind(resource_type: str) -> str | None:
    """``ResourceFlavor``, ``ClusterQueue`` or ``LocalQueue`` for Kueue's type tokens (any
    version), None for any other type."""
    parts = resource_type.split(":")
    if len(parts) != 3 or parts[0] != "kubernetes":
        return None
    if parts[1].rpartition("/")[0] != kueue.API_GROUP:
        return None
    return parts[2]


def is_queue_gpu_resource(name: str) -> bool:
    """A GPU resource as a ClusterQueue names it: an extended GPU resource, or a GPU
    DeviceClass's devices under ``<class>.deviceclass.resource.k8s.io/devices`` (the name the
    platform's Kueue configuration maps each DRA class to, ``deviceClassMappings``)."""
    return is_gpu_resource(name) or quota_key_device_class(name) in GPU_DEVICE_CLASSES


def demand_resources(demand: GpuDemand) -> list[str]:
    """What a pod's GPU demand is charged to in a ClusterQueue: its GPU resources, and its
    claims' DeviceClasses under their quota key."""
    classes = (device_class_quota_key(c) for c in sorted(demand.classes))
    return [*sorted(demand.resources), *classes]


def quantity(value: Any) -> Decimal | None:
    """A quota as Kueue takes it (a number or a Kubernetes quantity string), None when it is
    not one the pack reads (a suffixed quantity)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


@dataclass(frozen=True, slots=True)
class Flavor:
    """A ResourceFlavor."""

    name: str
    node_labels: Mapping[str, str]
    tolerations: tuple[Mapping[str, Any], ...]
    node_taints: tuple[Taint, ...]
    resource: PolicyResource


@dataclass(frozen=True, slots=True)
class FlavorQuota:
    nominal: Decimal | None
    borrowing_limit: Decimal | None
    lending_limit: Decimal | None


@dataclass(frozen=True)
class ClusterQueue:
    """A ClusterQueue: per flavour (in order) the quota of each resource it covers."""

    name: str
    cohort: str | None
    quotas: Mapping[str, Mapping[str, FlavorQuota]]
    resource: PolicyResource

    def gpu_flavors(self) -> list[str]:
        """Flavours it gives quota of a GPU resource."""
        return [
            f for f, resources in self.quotas.items() if any(map(is_queue_gpu_resource, resources))
        ]


@dataclass(frozen=True, slots=True)
class LocalQueue:
    namespace: str
    name: str
    cluster_queue: str


def _flavor(resource: PolicyResource) -> Flavor:
    spec = mapping(resource.props.get("spec"))
    return Flavor(
        name=text(path(resource.props, "metadata", "name")) or resource.name,
        node_labels={str(k): str(v) for k, v in mapping(spec.get("nodeLabels")).items()},
        tolerations=tuple(mappings(spec.get("tolerations"))),
        node_taints=tuple(
            Taint(text(t.get("key")) or "", text(t.get("value")) or "", text(t.get("effect")) or "")
            for t in mappings(spec.get("nodeTaints"))
        ),
        resource=resource,
    )


def _cluster_queue(resource: PolicyResource) -> ClusterQueue:
    spec = mapping(resource.props.get("spec"))
    quotas: dict[str, dict[str, FlavorQuota]] = {}
    for group in mappings(spec.get("resourceGroups")):
        for flavor in mappings(group.get("flavors")):
            name = text(flavor.get("name")) or ""
            for entry in mappings(flavor.get("resources")):
                quotas.setdefault(name, {})[text(entry.get("name")) or ""] = FlavorQuota(
                    quantity(entry.get("nominalQuota")),
                    quantity(entry.get("borrowingLimit")),
                    quantity(entry.get("lendingLimit")),
                )
    cohort = text(spec.get("cohortName")) or text(spec.get("cohort"))
    return ClusterQueue(
        name=text(path(resource.props, "metadata", "name")) or resource.name,
        cohort=cohort,
        quotas=quotas,
        resource=resource,
    )


@dataclass
class Queues:
    """The program's queue objects, and the namespaces whose GPU workloads are queued."""

    flavors: dict[str, Flavor] = field(default_factory=dict)
    cluster_queues: dict[str, ClusterQueue] = field(default_factory=dict)
    local_queues: dict[tuple[str, str], LocalQueue] = field(default_factory=dict)
    queued_namespaces: dict[str, list[str]] = field(default_factory=dict)
    """Namespace -> the LocalQueues its workloads may name: those the program declares there,
    or the one our namespace label names."""

    @classmethod
    def of(cls, index: Mapping[str, list[PolicyResource]]) -> Queues:
        """Read once per policy run from the stack's resources by type."""
        queues = cls()
        for resource_type, resources in index.items():
            kind = kueue_kind(resource_type)
            for resource in resources:
                if kind == kueue.RESOURCE_FLAVOR:
                    flavor = _flavor(resource)
                    queues.flavors[flavor.name] = flavor
                elif kind == kueue.CLUSTER_QUEUE:
                    queue = _cluster_queue(resource)
                    queues.cluster_queues[queue.name] = queue
                elif kind == kueue.LOCAL_QUEUE:
                    namespace, known = known_text(resource.props, "metadata", "namespace")
                    name = text(path(resource.props, "metadata", "name")) or resource.name
                    target = text(path(resource.props, "spec", "clusterQueue")) or ""
                    if known:
                        ns = namespace or "default"
                        queues.local_queues[(ns, name)] = LocalQueue(ns, name, target)
                        queues.queued_namespaces.setdefault(ns, []).append(name)
        for resource in index.get(NAMESPACE, ()):
            labels = mapping(path(resource.props, "metadata", "labels"))
            queue = labels.get(kueue.QUEUE_NAMESPACE_LABEL)
            name = text(path(resource.props, "metadata", "name")) or resource.name
            if isinstance(queue, str) and queue:
                named = queues.queued_namespaces.setdefault(name, [])
                if queue not in named:
                    named.append(queue)
        return queues

    def queue_of(
        self, resource_type: str, props: Mapping[str, Any], site: PodSite | None = None
    ) -> str | None:
        """The LocalQueue a workload is queued to: the one it names (``queue_name``), else the
        namespace's LocalQueue named ``default``, which Kueue names for a workload of a kind it
        queues, or for the objects an operator makes (``gpu_facts.kueue.DEFAULT_LOCAL_QUEUE``).
        None when neither: a DaemonSet's pods, and kinds without a Kueue integration, are not
        read as defaulted (Kueue would gate their pods one by one, pinned to nodes as they
        are)."""
        named = queue_name(resource_type, props, site)
        return named if named is not None else self.defaulted_queue(resource_type, props, site)

    def defaulted_queue(
        self, resource_type: str, props: Mapping[str, Any], site: PodSite | None = None
    ) -> str | None:
        """The LocalQueue Kueue names for a workload that names none: the namespace's, when it
        is named ``default`` and the workload is of a kind Kueue queues or made by an operator;
        else None."""
        namespace, known = known_text(props, "metadata", "namespace")
        local = self.queued_namespaces.get(namespace or "default", []) if known else []
        if kueue.DEFAULT_LOCAL_QUEUE in local and (
            queueable(resource_type, site) or operator_built(resource_type)
        ):
            return kueue.DEFAULT_LOCAL_QUEUE
        return None

    def flavors_of(self, namespace: str, queue: str) -> list[Flavor] | None:
        """The flavours a workload naming ``queue`` in ``namespace`` may be admitted to, None
        when the program does not declare its LocalQueue, its ClusterQueue or a flavour of it."""
        local = self.local_queues.get((namespace, queue))
        cluster_queue = self.cluster_queues.get(local.cluster_queue) if local else None
        if cluster_queue is None:
            return None
        names = list(cluster_queue.quotas)
        if any(name not in self.flavors for name in names):
            return None
        return [self.flavors[name] for name in names]

    def may_hold(self, queue: str, flavor: str, resource: str) -> bool:
        """Whether the ClusterQueue ``queue`` can admit ``resource`` on ``flavor``: it has
        nominal quota there, or may borrow some another ClusterQueue of its cohort lends."""
        own = self.cluster_queues[queue]
        quota = own.quotas.get(flavor, {}).get(resource)
        if quota is None:
            return False
        if quota.nominal is None or quota.nominal > 0:
            return True
        if own.cohort is None or quota.borrowing_limit == 0:
            return False
        for other in self.cluster_queues.values():
            lent = other.quotas.get(flavor, {}).get(resource)
            if other is own or other.cohort != own.cohort or lent is None:
                continue
            if (lent.nominal is None or lent.nominal > 0) and lent.lending_limit != 0:
                return True
        return False


def operator_built(resource_type: str) -> bool:
    """Whether an operator builds the pods of this type from fields that are no pod (KAITO, NVIDIA's
    NIM operator: ``gpu_facts.operators``)."""
    kind = pod_bearing(resource_type)
    return kind is not None and kind.made_by is not None


def queue_name(
    resource_type: str, props: Mapping[str, Any], site: PodSite | None = None
) -> str | None:
    """The LocalQueue a workload names (Kueue's label on the object; a CronJob's on its Jobs'
    template, a ReplicaSet's on its pods'; a Deployment's or StatefulSet's on itself, else on
    its pods', which Kueue then queues one by one: ``QueuedKind.pods_by_template``), None when
    it names none. The pod ``site`` an operator builds names it in the labels the program gives
    that pod (Kueue queues a pod by its own label: ``gpu_facts.kueue``); a preset KAITO pod names
    none."""
    if site is not None and operator_built(resource_type):
        return _named(site.labels)
    kind = kubernetes_kind(resource_type)
    if kind == "CronJob":
        return _named(path(props, "spec", "jobTemplate", "metadata", "labels"))
    pods = path(props, "spec", "template", "metadata", "labels")
    if kind == "ReplicaSet":
        return _named(pods)
    own = _named(path(props, "metadata", "labels"))
    queued = _queued_kind(resource_type)
    if own is None and queued is not None and queued.pods_by_template:
        return _named(pods)
    return own


def _queued_kind(resource_type: str) -> kueue.QueuedKind | None:
    kind = pod_bearing(resource_type)
    if kind is None:
        return None
    return kueue.queued_kind("apps" if kind.group == "extensions" else kind.group, kind.kind)


def _named(labels: Any) -> str | None:
    value = mapping(labels).get(kueue.QUEUE_NAME_LABEL)
    return value if isinstance(value, str) and value else None


def queueable(resource_type: str, site: PodSite | None = None) -> bool:
    """Whether Kueue queues a workload of this type (``gpu_facts.kueue.QUEUED_KINDS``; a
    ReplicaSet through its pods), or the pod ``site`` an operator builds: through its own label,
    which a pod whose labels the operator sets all (a KAITO preset's) cannot carry."""
    kind = pod_bearing(resource_type)
    if kind is None:
        return False
    if kind.made_by is not None:
        return site is None or site.labels is not None
    if (kind.group, kind.kind) in (("apps", "ReplicaSet"), ("extensions", "ReplicaSet")):
        return True
    return _queued_kind(resource_type) is not None


def _flavor_selector(spec: Mapping[str, Any], keys: frozenset[str]) -> NodePlacement:
    """The pod's nodeSelector and required node affinity cut down to ``keys``, the flavour's
    own label keys, as Kueue matches a flavour (``flavorassigner.go`` ``flavorSelector``): a
    term left without a requirement matches every flavour, and so does the affinity."""
    placement = node_placement(spec)
    selector = {k: v for k, v in placement.node_selector.items() if k in keys}
    if placement.terms is None:
        return NodePlacement(selector, None)
    terms: list[Term] = []
    for term in placement.terms:
        kept = tuple(r for r in term.requirements if r.key in keys)
        if not kept:
            return NodePlacement(selector, None)
        terms.append(Term(kept, by_field=False))
    return NodePlacement(selector, tuple(terms) or None)


def eligible(spec: Mapping[str, Any], flavor: Flavor) -> bool:
    """Whether Kueue 0.19.2 may assign ``flavor`` to the pod (``flavorassigner.go``
    ``checkFlavorForPodSets``): the pod's tolerations with the flavour's tolerate its
    ``nodeTaints`` (NoSchedule, NoExecute), and its placement on the flavour's label keys
    admits the flavour's ``nodeLabels``."""
    tolerations = [*mappings(spec.get("tolerations")), *flavor.tolerations]
    if not may_schedule(tolerations, flavor.node_taints):
        return False
    return _flavor_selector(spec, frozenset(flavor.node_labels)).admits(flavor.node_labels)


def _admitted(spec: Mapping[str, Any], flavor: Flavor) -> Mapping[str, Any] | None:
    """``spec`` as Kueue admits it to ``flavor``, None when Kueue cannot (``eligible``; its
    nodeSelector giving one of the flavour's labels another value fails that too)."""
    if not eligible(spec, flavor):
        return None
    own = {str(k): str(v) for k, v in mapping(spec.get("nodeSelector")).items()}
    held = list(mappings(spec.get("tolerations")))
    added = [t for t in flavor.tolerations if dict(t) not in [dict(h) for h in held]]
    return Overlay(
        spec,
        {
            "nodeSelector": lambda: {**own, **flavor.node_labels} or None,
            "tolerations": lambda: [*held, *added] or None,
        },
    )


@dataclass(frozen=True, slots=True)
class Admission:
    """A pod as Kueue admits it to one flavour (``flavor`` None: not queued, as written)."""

    spec: Mapping[str, Any]
    flavor: Flavor | None = None
    queue: str | None = None

    def where(self) -> str:
        """For messages: `` (queued to flavour 'a100' of ClusterQueue 'training')``."""
        if self.flavor is None:
            return ""
        return (
            f" (admitted by Kueue to flavour '{self.flavor.name}' of ClusterQueue '{self.queue}')"
        )


def admitted_specs(
    spec: Mapping[str, Any],
    owner: PolicyResource,
    queues: Queues,
    resources: Iterable[str],
    site: PodSite | None = None,
) -> list[Admission]:
    """The pod of ``owner`` once per flavour Kueue may admit it to (one that holds every GPU
    resource in ``resources``, ``demand_resources``, for its ClusterQueue), with what the
    flavour adds; the pod as written when ``owner`` names no queue the program declares. A
    queued pod no flavour can take is judged as written (Kueue would leave it pending). A
    DeviceClass key the ClusterQueue covers nowhere is mapped under another name (Kueue's
    configuration, which the pack does not read): it constrains no flavour. ``site``: the pod
    of ``owner`` it is, for the queue an operator's pod names (``Queues.queue_of``)."""
    name = queues.queue_of(owner.resource_type, owner.props, site)
    namespace, known = known_text(owner.props, "metadata", "namespace")
    if name is None or not known:
        return [Admission(spec)]
    ns = namespace or "default"
    flavors = queues.flavors_of(ns, name)
    if flavors is None:
        return [Admission(spec)]
    target = queues.local_queues[(ns, name)].cluster_queue
    covered = {r for quota in queues.cluster_queues[target].quotas.values() for r in quota}
    wanted = [
        r for r in resources if is_gpu_resource(r) or (is_queue_gpu_resource(r) and r in covered)
    ]
    found = []
    for flavor in flavors:
        if not all(queues.may_hold(target, flavor.name, r) for r in wanted):
            continue
        admitted = _admitted(spec, flavor)
        if admitted is not None:
            found.append(Admission(admitted, flavor, target))
    return found or [Admission(spec)]


def gpu_resources_of(cluster_queue: ClusterQueue, flavor: str) -> list[str]:
    return [r for r in cluster_queue.quotas.get(flavor, {}) if is_queue_gpu_resource(r)]


# --- claims Kueue cannot admit (gpu_facts.kueue.DRA_TEMPLATE_REQUESTS_REFUSED) ----------------


def kueue_refusals(devices: Any) -> list[str]:
    """Why Kueue leaves a workload inadmissible for a claim template's ``devices``, one reason
    per request it refuses (``firstAvailable``, ``adminAccess``, ``allocationMode`` other than
    ``ExactCount``), in every shape: ``exactly`` (v1, v1beta2), the request itself (v1beta1)."""
    reasons = []
    for index, request in enumerate(mappings(mapping(devices).get("requests"))):
        exact = mapping(request.get("exactly")) or request
        if items(request.get("firstAvailable")):
            refused = "firstAvailable"
        elif is_true(exact.get("adminAccess")):
            refused = "adminAccess"
        elif (text(exact.get("allocationMode")) or kueue.EXACT_COUNT) != kueue.EXACT_COUNT:
            refused = "allocationMode"
        else:
            continue
        name = text(request.get("name")) or f"#{index}"
        reasons.append(f"request '{name}': {kueue.DRA_TEMPLATE_REQUESTS_REFUSED[refused]}")
    return reasons


def template_refusals(index: Mapping[str, list[PolicyResource]]) -> dict[ClaimKey, list[str]]:
    """The program's ResourceClaimTemplates (any version) with what Kueue refuses in each
    (``kueue_refusals``); one whose name or devices are unknown at preview is left out."""
    found: dict[ClaimKey, list[str]] = {}
    for resource_type, resources in index.items():
        if resource_kind(resource_type) != RESOURCE_CLAIM_TEMPLATE:
            continue
        for resource in resources:
            try:
                props = resource.props
                name = text(path(props, "metadata", "name")) or resource.name
                devices = path(props, "spec", "spec", "devices")
                found[(known_namespace(props), name)] = kueue_refusals(devices)
            except UnknownValueError:
                continue
    return found


def claim_refusals(
    spec: Mapping[str, Any], namespace: str | None, templates: Mapping[ClaimKey, list[str]]
) -> list[str]:
    """Why Kueue would leave the queued pod ``spec``'s workload pending for its claims: a
    ResourceClaim named, a template (of ``template_refusals``, in the pod's namespace; any of
    that name where a namespace is unknown at preview) or a claim an operator creates whose
    requests Kueue refuses. Empty when it admits them (as far as the program shows)."""
    reasons: list[str] = []
    for entry in mappings(spec.get("resourceClaims")):
        claim = text(entry.get("resourceClaimName"))
        template = text(entry.get("resourceClaimTemplateName"))
        created = entry.get(CREATED_CLAIM)
        if claim is not None:
            reasons.append(f"ResourceClaim '{claim}': {kueue.DRA_CLAIM_BY_NAME_REFUSED}")
        elif template is not None:
            found = {
                reason
                for (where, name), refused in templates.items()
                if name == template and (where == namespace or None in (where, namespace))
                for reason in refused
            }
            reasons += [f"template '{template}' {reason}" for reason in sorted(found)]
        elif created is not None:
            reasons += [f"the claim its operator creates, {r}" for r in kueue_refusals(created)]
    return reasons
