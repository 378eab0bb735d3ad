"""The pods operators make from custom resources that hold no pod: KAITO's ``Workspace`` and
``InferenceSet``, NVIDIA's ``NIMService``, ``NIMPipeline`` and ``NIMCache``, built as the operator
builds them (``gpu_facts.operators``), so every pod policy judges what will run.

Each function takes the resource's fields and gives the pod spec the operator will make (a
read-only mapping, built on first read), with the pod's labels where the program decides them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gpu_facts import UnknownGpuFact, aws_instance_type, azure_vm_size
from gpu_facts.operators import (
    KAITO_MIG_RESOURCE_PREFIX,
    KAITO_TOLERATIONS,
    KAITO_WORKSPACE_LABEL,
    NIM_CACHE_CONTAINER,
    NIM_CLAIM_DEFAULT_DEVICE_CLASS,
    NIM_CONTAINER_SUFFIX,
    NIM_GPU_RESOURCE,
)

from .pod_shapes import Lazy, Overlay
from .props import is_false, items, mapping, mappings, path, text


@dataclass(frozen=True, slots=True)
class OperatorPod:
    """One pod an operator makes: where in the resource it comes from, its spec and labels."""

    where: str
    spec: Mapping[str, Any]
    labels: Mapping[str, str] | None
    """The labels the program gives the pod; None when the operator sets them all."""


# --- KAITO ------------------------------------------------------------------------------------


def _gpus_per_node(instance_type: str | None) -> int:
    """GPUs of a Workspace's ``instanceType`` (an Azure size or EC2 type of the catalog); 1 when
    the catalog does not know it or the nodes are the team's own (read from their labels at run
    time: a whole number all the same)."""
    if instance_type:
        for lookup in (azure_vm_size, aws_instance_type):
            try:
                return lookup(instance_type).gpu_count
            except UnknownGpuFact:
                continue
    return 1


def _node_affinity(resource: Mapping[str, Any]) -> dict[str, Any] | None:
    """The required node affinity KAITO gives the pod: ``resource.labelSelector``'s
    ``matchLabels`` as ``In`` requirements, or none (it replaces a template's own)."""
    match_labels = mapping(path(resource, "labelSelector", "matchLabels"))
    if not match_labels:
        return None
    expressions = [
        {"key": str(key), "operator": "In", "values": [str(value)]}
        for key, value in match_labels.items()
    ]
    term = {"matchExpressions": expressions}
    required = {"nodeSelectorTerms": [term]}
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}}


def _kaito_preset_tolerations(resource: Mapping[str, Any]) -> list[dict[str, str]]:
    """A preset pod's tolerations: KAITO's defaults, and a MIG partition's profile key (only the
    preset path adds that one; a template gets the defaults alone)."""
    tolerations = [dict(t) for t in KAITO_TOLERATIONS]
    partition = mapping(resource.get("partition"))
    profile = text(partition.get("profile"))
    if text(partition.get("mode")) == "mig" and profile:
        key = KAITO_MIG_RESOURCE_PREFIX + profile
        tolerations.append({"key": key, "operator": "Exists", "effect": "NoSchedule"})
    return tolerations


def _kaito_gpu(resource: Mapping[str, Any]) -> tuple[str, int]:
    partition = mapping(resource.get("partition"))
    profile = text(partition.get("profile"))
    if text(partition.get("mode")) == "mig" and profile:
        return KAITO_MIG_RESOURCE_PREFIX + profile, 1
    count = partition.get("count") if text(partition.get("mode")) == "accelerator" else None
    if isinstance(count, int | float) and not isinstance(count, bool):
        return NIM_GPU_RESOURCE, int(count)
    return NIM_GPU_RESOURCE, _gpus_per_node(text(resource.get("instanceType")))


