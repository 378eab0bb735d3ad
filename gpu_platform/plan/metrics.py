"""GPU metrics: which nodes get NVIDIA's dcgm-exporter (every GPU node), what it is told so that
every GPU resource it can attribute is attributed to its pod, and how a scraper finds it.

Pure: the ``DcgmExporter`` component renders these values into its Helm release, and the
rules (``plan.prometheus_rules``) read the same resource names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from gpu_facts.capacity import mig_instances_per_gpu
from gpu_facts.nvidia.dcgm_exporter_chart import (
    DEFAULT_VERSION,
    DRA_ATTRIBUTION_MIN_VERSION,
    DRA_VALUE,
    ENGINE_ACTIVE,
    KNOWN_VALUE_PATHS,
    METRICS_PORT,
    MIN_VERSION,
    RESOURCE_NAMES_ENV,
    UTILIZATION,
    VIRTUAL_GPUS_ENV,
    attributable,
    natively_attributed,
)
from gpu_facts.nvidia.device_plugin_chart import at_least, unknown_value_paths
from gpu_facts.scheduling import SHARED_SUFFIX

from .amd.pools import nvidia_pools
from .chart_values import gpu_node_affinity, gpu_tolerations, merge_values
from .pools import PoolFacts

ScrapeMode = Literal["annotations", "serviceMonitor", "azureMonitor", "armsPrometheus"]
SCRAPE_MODES: tuple[ScrapeMode, ...] = (
    "annotations",
    "serviceMonitor",
    "azureMonitor",
    "armsPrometheus",
)
"""How Prometheus finds the exporter: ``prometheus.io/*`` pod annotations (any Prometheus with
the usual kubernetes-pods job), a ``monitoring.coreos.com`` ServiceMonitor (the Prometheus
Operator), an ``azmonitoring.coreos.com`` PodMonitor (AKS managed Prometheus, which reads
only that group), or a ``monitoring.coreos.com`` PodMonitor marked for ACK's managed Prometheus
agent (``gpu_facts.ack.addons.ARMS_DISCOVERY_ANNOTATION``)."""
DROPPED_TARGET_LABELS = "namespace|pod|container"
"""The target labels Prometheus would give every series after the exporter's own pod. The
exporter's series carry the pod, namespace and container holding the GPU under these names:
kept as they are (``honorLabels``) and, for a GPU no pod holds, left without any (the target's
are dropped), so ``namespace!=""`` means "held by a pod" in the rules."""
NODE_CRITICAL = "system-node-critical"


def exporter_pools(pools: Sequence[PoolFacts]) -> list[PoolFacts]:
    """Pools whose nodes get our exporter: every NVIDIA GPU pool. DCGM reads the GPUs through the
    driver, whichever plugin advertises them, so pools ACK's own sharing serves (MPS, cGPU,
    share) get it too; ACK's own exporter keeps off all of them (it tolerates no custom taint:
    ``gpu_facts.ack.addons.ARMS_GPU_EXPORTER``): one exporter per GPU node. AMD pools get
    AMD's exporter from AMD's GPU Operator (``plan.amd.gpu_operator``): DCGM reads no AMD GPU."""
    return nvidia_pools(pools)


def attributed_pools(pools: Sequence[PoolFacts]) -> list[PoolFacts]:
    """Pools whose pods the exporter names on their GPUs' series: those the NVIDIA device plugin
    serves. ACK's sharing hands out ``aliyun.com/gpu-mem``, whose pods it cannot name
    (``gpu_facts.nvidia.dcgm_exporter_chart.UNATTRIBUTABLE_RESOURCES``)."""
    return [pool for pool in pools if pool.uses_device_plugin]


def ack_shared_pools(pools: Sequence[PoolFacts]) -> list[PoolFacts]:
    """Exporter pools ACK's own sharing serves: their nodes carry none of the NVIDIA plugin's
    labels, so the exporter selects them by our pool label."""
    return [
        pool for pool in exporter_pools(pools) if not pool.uses_device_plugin and not pool.uses_dra
    ]


def dra_exporter_pools(pools: Sequence[PoolFacts]) -> list[PoolFacts]:
    """Exporter pools NVIDIA's DRA driver serves: no device-plugin label either, so the exporter
    selects them by our pool label too. Whether it names the pods holding their devices depends
    on the exporter (``gpu_facts.nvidia.dcgm_exporter_chart.DRA_ATTRIBUTION``)."""
    return [pool for pool in exporter_pools(pools) if pool.uses_dra]


def pool_label_pools(pools: Sequence[PoolFacts]) -> list[str]:
    """The exporter pools selected by our pool label: ACK's shared pools and DRA pools."""
    return sorted(p.name for p in (*ack_shared_pools(pools), *dra_exporter_pools(pools)))


def exposed_resources(pools: Sequence[PoolFacts]) -> list[str]:
    """Every GPU resource the exporter attributes to pods, sorted: what the pools it can
    attribute advertise (the capacity model)."""
    return sorted(
        {
            name
            for pool in attributed_pools(pools)
            for name in pool.capacity.per_node
            if attributable(name)
        }
    )


def resource_names_to_declare(pools: Sequence[PoolFacts]) -> list[str]:
    """The names the exporter must be told (``NVIDIA_RESOURCE_NAMES``): it attributes
    ``nvidia.com/gpu`` and ``nvidia.com/mig-*`` by itself, nothing else (``.shared`` names of
    time-sliced or MPS pools). Listing a name it knows does no harm, so MIG ``.shared`` names
    are declared too. ``aliyun.com/gpu-mem`` is not: naming it attributes nothing."""
    return [
        name
        for name in exposed_resources(pools)
        if not natively_attributed(name) or name.endswith(SHARED_SUFFIX)
    ]


@dataclass(frozen=True, slots=True)
class NodeSeries:
    """What the exporter on one node of a pool shows: one ``metric`` series per device."""

    metric: str
    devices: int
    """Whole GPUs, or MIG instances: time-sliced and MPS replicas are the same GPUs."""
    mig_profile: str | None
    """The MIG profile every instance has (``GPU_I_PROFILE``), None for whole GPUs."""


def node_series(pool: PoolFacts) -> NodeSeries:
    """The exporter's view of one node of ``pool``, from the capacity model's facts. MIG
    instances report no ``DCGM_FI_DEV_GPU_UTIL``: graphics-engine activity is read instead."""
    if pool.mig_profile is None:
        return NodeSeries(UTILIZATION, pool.gpus_per_node, None)
    per_gpu = mig_instances_per_gpu(pool.gpu_model, pool.mig_profile)
    return NodeSeries(ENGINE_ACTIVE, pool.gpus_per_node * per_gpu, pool.mig_profile)


def has_shared_gpus(pools: Sequence[PoolFacts]) -> bool:
    """Shared GPUs whose pods the exporter can name (per-pod series would name none on ACK's)."""
    return any(pool.is_shared for pool in attributed_pools(pools))


def exporter_env(pools: Sequence[PoolFacts]) -> list[dict[str, str]]:
    """The exporter's environment: the resource names to attribute, per-pod series on shared
    GPUs. Our chart release and the GPU Operator's exporter both get it."""
    env = []
    names = resource_names_to_declare(pools)
    if names:
        env.append({"name": RESOURCE_NAMES_ENV, "value": ",".join(names)})
    if has_shared_gpus(pools):
        env.append({"name": VIRTUAL_GPUS_ENV, "value": "true"})
    return env


def dra_attribution(pools: Sequence[PoolFacts], version: str) -> bool:
    """Whether the exporter at chart ``version`` is told to name the pods holding DRA pools'
    devices: only an exporter that reads ``resource.k8s.io/v1`` ResourceSlices can
    (``gpu_facts.nvidia.dcgm_exporter_chart.DRA_ATTRIBUTION_MIN_VERSION``)."""
    return bool(dra_exporter_pools(pools)) and at_least(version, DRA_ATTRIBUTION_MIN_VERSION)


def reads_resource_slices(values: Mapping[str, Any]) -> bool:
    """Whether chart values turn the exporter's DRA attribution on (it then reads the API)."""
    dra = values.get(DRA_VALUE)
    return isinstance(dra, Mapping) and dra.get("enabled") is True


def exporter_values(
    pools: Sequence[PoolFacts],
    scrape: ScrapeMode,
    user_values: Mapping[str, Any] | None = None,
    version: str = DEFAULT_VERSION,
) -> dict[str, Any]:
    """The chart values: on exactly the GPU nodes (the device plugin's by its labels, ACK's shared
    pools' and DRA pools' by our pool label), told every resource name it can attribute, per-pod
    series on shared GPUs and (from an exporter that can) on DRA devices, and the scrape
    discovery asked for. User values merge over ours, like Helm's."""
    ours: dict[str, Any] = {
        "tolerations": gpu_tolerations(),
        "affinity": gpu_node_affinity(pool_label_pools(pools)),
        "priorityClassName": NODE_CRITICAL,
        "extraEnv": exporter_env(pools),
        "service": {"enable": True, "port": METRICS_PORT},
        # The chart's default asks for a ServiceMonitor: the install fails without its CRD.
        "serviceMonitor": (
            {"enabled": True, "honorLabels": True, "relabelings": target_relabelings()}
            if scrape == "serviceMonitor"
            else {"enabled": False}
        ),
        "podAnnotations": scrape_annotations() if scrape == "annotations" else {},
    }
    if dra_attribution(pools, version):
        ours[DRA_VALUE] = {"enabled": True}
    return merge_values(ours, user_values or {})


def target_relabelings() -> list[dict[str, str]]:
    """Relabelings (Prometheus Operator fields) that keep the exporter's pod attribution."""
    return [{"action": "labeldrop", "regex": DROPPED_TARGET_LABELS}]


def scrape_annotations(port: int = METRICS_PORT) -> dict[str, str]:
    """The ``prometheus.io/*`` annotations the common kubernetes-pods scrape job reads."""
    return {
        "prometheus.io/scrape": "true",
        "prometheus.io/port": str(port),
        "prometheus.io/path": "/metrics",
    }


def exporter_problems(version: str, values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Problems of the exporter's chart version and extra values, as ``(key, message)`` with
    keys ``version`` and ``values.<chart key>``: the stack config rules and the component
    report them under their own paths."""
    problems: list[tuple[str, str]] = []
    try:
        if not at_least(version, MIN_VERSION):
            problems.append(("version", f"{version} is older than {MIN_VERSION}"))
    except ValueError:
        problems.append(("version", f"not a chart version: {version!r}"))
    problems += [(f"values.{path}", message) for path, message in value_problems(values)]
    return problems


def value_problems(values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """One problem per user value key the chart does not have (a typo Helm would ignore)."""
    known = ", ".join(sorted(KNOWN_VALUE_PATHS))
    return [
        (path, f"not a dcgm-exporter chart key we support; known: {known}")
        for path in unknown_value_paths(values, KNOWN_VALUE_PATHS)
    ]
