"""GPUs through claims (Dynamic Resource Allocation), read from a program's resources.

A pod gets devices through ``spec.resourceClaims``: each entry names a ResourceClaim
(``resourceClaimName``, shared by every pod that names it) or a ResourceClaimTemplate
(``resourceClaimTemplateName``, one claim per pod) in the pod's namespace. A claim asks for
devices of DeviceClasses (``spec.devices.requests``; a template one level down,
``spec.spec.devices``). A pod is a GPU pod when a claim it references, found among the
program's objects (Pulumi resources, or objects a manifest or chart renders beside the pod),
asks for a GPU DeviceClass: one NVIDIA's or AMD's driver ships (``gpu_facts.dra``), or a
DeviceClass of the program whose CEL selectors name a GPU driver or its attributes.

Counts follow the quota evaluator (``gpu_facts.dra``): ``count`` under ``ExactCount`` (1 unset),
``ALLOCATION_RESULTS_MAX_SIZE`` under ``All``, a ``firstAvailable`` request's largest
alternative per class. Every shape is read: ``resource.k8s.io/v1`` and ``v1beta2`` (``exactly``,
``firstAvailable``) and ``v1beta1`` (the class on the request itself).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pulumi_policy import PolicyResource
from pulumi_policy.proxy import UnknownValueError

from gpu_facts.dra import (
    ALLOCATION_RESULTS_MAX_SIZE,
    DEVICE_CLASS,
    GPU_DEVICE_CLASSES,
    GPU_DRA_DRIVERS,
    RESOURCE_API_GROUP,
    RESOURCE_CLAIM,
    RESOURCE_CLAIM_TEMPLATE,
)
from gpu_facts.vendors import GpuVendor

from .operator_pods import CREATED_CLAIM
from .pod_specs import known_namespace, pod_gpu_resources
from .props import mapping, mappings, path, text
from .tolerations import vendor_keys

ClaimKey = tuple[str | None, str]
"""(namespace, name) of a claim or template; the namespace None when unknown at preview."""


def resource_kind(resource_type: str) -> str | None:
    """``DeviceClass``, ``ResourceClaim`` or ``ResourceClaimTemplate`` for a ``resource.k8s.io``
    type token of any version, None for any other type."""
    parts = resource_type.split(":")
    if len(parts) != 3 or parts[0] != "kubernetes":
        return None
    group = parts[1].rpartition("/")[0]
    if group != RESOURCE_API_GROUP:
        return None
    return parts[2] if parts[2] in (DEVICE_CLASS, RESOURCE_CLAIM, RESOURCE_CLAIM_TEMPLATE) else None


def _devices(request: Mapping[str, Any]) -> int:
    if text(request.get("allocationMode")) == "All":
        return ALLOCATION_RESULTS_MAX_SIZE
    count = request.get("count")
    return count if isinstance(count, int) and not isinstance(count, bool) else 1


def requested_devices(devices: Any) -> dict[str, int]:
    """DeviceClass -> the most devices a claim's ``devices`` may take from it."""
    found: dict[str, int] = defaultdict(int)
    for request in mappings(mapping(devices).get("requests")):
        exact = mapping(request.get("exactly")) or (request if "deviceClassName" in request else {})
        if exact:
            name = text(exact.get("deviceClassName"))
            if name:
                found[name] += _devices(exact)
            continue
        worst: dict[str, int] = {}
        for sub in mappings(request.get("firstAvailable")):
            name = text(sub.get("deviceClassName"))
            if name:
                worst[name] = max(worst.get(name, 0), _devices(sub))
        for name, n in worst.items():
            found[name] += n
    return dict(found)


def _driver_pattern(name: str) -> re.Pattern[str]:
    quoted = rf"""['"]{re.escape(name)}['"]"""
    return re.compile(
        rf"device\.driver\s*==\s*{quoted}|{quoted}\s*==\s*device\.driver"
        rf"|device\.(attributes|capacity)\[{quoted}\]"
    )


_DRIVER_PATTERNS = {name: _driver_pattern(name) for name in GPU_DRA_DRIVERS}


