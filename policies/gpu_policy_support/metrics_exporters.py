"""NVIDIA's dcgm-exporter in a stack, however it is deployed, and the GPU pools it watches.

An exporter is a Helm release (v3 ``Release`` or v4 ``Chart``) of the ``dcgm-exporter`` chart, a
DaemonSet running the exporter's image (DaemonSets a release of those charts rendered belong to
that release; other rendered ones are judged as DaemonSets),
or the GPU Operator's own (``dcgmExporter.enabled``, on by default). It watches a pool when its
pods may run on the pool's nodes, as the scheduler decides: its tolerations tolerate every
``NoSchedule`` / ``NoExecute`` taint of the pool (on GKE also the GPU taint GKE adds itself;
GKE's admission adds the toleration only to pods that ask for GPUs, which an exporter does not),
and its ``nodeSelector`` / required node affinity admits the pool's labels (``node_placement``:
judged on the labels the pool declares, as for the device plugin release).

AMD's GPUs have AMD's exporter instead: the device-metrics-exporter of AMD's GPU Operator, one
per ``DeviceConfig`` with ``metricsExporter.enable`` (``amd.device_configs``), on the nodes its
selector picks and whose taints its tolerations cover. An exporter reads only its vendor's GPUs.

Managed exporters come with a cluster setting and watch only their cloud's pools: ACK's managed
Prometheus (the ``arms-prometheus`` add-on, or its ``ack-arms-prometheus`` chart) runs ACK's GPU
exporter on every ACK GPU node, but it tolerates no custom taint, so not on a tainted pool;
GKE's managed DCGM metrics (``monitoringConfig.enableComponents: [DCGM]``) run on GKE's GPU
nodes, which Google manages.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pulumi_policy import PolicyResource
from pulumi_policy.proxy import UnknownValueError

from gpu_facts.ack.addons import ARMS_GPU_EXPORTER, ARMS_PROMETHEUS_ADDON, ARMS_PROMETHEUS_CHART
from gpu_facts.gke.machine_types import GKE_DCGM_COMPONENT
from gpu_facts.nvidia.dcgm_exporter_chart import (
    CHART_NAME,
    DEFAULT_TOLERATIONS,
    IMAGE_NAME,
    RESOURCE_NAMES_ENV,
    RESOURCE_NAMES_FLAG,
    declared_names,
    natively_attributed,
)
from gpu_facts.nvidia.device_plugin_chart import (
    GPU_OPERATOR_CHART_NAME,
    GPU_OPERATOR_DAEMONSET_TOLERATIONS,
    GPU_OPERATOR_EXPORTER_DEPLOY_LABEL,
)
from gpu_facts.scheduling import GPU_NODE_TAINT, Taint
from gpu_facts.vendors import AMD_NAME, NVIDIA_NAME

from .amd.device_configs import device_configs
from .device_plugin_daemonsets import raw_daemonsets
from .helm_releases import release_label, releases
from .images import repository_name, split_image
from .node_placement import ANYWHERE, NodePlacement, Requirement, Term, node_placement
from .node_pools import NodePool
from .pod_specs import containers
from .props import is_false, is_true, items, mapping, mappings, path, text
from .resource_types import ACK_ADDON, ACK_MANAGED_CLUSTER, GKE_CLUSTER
from .tolerations import describe_tolerations, untolerated

EXPORTER_CHARTS = frozenset({CHART_NAME, GPU_OPERATOR_CHART_NAME})
"""The charts whose releases stand for the exporter DaemonSets they render."""
OPERATOR_PLACEMENT = NodePlacement(
    {}, (Term((Requirement(GPU_OPERATOR_EXPORTER_DEPLOY_LABEL, "NotIn", ("false",)),), False),)
)
"""The GPU Operator runs its exporter on every GPU node it manages but those labelled off."""


@dataclass(frozen=True, slots=True)
class Exporter:
    """One dcgm-exporter of the stack: where its pods may run and the names it attributes."""

    resource: PolicyResource
    label: str
    """How messages name it: ``release 'dcgm-exporter' (dcgm-exporter)``."""
    tolerations: tuple[Mapping[str, Any], ...]
    placement: NodePlacement
    declared: frozenset[str] | None
    """The names it is told (``NVIDIA_RESOURCE_NAMES`` or its flag); None: unknown at preview."""
    names_via: str
    """What tells it the names: ``NVIDIA_RESOURCE_NAMES``, or ``--nvidia-resource-names``."""
    names_at: str
    """Where that is set, for fixes: ``the release's values.extraEnv``."""
    cloud: str | None = None
    """A managed exporter watches only its cloud's pools (``ack``, ``gke``: ``clouds``)."""
    vendor: str = NVIDIA_NAME
    """The vendor whose GPUs it reads (``NVIDIA``: DCGM; ``AMD``: AMD's exporter)."""

    def misses(self, pool: NodePool) -> str | None:
        """Why the exporter runs no pod on the pool's nodes, None when it does."""
        blocking = untolerated(self.tolerations, pool_taints(pool))
        if blocking:
            return (
                f"{self.label} does not tolerate its taint "
                f"{', '.join(str(t) for t in blocking)} (it tolerates "
                f"{describe_tolerations(self.tolerations)})"
            )
        if not self.placement.admits(pool.labels):
            return (
                f"{self.label} keeps off its nodes: their labels fail its "
                f"{self.placement.unmet(pool.labels)}"
            )
        return None

    def attributes(self, resource: str) -> bool:
        """Whether the exporter maps GPUs of ``resource`` to the pods holding them."""
        return natively_attributed(resource) or resource in (self.declared or ())


