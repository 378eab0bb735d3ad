"""Where each pod-bearing kind keeps its pods (``gpu_facts.pod_templates``), and what a pod spec
asks for.

A resource holds one pod (a Deployment) or several (a RayCluster's head and worker groups, a
PyTorchJob's Master and Worker): ``pod_sites`` yields each, with where it sits. Custom
resources arrive as ``kubernetes:<group>/<version>:<Kind>`` with their ``spec`` in the props,
so they are read wherever they come from (``apiextensions.CustomResource``, a rendered chart or
manifest). A resource's pods are worked out once per props object (``props.per_props``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pulumi_policy.proxy import UnknownValueError

from gpu_facts.pod_templates import PodBearingKind, PodPath, pod_bearing_kind
from gpu_facts.scheduling import is_gpu_resource

from .operator_pods import (
    OperatorPod,
    kaito_inference_set_pods,
    kaito_workspace_pods,
    nim_cache_pod,
    nim_pipeline_pods,
    nim_service_pod,
)
from .pod_shapes import RuntimeRef, argo_pods, inline_pod, train_job_pod
from .props import mapping, mappings, path, per_props, text, walk

DEFAULT_NAMESPACE = "default"


def kubernetes_kind(resource_type: str) -> str | None:
    """``kubernetes:apps/v1:Deployment`` -> ``Deployment``; None for other providers."""
    parts = resource_type.split(":")
    if len(parts) != 3 or parts[0] != "kubernetes":
        return None
    return parts[2]


def pod_bearing(resource_type: str) -> PodBearingKind | None:
    """The pod-bearing kind of a Kubernetes type token (any version), None for other types."""
    parts = resource_type.split(":")
    if len(parts) != 3 or parts[0] != "kubernetes":
        return None
    group = parts[1].rpartition("/")[0] or "core"
    return pod_bearing_kind(group, parts[2])


@dataclass(frozen=True, slots=True)
class PodSite:
    """One pod of a resource: its spec and where it sits."""

    where: str
    """``spec.workerGroupSpecs[gpu].template``; empty for Kubernetes' own kinds."""
    spec: Mapping[str, Any]
    runtime: RuntimeRef | None = None
    """KServe predictors and TrainJobs: the runtime whose pod fields fill in the ones the
    resource leaves out."""
    labels: Mapping[str, Any] | None = None
    """The pod's labels as the program writes them (a template's ``metadata.labels``, a Pod's
    own, a KServe component's ``labels``, a NIMService's ``spec.labels``); None where the kind
    writes none or its operator sets them all."""

    def named(self, name: str) -> str:
        """How messages name the pod: ``'trainer'`` or ``'ray' (spec.workerGroupSpecs[gpu])``."""
        return f"'{name}' ({self.where})" if self.where else f"'{name}'"


def _operator_pods(
    shape: str, props: Mapping[str, Any], value: Mapping[str, Any]
) -> Iterator[OperatorPod]:
    """The pods an operator builds from ``value`` (``gpu_facts.operators``)."""
    name = text(path(props, "metadata", "name")) or ""
    if shape == "kaitoWorkspace":
        yield from kaito_workspace_pods(value)
    elif shape == "kaitoInferenceSet":
        yield from kaito_inference_set_pods(name, value)
    elif shape == "nimService":
        yield nim_service_pod(name, value, "spec")
    elif shape == "nimPipeline":
        yield from nim_pipeline_pods(value)
    elif shape == "nimCache":
        yield nim_cache_pod(name, value)