def selector_vendor(expressions: Iterable[str]) -> GpuVendor | None:
    """The GPU vendor whose driver a DeviceClass's CEL selectors name (``device.driver ==
    'gpu.nvidia.com'``, or the driver's attributes), None when they name none."""
    for expression in expressions:
        for name, pattern in _DRIVER_PATTERNS.items():
            if pattern.search(expression):
                return GPU_DRA_DRIVERS[name].vendor
    return None


@dataclass(frozen=True, slots=True)
class DeviceClassInfo:
    """A DeviceClass of the program, as the pack sees it."""

    name: str
    vendor: GpuVendor | None
    """The GPU vendor whose devices it selects, None for a class of no GPU driver."""


def device_class_info(name: str, props: Mapping[str, Any]) -> DeviceClassInfo:
    """A program's DeviceClass: its vendor by its selectors, else by its known name. (Its
    ``extendedResourceName`` is device-classes-map-no-gpu-resource's, read there.)"""
    spec = mapping(props.get("spec"))
    expressions = [
        expression
        for selector in mappings(spec.get("selectors"))
        if (expression := text(path(selector, "cel", "expression"))) is not None
    ]
    known = GPU_DEVICE_CLASSES.get(name)
    vendor = selector_vendor(expressions) or (known.vendor if known is not None else None)
    return DeviceClassInfo(name, vendor)


@dataclass(frozen=True, slots=True)
class PodClaim:
    """One entry of a pod's ``resourceClaims``, with the claim it resolves to."""

    name: str
    """The entry's name, which containers name in ``resources.claims``."""
    kind: str
    """``ResourceClaim``, ``ResourceClaimTemplate`` or ``operator_pods.CREATED_CLAIM``."""
    source: str
    """The claim's or template's name."""
    classes: dict[str, int] | None
    """DeviceClass -> devices; None when the program declares no such claim or template."""

    def describe(self) -> str:
        """``template 'gpu-h100'``, ``claim 'shared'`` or ``the claim the operator creates``,
        for messages."""
        if self.kind == CREATED_CLAIM:
            return "the claim the operator creates"
        what = "template" if self.kind == RESOURCE_CLAIM_TEMPLATE else "claim"
        return f"{what} '{self.source}'"


@dataclass
class StackClaims:
    """The program's DeviceClasses, ResourceClaims and ResourceClaimTemplates, by name."""

    classes: dict[str, DeviceClassInfo] = field(default_factory=dict)
    claims: dict[ClaimKey, dict[str, int]] = field(default_factory=dict)
    templates: dict[ClaimKey, dict[str, int]] = field(default_factory=dict)

    def gpu_vendor(self, device_class: str) -> GpuVendor | None:
        """The GPU vendor of a class: the program's own class by its selectors, else a class a
        GPU driver ships, else None (no GPU class as far as the program shows)."""
        own = self.classes.get(device_class)
        if own is not None and own.vendor is not None:
            return own.vendor
        known = GPU_DEVICE_CLASSES.get(device_class)
        return known.vendor if known is not None else None

    def pod_claims(self, namespace: str | None, spec: Mapping[str, Any]) -> list[PodClaim]:
        """Each of the pod's claims, resolved in its namespace where the program has it
        (``resolve``)."""
        found = []
        for entry in mappings(spec.get("resourceClaims")):
            name = text(entry.get("name")) or ""
            created = entry.get(CREATED_CLAIM)
            if created is not None:  # made from an operator's resource, beside the pod
                found.append(PodClaim(name, CREATED_CLAIM, name, requested_devices(created)))
                continue
            template = text(entry.get("resourceClaimTemplateName"))
            if template is not None:
                classes = resolve(self.templates, namespace, template)
                found.append(PodClaim(name, RESOURCE_CLAIM_TEMPLATE, template, classes))
                continue
            claim = text(entry.get("resourceClaimName"))
            if claim is not None:
                classes = resolve(self.claims, namespace, claim)
                found.append(PodClaim(name, RESOURCE_CLAIM, claim, classes))
        return found

    def gpu_claims(self, namespace: str | None, spec: Mapping[str, Any]) -> list[PodClaim]:
        """The pod's claims that ask for a GPU class."""
        return [
            claim
            for claim in self.pod_claims(namespace, spec)
            if claim.classes and any(self.gpu_vendor(c) for c in claim.classes)
        ]


