"""The runtime a KServe predictor or a Kubeflow TrainJob takes its pod's scheduling fields from,
when the stack declares it.

KServe merges the ServingRuntime's ``tolerations`` and ``nodeSelector`` under the predictor's;
a TrainJob's pod is its runtime's trainer pod, patched. A field the resource sets wins (lists
such as tolerations are replaced, maps merged); a field it leaves out is the runtime's. A
runtime outside the stack (one KServe or Kubeflow ships) counts as adding nothing: the shipped
runtimes carry no GPU toleration.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pulumi_policy import PolicyResource

from gpu_facts.pod_templates import TRAINER_CONTAINER, TRAINER_STEP, TRAINER_STEP_LABEL

from .pod_shapes import Overlay, RuntimeRef
from .pod_specs import DEFAULT_NAMESPACE, PodSite, is_cluster_scoped, namespace, pod_bearing
from .policy_factory import known_text
from .props import is_true, mapping, mappings, path, text


def _candidates(
    index: Mapping[str, list[PolicyResource]], ref: RuntimeRef, kind: str
) -> Iterator[tuple[str, PolicyResource]]:
    for resource_type, resources in index.items():
        found = pod_bearing(resource_type)
        if found is not None and (found.group, found.kind) == (ref.group, kind):
            yield from ((resource_type, r) for r in resources)


def _serves(props: Mapping[str, Any], ref: RuntimeRef) -> bool:
    if ref.name is not None:
        return text(path(props, "metadata", "name")) == ref.name
    if ref.model_format is None or is_true(path(props, "spec", "disabled")):
        return False
    return any(
        text(f.get("name")) == ref.model_format and is_true(f.get("autoSelect"))
        for f in mappings(path(props, "spec", "supportedModelFormats"))
    )


def _runtime_pod(props: Mapping[str, Any]) -> Mapping[str, Any]:
    """A ServingRuntime's pod fields (its ``spec``), or a training runtime's trainer pod."""
    jobs = list(mappings(path(props, "spec", "template", "spec", "replicatedJobs")))
    if not jobs:
        return mapping(props.get("spec"))
    for job in jobs:
        labels = mapping(path(job, "template", "metadata", "labels"))
        if labels.get(TRAINER_STEP_LABEL) == TRAINER_STEP:
            return mapping(path(job, "template", "spec", "template", "spec"))
    for job in jobs:
        if text(job.get("name")) == TRAINER_CONTAINER:
            return mapping(path(job, "template", "spec", "template", "spec"))
    return {}


def runtime_pod(
    site: PodSite, owner_namespace: str, index: Mapping[str, list[PolicyResource]]
) -> Mapping[str, Any] | None:
    """The pod fields of the runtime ``site`` names, when the stack declares it: the
    namespace's runtime first, then a cluster-wide one."""
    ref = site.runtime
    if ref is None:
        return None
    for kind in ref.kinds:
        for resource_type, runtime in _candidates(index, ref, kind):
            local = is_cluster_scoped(resource_type) or namespace(runtime.props) == owner_namespace
            if local and _serves(runtime.props, ref):
                return _runtime_pod(runtime.props)
    return None


def scheduling_spec(
    site: PodSite, owner: PolicyResource, index: Mapping[str, list[PolicyResource]]
) -> Mapping[str, Any]:
    """The site's pod spec with the tolerations and nodeSelector its runtime adds."""
    if site.runtime is None:
        return site.spec
    owner_namespace, known = known_text(owner.props, "metadata", "namespace")
    runtime = runtime_pod(site, owner_namespace or DEFAULT_NAMESPACE, index) if known else None
    if runtime is None:
        return site.spec
    spec = site.spec
    return Overlay(
        spec,
        {
            "tolerations": lambda: spec.get("tolerations") or runtime.get("tolerations"),
            "nodeSelector": lambda: (
                {**mapping(runtime.get("nodeSelector")), **mapping(spec.get("nodeSelector"))}
                or None
            ),
        },
    )