def pool_taints(pool: NodePool) -> tuple[Taint, ...]:
    """The taints of the pool's nodes: its own, and on GKE the GPU taint GKE adds."""
    if pool.provider_taints_gpu_nodes and GPU_NODE_TAINT not in pool.taints:
        return (*pool.taints, GPU_NODE_TAINT)
    return pool.taints


def _flag_names(words: Sequence[Any]) -> frozenset[str] | None:
    """The names ``--nvidia-resource-names`` gives (``=a,b`` or a separate word), if present."""
    for position, word in enumerate(words):
        if not isinstance(word, str):
            continue
        if word.startswith(RESOURCE_NAMES_FLAG + "="):
            return declared_names(word.partition("=")[2])
        if word == RESOURCE_NAMES_FLAG and position + 1 < len(words):
            value = words[position + 1]
            return declared_names(value) if isinstance(value, str) else None
    return None


@dataclass(frozen=True, slots=True)
class Declared:
    """The resource names an exporter is told, and where."""

    names: frozenset[str] | None
    """None: not known at preview (an Output, or ``valueFrom``)."""
    by_flag: bool
    """Given by ``--nvidia-resource-names``, which beats the env var (the exporter's CLI)."""


def _declared(env: Any, words: Sequence[Any]) -> Declared:
    try:
        if any(isinstance(w, str) and w.startswith(RESOURCE_NAMES_FLAG) for w in words):
            return Declared(_flag_names(words), by_flag=True)
        for variable in mappings(env):
            if text(variable.get("name")) == RESOURCE_NAMES_ENV:
                value = text(variable.get("value"))
                return Declared(declared_names(value) if value is not None else None, False)
    except UnknownValueError:
        return Declared(None, by_flag=False)
    return Declared(frozenset(), by_flag=False)


def _exporter(
    resource: PolicyResource,
    label: str,
    *,
    tolerations: Any,
    placement: NodePlacement,
    declared: Declared,
    env_at: str,
    flag_at: str = "",
) -> Exporter:
    return Exporter(
        resource,
        label,
        tuple(mappings(tolerations)),
        placement,
        declared.names,
        RESOURCE_NAMES_FLAG if declared.by_flag else RESOURCE_NAMES_ENV,
        flag_at if declared.by_flag else env_at,
    )


def _chart(release: PolicyResource) -> Exporter:
    values = mapping(release.props.get("values"))
    tolerations = values.get("tolerations") if "tolerations" in values else DEFAULT_TOLERATIONS
    return _exporter(
        release,
        f"release {release_label(release)}",
        tolerations=tolerations,
        placement=node_placement(values),
        declared=_declared(values.get("extraEnv"), items(values.get("arguments"))),
        env_at="the release's values.extraEnv",
        flag_at="the release's values.arguments",
    )