def _sites(kind: PodBearingKind, pod_path: PodPath, props: Mapping[str, Any]) -> Iterator[PodSite]:
    for where, value in walk(props, pod_path.keys):
        if not isinstance(value, Mapping):
            continue
        label = "" if kind.builtin else where
        if pod_path.shape == "template":
            labels = mapping(path(value, "metadata", "labels"))
            yield PodSite(label, mapping(value.get("spec")), labels=labels)
        elif pod_path.shape == "podSpec":
            own = mapping(path(props, "metadata", "labels")) if kind.builtin else None
            yield PodSite(label, value, labels=own)
        elif pod_path.shape == "inline":
            spec, runtime = inline_pod(value, predictor=where.endswith("predictor"))
            yield PodSite(label, spec, runtime, mapping(value.get("labels")))
        elif pod_path.shape == "trainJob":
            spec, runtime = train_job_pod(value)
            yield PodSite("spec.trainer", spec, runtime)
        elif pod_path.shape == "argo":
            for name, spec, labels in argo_pods(value):
                yield PodSite(f"{where}.templates[{name}]", spec, labels=labels)
        else:
            for pod in _operator_pods(pod_path.shape, props, value):
                yield PodSite(pod.where, pod.spec, labels=pod.labels)


def pod_sites(resource_type: str, props: Mapping[str, Any]) -> list[PodSite]:
    """Every pod of a pod-bearing resource; empty for any other type."""
    kind = pod_bearing(resource_type)
    if kind is None:
        return []

    def read(props: Mapping[str, Any]) -> tuple[PodSite, ...]:
        return tuple(site for p in kind.paths for site in _sites(kind, p, props))

    return list(per_props(props, f"pods of {resource_type}", read))


def pod_spec(resource_type: str, props: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The pod spec of one of Kubernetes' own workloads (a DaemonSet, a Job), None for any other
    type: for code about those kinds only (device plugins, driver checks)."""
    kind = pod_bearing(resource_type)
    if kind is None or not kind.builtin:
        return None
    sites = pod_sites(resource_type, props)
    return sites[0].spec if sites else {}


def is_cluster_scoped(resource_type: str) -> bool:
    """A cluster-wide runtime or template: its pods run in the namespace of what uses it."""
    kind = pod_bearing(resource_type)
    return kind is not None and kind.cluster_scoped


def namespace(props: Mapping[str, Any]) -> str:
    """The object's namespace; Kubernetes puts an object without one in ``default``."""
    return text(path(props, "metadata", "namespace")) or DEFAULT_NAMESPACE


def known_namespace(props: Mapping[str, Any]) -> str | None:
    """``namespace``, or None when it is unknown at preview (a Namespace's output)."""
    try:
        return namespace(props)
    except UnknownValueError:
        return None


@dataclass(frozen=True, slots=True)
class Container:
    """One container of a pod spec, with where it sits (for messages)."""

    name: str
    where: str
    """``containers`` or ``initContainers``."""
    spec: Mapping[str, Any]

    @property
    def label(self) -> str:
        return f"{self.where}[{self.name}]"


def containers(spec: Mapping[str, Any]) -> Iterator[Container]:
    """Every container that can hold resources: regular and init containers."""
    for where in ("initContainers", "containers"):
        for index, container in enumerate(mappings(spec.get(where))):
            name = text(container.get("name")) or f"#{index}"
            yield Container(name, where, container)


def gpu_resources(container: Container) -> set[str]:
    """GPU resources a container names in its limits or requests."""
    resources = mapping(container.spec.get("resources"))
    names: set[str] = set()
    for section in ("limits", "requests"):
        names.update(str(key) for key in mapping(resources.get(section)) if is_gpu_resource(key))
    return names


def _pod_gpu_resources(spec: Mapping[str, Any]) -> frozenset[str]:
    names: set[str] = set()
    for container in containers(spec):
        names |= gpu_resources(container)
    return frozenset(names)


def pod_gpu_resources(spec: Mapping[str, Any]) -> set[str]:
    """GPU resources any container of the pod asks for."""
    return set(per_props(spec, "GPU resources", _pod_gpu_resources))


def gpu_pod_sites(resource_type: str, props: Mapping[str, Any]) -> Iterator[PodSite]:
    """The pods of a resource that ask for a GPU resource."""
    return (s for s in pod_sites(resource_type, props) if pod_gpu_resources(s.spec))