def kaito_pod(
    name: str, resource: Mapping[str, Any], inference: Mapping[str, Any], where: str
) -> OperatorPod:
    """The inference pod of a Workspace (``resource``, ``inference``): a preset gets KAITO's
    container with the GPUs of its nodes; a template is copied with its resources as written.
    Either way the affinity is KAITO's and KAITO's default tolerations are added; a preset with
    a MIG partition also tolerates its profile's key (``GenerateInferencePodSpec``; a template
    gets ``defaultTolerations`` alone, ``template_inference.go``)."""
    template = inference.get("template")
    if isinstance(template, Mapping):
        spec = mapping(template.get("spec"))
        labels = {
            **{str(k): str(v) for k, v in mapping(path(template, "metadata", "labels")).items()},
            KAITO_WORKSPACE_LABEL: name,
        }
        pod = Overlay(
            spec,
            {
                "tolerations": lambda: [
                    *mappings(spec.get("tolerations")),
                    *map(dict, KAITO_TOLERATIONS),
                ],
                "affinity": lambda: _node_affinity(resource),
            },
        )
        return OperatorPod(f"{where}.template", pod, labels)

    def preset() -> dict[str, Any]:
        gpu, count = _kaito_gpu(resource)
        container = {
            "name": name,
            "resources": {"requests": {gpu: count}, "limits": {gpu: count}},
        }
        pod: dict[str, Any] = {
            "containers": [container],
            "tolerations": _kaito_preset_tolerations(resource),
        }
        affinity = _node_affinity(resource)
        if affinity is not None:
            pod["affinity"] = affinity
        return pod

    return OperatorPod(f"{where}.preset", Lazy(preset), None)


def kaito_workspace_pods(workspace: Mapping[str, Any]) -> Iterator[OperatorPod]:
    """A Workspace's inference pod (none for a tuning Workspace)."""
    inference = workspace.get("inference")
    if isinstance(inference, Mapping):
        name = text(path(workspace, "metadata", "name")) or ""
        yield kaito_pod(name, mapping(workspace.get("resource")), inference, "inference")


def kaito_inference_set_pods(name: str, spec: Mapping[str, Any]) -> Iterator[OperatorPod]:
    """The pod of each Workspace an InferenceSet makes: its template's ``resource`` with the
    set's ``labelSelector`` (``pkg/utils/inferenceset/inferenceset.go``)."""
    template = mapping(spec.get("template"))
    inference = template.get("inference")
    if isinstance(inference, Mapping):
        resource = {**mapping(template.get("resource")), "labelSelector": spec.get("labelSelector")}
        yield kaito_pod(name, resource, inference, "spec.template.inference")


# --- NVIDIA NIM operator ----------------------------------------------------------------------


def _image(image: Any) -> str | None:
    repository = text(path(image, "repository"))
    if repository is None:
        return None
    tag = text(path(image, "tag"))
    return f"{repository}:{tag}" if tag else repository