def _operator(release: PolicyResource) -> Exporter | None:
    values = mapping(release.props.get("values"))
    exporter = mapping(values.get("dcgmExporter"))
    if is_false(exporter.get("enabled")):
        return None
    daemonsets = mapping(values.get("daemonsets"))
    tolerations = (
        daemonsets.get("tolerations")
        if "tolerations" in daemonsets
        else GPU_OPERATOR_DAEMONSET_TOLERATIONS
    )
    return _exporter(
        release,
        f"the GPU Operator's exporter (release {release_label(release)})",
        tolerations=tolerations,
        placement=OPERATOR_PLACEMENT,
        declared=_declared(exporter.get("env"), ()),
        env_at="the release's values.dcgmExporter.env",
    )


def _daemonsets(index: Mapping[str, list[PolicyResource]]) -> Iterator[Exporter]:
    for resource, spec in raw_daemonsets(index, EXPORTER_CHARTS):
        for container in containers(spec):
            image = text(container.spec.get("image")) or ""
            if repository_name(split_image(image)[0]) != IMAGE_NAME:
                continue
            words = [*items(container.spec.get("command")), *items(container.spec.get("args"))]
            yield _exporter(
                resource,
                f"DaemonSet '{resource.name}' ({image})",
                tolerations=spec.get("tolerations"),
                placement=node_placement(spec),
                declared=_declared(container.spec.get("env"), words),
                env_at=f"the env of container '{container.name}'",
                flag_at=f"the args of container '{container.name}'",
            )
            break


def exporters(index: Mapping[str, list[PolicyResource]]) -> list[Exporter]:
    """Every NVIDIA dcgm-exporter the stack deploys."""
    found = [_chart(release) for release in releases(index, CHART_NAME)]
    for release in releases(index, GPU_OPERATOR_CHART_NAME):
        exporter = _operator(release)
        if exporter is not None:
            found.append(exporter)
    found.extend(_daemonsets(index))
    return found


def amd_exporters(index: Mapping[str, list[PolicyResource]]) -> list[Exporter]:
    """AMD's device-metrics-exporter of every DeviceConfig that turns it on."""
    return [
        Exporter(
            config.resource,
            f"AMD's metrics exporter ({config.label})",
            config.exporter_tolerations,
            config.exporter_placement,
            None,
            "",
            "",
            vendor=AMD_NAME,
        )
        for config in device_configs(index)
        if config.exporter
    ]


def _managed(resource: PolicyResource, label: str, cloud: str, tolerations: Any) -> Exporter:
    return Exporter(
        resource, label, tuple(mappings(tolerations)), ANYWHERE, None, "", "", cloud=cloud
    )


def managed_exporters(index: Mapping[str, list[PolicyResource]]) -> list[Exporter]:
    """The managed exporters the stack turns on, each for its cloud's pools."""
    found: list[Exporter] = []
    ack = f"ACK's GPU exporter ({ARMS_GPU_EXPORTER}"
    for cluster in index.get(ACK_MANAGED_CLUSTER, ()):
        for addon in mappings(cluster.props.get("addons")):
            if text(addon.get("name")) == ARMS_PROMETHEUS_ADDON and not is_true(
                addon.get("disabled")
            ):
                label = f"{ack}, add-on {ARMS_PROMETHEUS_ADDON} of '{cluster.name}')"
                found.append(_managed(cluster, label, "ack", ()))
    for addon in index.get(ACK_ADDON, ()):
        if text(addon.props.get("name")) == ARMS_PROMETHEUS_ADDON:
            found.append(_managed(addon, f"{ack}, add-on '{addon.name}')", "ack", ()))
    for release in releases(index, ARMS_PROMETHEUS_CHART):
        found.append(_managed(release, f"{ack}, release {release_label(release)})", "ack", ()))
    for cluster in index.get(GKE_CLUSTER, ()):
        components = items(path(cluster.props, "monitoringConfig", "enableComponents"))
        if GKE_DCGM_COMPONENT in components:
            label = f"GKE's managed DCGM metrics of '{cluster.name}'"
            found.append(_managed(cluster, label, "gke", ({"operator": "Exists"},)))
    return found
