"""Stack-policy helpers: resources indexed by type once, so stack policies stay linear."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping

from pulumi_policy import PolicyResource

from gpu_facts.scheduling import GPU_NAMESPACE_LABEL, WORKLOAD_TYPE_LABEL

from .building import Config, exempt_names, exempt_namespaces
from .props import mapping, path, text
from .resource_types import NAMESPACE

# BP-07: workload namespaces are labelled with their type (workload: training).
WORKLOAD_LABEL = WORKLOAD_TYPE_LABEL
GPU_NAMESPACE_LABELS: tuple[str, ...] = (WORKLOAD_LABEL, GPU_NAMESPACE_LABEL)


def index_by_type(resources: Iterable[PolicyResource]) -> dict[str, list[PolicyResource]]:
    index: dict[str, list[PolicyResource]] = defaultdict(list)
    for resource in resources:
        index[resource.resource_type].append(resource)
    return index


def object_name(resource: PolicyResource) -> str:
    """A Kubernetes object's metadata.name, else the Pulumi resource name."""
    return text(path(resource.props, "metadata", "name")) or resource.name


def is_gpu_namespace(resource: PolicyResource) -> bool:
    """A Namespace labelled as a GPU workload namespace."""
    labels = mapping(path(resource.props, "metadata", "labels"))
    return any(label in labels for label in GPU_NAMESPACE_LABELS)


def checked_gpu_namespaces(
    index: Mapping[str, list[PolicyResource]], config: Config
) -> Iterator[tuple[str, PolicyResource]]:
    """The stack's GPU workload namespaces that are not exempt: (metadata.name, resource)."""
    skip_namespaces, skip_names = exempt_namespaces(config), exempt_names(config)
    for namespace in index[NAMESPACE]:
        name = object_name(namespace)
        if not is_gpu_namespace(namespace) or name in skip_namespaces:
            continue
        if name in skip_names or namespace.name in skip_names:
            continue
        yield name, namespace