def _nim_container(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A ``NIMContainerSpec`` (init and sidecar containers) as a container."""
    container = {"name": text(spec.get("name")) or "", "image": _image(spec.get("image"))}
    for key in ("command", "args", "env"):
        if spec.get(key) is not None:
            container[key] = spec[key]
    return container


def asks_for_gpu(resources: Mapping[str, Any]) -> bool:
    return any(NIM_GPU_RESOURCE in mapping(resources.get(part)) for part in ("requests", "limits"))


def _nim_resources(spec: Mapping[str, Any]) -> Mapping[str, Any]:
    """``spec.resources``, with the GPUs the operator adds to a NIMService served from a NIMCache
    profile it names, when neither ``resources`` nor ``draResources`` asks for any
    (``gpu_facts.operators.NIM_GPU_RESOURCE``)."""
    resources = mapping(spec.get("resources"))
    cache = mapping(path(spec, "storage", "nimCache"))
    if (
        asks_for_gpu(resources)
        or items(spec.get("draResources"))
        or not text(cache.get("name"))
        or not text(cache.get("profile"))
    ):
        return resources
    tensor = path(spec, "multiNode", "parallelism", "tensor")
    count = int(tensor) if isinstance(tensor, int | float) and tensor > 0 else 1
    return {
        "requests": {**mapping(resources.get("requests")), NIM_GPU_RESOURCE: count},
        "limits": {**mapping(resources.get("limits")), NIM_GPU_RESOURCE: count},
    }


CREATED_CLAIM = "createdClaim"
"""In a pod the pack builds from an operator's resource, a ``resourceClaims`` entry's key for a
claim the operator creates from the resource itself (NIM's ``claimCreationSpec``): its devices
in a claim's ``spec.devices`` shape (``claims.requested_devices`` reads it). No pod of
Kubernetes' own has it."""


def _created_claim(creation: Mapping[str, Any]) -> dict[str, Any]:
    """A ``claimCreationSpec`` as the devices of the template the operator makes of it: one
    request per device, its class and count (NIM's defaults where unset)."""
    requests = [
        {
            "name": text(device.get("name")) or f"device-{index}",
            "deviceClassName": text(device.get("deviceClassName"))
            or NIM_CLAIM_DEFAULT_DEVICE_CLASS,
            "count": device.get("count", 1),
        }
        for index, device in enumerate(mappings(creation.get("devices")))
    ]
    return {"requests": requests}


def _dra_claims(spec: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``draResources`` as the pod's ``resourceClaims`` (named here by position; the operator
    names them with hashes): a claim, a claim template, or the template it creates from a
    ``claimCreationSpec`` (``CREATED_CLAIM``)."""
    claims = []
    for index, resource in enumerate(mappings(spec.get("draResources"))):
        claim: dict[str, Any] = {"name": f"dra-{index}"}
        if text(resource.get("resourceClaimName")):
            claim["resourceClaimName"] = resource["resourceClaimName"]
        elif text(resource.get("resourceClaimTemplateName")):
            claim["resourceClaimTemplateName"] = resource["resourceClaimTemplateName"]
        elif isinstance(creation := resource.get("claimCreationSpec"), Mapping):
            claim[CREATED_CLAIM] = _created_claim(creation)
        claims.append(claim)
    return claims


_COPIED = (
    "tolerations",
    "nodeSelector",
    "affinity",
    "runtimeClassName",
    "schedulerName",
    "priorityClassName",
)


def nim_service_pod(name: str, spec: Mapping[str, Any], where: str) -> OperatorPod:
    """The pod of a NIMService (or of one service of a NIMPipeline)."""

    def build() -> dict[str, Any]:
        container: dict[str, Any] = {
            "name": name + NIM_CONTAINER_SUFFIX,
            "image": _image(spec.get("image")),
            "resources": _nim_resources(spec),
        }
        for key in ("command", "args", "env"):
            if spec.get(key) is not None:
                container[key] = spec[key]
        claims = _dra_claims(spec)
        if claims:
            container["resources"] = {
                **container["resources"],
                "claims": [{"name": c["name"]} for c in claims],
            }
        pod: dict[str, Any] = {
            "containers": [
                container,
                *map(_nim_container, mappings(spec.get("sidecarContainers"))),
            ],
            "initContainers": list(map(_nim_container, mappings(spec.get("initContainers")))),
        }
        if claims:
            pod["resourceClaims"] = claims
        for key in _COPIED:
            if spec.get(key) is not None:
                pod[key] = spec[key]
        return pod

    labels = {"app": name, **{str(k): str(v) for k, v in mapping(spec.get("labels")).items()}}
    return OperatorPod(where, Lazy(build), labels)


def nim_pipeline_pods(spec: Mapping[str, Any]) -> Iterator[OperatorPod]:
    """Each enabled service of a NIMPipeline, a NIMService named after the service."""
    for index, service in enumerate(mappings(spec.get("services"))):
        if is_false(service.get("enabled")):
            continue
        name = text(service.get("name")) or f"#{index}"
        yield nim_service_pod(name, mapping(service.get("spec")), f"spec.services[{name}]")


def nim_cache_pod(name: str, spec: Mapping[str, Any]) -> OperatorPod:
    """The NIMCache's download Job: the source's model puller, no GPU."""

    def build() -> dict[str, Any]:
        source = mapping(spec.get("source"))
        puller = next(
            (
                text(mapping(s).get("modelPuller"))
                for s in source.values()
                if isinstance(s, Mapping)
            ),
            None,
        )
        resources = mapping(spec.get("resources"))
        quantities = {k: resources[k] for k in ("cpu", "memory") if resources.get(k) is not None}
        container: dict[str, Any] = {
            "name": NIM_CACHE_CONTAINER,
            "image": puller,
            "resources": {"requests": quantities, "limits": quantities},
        }
        if spec.get("env") is not None:
            container["env"] = spec["env"]
        pod: dict[str, Any] = {
            "containers": [container],
            "initContainers": list(map(_nim_container, mappings(spec.get("initContainers")))),
        }
        for key in ("tolerations", "nodeSelector", "runtimeClassName"):
            if spec.get(key) is not None:
                pod[key] = spec[key]
        return pod

    return OperatorPod("spec", Lazy(build), None)