def resolve(
    objects: Mapping[ClaimKey, dict[str, int]], namespace: str | None, name: str
) -> dict[str, int] | None:
    """The classes of the claim (or template) ``name`` a pod in ``namespace`` gets: the one in
    its namespace. Where a namespace is unknown at preview (the pod's, or the object's: a
    program that passes a Namespace's output), every object of that name it may be, with the
    most devices any of them asks per class: a claim pod must not pass unseen because its
    namespace is an output. None when the program has none."""
    if namespace is not None and (namespace, name) in objects:
        return objects[(namespace, name)]
    found: dict[str, int] = {}
    matched = False
    for (where, named), classes in objects.items():
        if named != name or (namespace is not None and where is not None):
            continue
        matched = True
        for device_class, n in classes.items():
            found[device_class] = max(found.get(device_class, 0), n)
    return found if matched else None


def _name(resource: PolicyResource) -> str:
    return text(path(resource.props, "metadata", "name")) or resource.name


def stack_claims(index: Mapping[str, list[PolicyResource]]) -> StackClaims:
    """The program's claims, templates and DeviceClasses. One whose name or requests are
    unknown at preview is left out (a pod naming it stays unresolved); one whose namespace is
    unknown is kept under the namespace None (``resolve``)."""
    claims = StackClaims()
    for resource_type, resources in index.items():
        kind = resource_kind(resource_type)
        if kind is None:
            continue
        for resource in resources:
            try:
                _add(claims, kind, resource)
            except UnknownValueError:
                continue
    return claims


def _add(claims: StackClaims, kind: str, resource: PolicyResource) -> None:
    props, name = resource.props, _name(resource)
    if kind == DEVICE_CLASS:
        claims.classes[name] = device_class_info(name, props)
    elif kind == RESOURCE_CLAIM:
        claims.claims[(known_namespace(props), name)] = requested_devices(
            path(props, "spec", "devices")
        )
    else:
        devices = path(props, "spec", "spec", "devices")
        claims.templates[(known_namespace(props), name)] = requested_devices(devices)


@dataclass(frozen=True, slots=True)
class GpuDemand:
    """What GPUs a pod asks for: extended resources in its containers, and claims on GPU
    DeviceClasses."""

    resources: frozenset[str]
    claims: tuple[PodClaim, ...]
    classes: Mapping[str, int]
    """GPU DeviceClass -> devices its claims ask for."""
    claim_vendors: frozenset[GpuVendor]

    def __bool__(self) -> bool:
        return bool(self.resources) or bool(self.classes)

    @property
    def taint_keys(self) -> frozenset[str]:
        """The vendor taint keys of the GPUs it asks for (``nvidia.com/gpu`` when none is
        known): its resources' vendors' and its claimed classes' vendors'."""
        claimed = {vendor.taint_key for vendor in self.claim_vendors}
        if not self.resources and claimed:
            return frozenset(claimed)
        return vendor_keys(self.resources) | claimed

    def describe(self) -> str:
        """``asks for nvidia.com/gpu`` / ``claims gpu.nvidia.com (template 'gpu-h100')``."""
        parts = []
        if self.resources:
            parts.append(f"asks for {', '.join(sorted(self.resources))}")
        if self.classes:
            sources = ", ".join(claim.describe() for claim in self.claims)
            parts.append(f"claims {', '.join(sorted(self.classes))} ({sources})")
        return " and ".join(parts)


def gpu_demand(
    spec: Mapping[str, Any], namespace: str | None, claims: StackClaims | None
) -> GpuDemand:
    """The pod's GPU demand; claims only resolve with the program's ``claims`` (in the pod's
    namespace, or where it is unknown at preview, by name: ``resolve``). A shared claim counts
    once per pod that names it, as each pod holds it."""
    resources = frozenset(pod_gpu_resources(spec))
    if claims is None:
        return GpuDemand(resources, (), {}, frozenset())
    found = claims.gpu_claims(namespace, spec)
    classes: dict[str, int] = defaultdict(int)
    vendors: set[GpuVendor] = set()
    for claim in found:
        for device_class, n in (claim.classes or {}).items():
            vendor = claims.gpu_vendor(device_class)
            if vendor is not None:
                classes[device_class] += n
                vendors.add(vendor)
    return GpuDemand(resources, tuple(found), dict(classes), frozenset(vendors))
