"""Facts about the NVIDIA device plugin Helm chart (read from its values.yaml and CHANGELOG)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

CHART_NAME = "nvidia-device-plugin"
CHART_REPO = "https://nvidia.github.io/k8s-device-plugin"
DEFAULT_VERSION = "0.20.0"
# From 0.15.0 GPU Feature Discovery ships inside this chart (CHANGELOG v0.15.0).
MIN_VERSION = "0.15.0"
# 0.16.0 raises an error for MPS on MIG devices; below it the plugin silently misbehaves.
MIN_VERSION_MPS = "0.16.0"
MPS_NEEDS_VERSION = f"MPS sharing needs device plugin {MIN_VERSION_MPS}+"
"""Why MPS sharing is refused on an older chart, wherever it is judged."""
PLUGIN_IMAGE = "nvcr.io/nvidia/k8s-device-plugin"
"""The plugin's image (values.yaml ``image.repository``); GFD, the MPS control daemon and the
config manager run from it too, told apart by their ``command`` (chart templates)."""
PLUGIN_IMAGE_NAME = "k8s-device-plugin"
PLUGIN_COMMAND = "nvidia-device-plugin"
GFD_COMMAND = "gpu-feature-discovery"
HELPER_COMMANDS: frozenset[str] = frozenset({"config-manager", "mps-control-daemon", "mount-shm"})
"""Commands of the image's other containers (config-manager sidecars, the MPS daemon)."""
GFD_IMAGE_NAME = "gpu-feature-discovery"
"""The standalone GFD image (before 0.15.0: ``nvcr.io/nvidia/gpu-feature-discovery``)."""
GFD_CHART_NAME = "gpu-feature-discovery"
"""The standalone GFD chart that must not be installed next to the plugin."""
IMPLICIT_DEFAULT_CONFIG = "default"
"""The chart's implicit default config name: with no ``config.default``, an entry of
``config.map`` named so is the default."""
DEFAULT_NAMESPACE = "nvidia-device-plugin"
"""Namespace of our device-plugin release (its pods run privileged by design)."""
MPS_CONTROL_DAEMON_SUFFIX = "mps-control-daemon"
NFD_NAME = "node-feature-discovery"
"""The chart names its DaemonSets ``<fullname>``, ``<fullname>-gpu-feature-discovery``,
``<fullname>-mps-control-daemon`` and (NFD subchart) ``<fullname>-node-feature-discovery-*``."""

RELEASE_NAME = CHART_NAME
"""Our release is named like the chart (components/helm_release.py): the chart's fullname is
``nvidia-device-plugin``, the NFD subchart's ``nvidia-device-plugin-node-feature-discovery``."""
INSTANCE_LABEL = "app.kubernetes.io/instance"
NAME_LABEL = "app.kubernetes.io/name"


@dataclass(frozen=True)
class ChartPod:
    """One kind of pod the chart (0.20.0, NFD subchart 0.19.0) runs, read from its template.

    Every one of them reaches the Kubernetes API server and nothing else: no pod serves another
    pod (the NFD pods' ``http`` port 8080 takes only the kubelet's probes, which come from the
    node and pass every NetworkPolicy, and metrics, whose PodMonitor is off: ``prometheus.enable``
    false), no pod needs DNS (in-cluster clients reach the API server at
    ``KUBERNETES_SERVICE_HOST``, an IP the kubelet sets), and none runs on the host network
    (``*.enableHostNetwork`` and ``nfd.*.hostNetwork`` are not keys we accept; a hostNetwork
    pod would be outside every NetworkPolicy). NFD 0.19 has no gRPC between worker and master:
    workers write NodeFeature objects and the master reads them through the API.
    """

    name: str
    kind: str
    template: str
    """The chart template that makes it, relative to the chart."""
    labels: Mapping[str, str]
    """The labels its pod template sets (``_helpers.tpl``: ``templateLabels`` /
    ``selectorLabels``, with our release name and no name overrides)."""
    api: str
    """What it does with the API server (its RBAC: ``templates/role.yml``, the NFD subchart's
    ``clusterrole.yaml``/``role.yaml``/``post-delete-job.yaml``)."""


_PLUGIN_LABELS = MappingProxyType({NAME_LABEL: CHART_NAME, INSTANCE_LABEL: RELEASE_NAME})


def _nfd_labels(role: str) -> Mapping[str, str]:
    return MappingProxyType({NAME_LABEL: NFD_NAME, INSTANCE_LABEL: RELEASE_NAME, "role": role})


_CONFIG_MANAGER = (
    "config-manager (init container and sidecar) reads its node's nvidia.com/device-plugin.config "
    "label (KUBECONFIG empty: in-cluster; ClusterRole nodes get/list/watch)"
)
_NFD = "charts/node-feature-discovery-0.19.0/templates/"
CHART_PODS: tuple[ChartPod, ...] = (
    ChartPod(
        "device-plugin",
        "DaemonSet",
        "templates/daemonset-device-plugin.yml",
        _PLUGIN_LABELS,
        _CONFIG_MANAGER,
    ),
    ChartPod(
        "gpu-feature-discovery",
        "DaemonSet",
        "templates/daemonset-gfd.yml",
        _PLUGIN_LABELS,
        f"{_CONFIG_MANAGER}; GFD writes NodeFeature objects (nodefeatures create/update)",
    ),
    ChartPod(
        "mps-control-daemon",
        "DaemonSet",
        "templates/daemonset-mps-control-daemon.yml",
        _PLUGIN_LABELS,
        _CONFIG_MANAGER,
    ),
    ChartPod(
        "nfd-master",
        "Deployment",
        f"{_NFD}master.yaml",
        _nfd_labels("master"),
        "reads NodeFeature(Rule)s, writes node labels, takes its lease",
    ),
    ChartPod(
        "nfd-worker",
        "DaemonSet",
        f"{_NFD}worker.yaml",
        _nfd_labels("worker"),
        "writes its node's NodeFeature object, reads its own pod (owner references)",
    ),
    ChartPod(
        "nfd-gc",
        "Deployment",
        f"{_NFD}nfd-gc.yaml",
        _nfd_labels("gc"),
        "deletes NodeFeature objects of nodes that are gone",
    ),
    ChartPod(
        "nfd-prune",
        "Job",
        f"{_NFD}post-delete-job.yaml",
        _nfd_labels("prune"),
        "post-delete hook: removes NFD's labels from the nodes after an uninstall",
    ),
)
"""Every pod the release can run with our values (the MPS daemon only on MPS nodes, the prune
Job only after an uninstall); ``tests/components/test_device_plugin_network.py`` renders the
chart and checks this list against it."""

CRITICAL_ADDONS_TAINT_KEY = "CriticalAddonsOnly"
"""Taint key of system-only nodes (AKS system pools); the chart's values.yaml tolerates it."""

# The chart value paths we set, or let users set through ``devicePlugin.values``; each one is in
# the chart's values.yaml (0.20.0) unless marked as the NFD subchart's. A generated or user key
# outside this list is refused, so a typo fails in CI instead of being ignored by Helm.
# Left out on purpose: ``migStrategy`` (a global value becomes the MIG_STRATEGY env var, which
# overrides the per-pool configs), ``config.name`` (the chart takes ``name`` or ``map``, we use
# ``map``), ``allowDefaultNamespace`` (the release has its own namespace).
# Below a listed path with no listed children the value is opaque (a Kubernetes object or a
# user-named map such as ``config.map.<name>``).
KNOWN_VALUE_PATHS: frozenset[str] = frozenset(
    {
        "config",
        "config.map",
        "config.default",
        "failOnInitError",
        "deviceListStrategy",
        "deviceIDStrategy",
        "nvidiaDriverRoot",
        "runtimeClassName",
        "nodeSelector",
        "affinity",
        "tolerations",
        "priorityClassName",
        "resources",
        "podAnnotations",
        "updateStrategy",
        "image",
        "image.repository",
        "image.tag",
        "devicePlugin",
        "devicePlugin.enabled",
        "gfd",
        "gfd.enabled",
        "mps",
        "mps.root",
        "mps.enableHostPID",
        "nfd",
        "nfd.worker",
        "nfd.worker.tolerations",
        # NFD subchart (node-feature-discovery 0.19.0, the chart's dependency), verified in
        # kubernetes-sigs/node-feature-discovery deployment/helm/node-feature-discovery/values.yaml:
        # worker.nodeSelector, worker.affinity, master.tolerations, gc.tolerations.
        "nfd.worker.nodeSelector",
        "nfd.worker.affinity",
        "nfd.worker.resources",
        "nfd.master",
        "nfd.master.tolerations",
        "nfd.master.resources",
        "nfd.gc",
        "nfd.gc.tolerations",
        "nfd.gc.resources",
        # <role>.podSecurityContext: NFD 0.19.0's values.yaml, used by master.yaml, worker.yaml
        # and nfd-gc.yaml (charts/nvidia-device-plugin-0.20.0/charts/node-feature-discovery-0.19.0).
        "nfd.worker.podSecurityContext",
        "nfd.master.podSecurityContext",
        "nfd.gc.podSecurityContext",
    }
)

GPU_OPERATOR_CHART_NAME = "gpu-operator"
GPU_OPERATOR_CHART_REPO = "https://helm.ngc.nvidia.com/nvidia"
GPU_OPERATOR_DEFAULT_NAMESPACE = "gpu-operator"
GPU_OPERATOR_DEFAULT_MIG_STRATEGY = "single"
"""``mig.strategy`` of the chart; the operator hands it to its device plugin as MIG_STRATEGY,
which beats every plugin config's ``flags.migStrategy``."""
GPU_OPERATOR_DAEMONSET_TOLERATIONS: tuple[dict[str, str], ...] = (
    {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
)
"""``daemonsets.tolerations`` of the chart: every operand DaemonSet (its dcgm-exporter too)
carries them."""
GPU_OPERATOR_EXPORTER_DAEMONSET = "nvidia-dcgm-exporter"
"""The operator's dcgm-exporter DaemonSet (``dcgmExporter.enabled``, on by default), in the
operator's namespace, serving ``/metrics`` on port 9400 like the chart's."""
GPU_OPERATOR_EXPORTER_DEPLOY_LABEL = "nvidia.com/gpu.deploy.dcgm-exporter"
"""Node label the operator selects its exporter by: it sets ``true`` on the GPU nodes it
manages unless the node already says ``false`` (GPU Operator docs, "Disabling operands")."""
GPU_OPERATOR_EXPORTER_ENV: tuple[tuple[str, str], ...] = (
    ("DCGM_EXPORTER_LISTEN", ":9400"),
    ("DCGM_EXPORTER_KUBERNETES", "true"),
    ("DCGM_EXPORTER_COLLECTORS", "/etc/dcgm-exporter/dcp-metrics-included.csv"),
)
"""The chart's ``dcgmExporter.env`` (values.yaml v24.x). Helm replaces a list it is given, so
values that add a variable carry these along."""
# Value paths of the GPU Operator chart (deployments/gpu-operator/values.yaml, v25.x) we set.
GPU_OPERATOR_KNOWN_VALUE_PATHS: frozenset[str] = frozenset(
    {
        "driver",
        "driver.enabled",
        "toolkit",
        "toolkit.enabled",
        "devicePlugin",
        "devicePlugin.enabled",
        "devicePlugin.config",
        "devicePlugin.config.create",
        "devicePlugin.config.name",
        "devicePlugin.config.default",
        "devicePlugin.config.data",
        "devicePlugin.resources",
        "gfd",
        "gfd.enabled",
        "gfd.resources",
        # The operator's own dcgm-exporter (on by default): its environment.
        "dcgmExporter",
        "dcgmExporter.env",
        "mig",
        "mig.strategy",
        "migManager",
        "migManager.enabled",
        "daemonsets",
        "daemonsets.tolerations",
        "daemonsets.priorityClassName",
        "node-feature-discovery",
        "node-feature-discovery.worker",
        "node-feature-discovery.worker.tolerations",
        # devicePlugin.resources and gfd.resources (ClusterPolicy's per-component resources)
        # and the NFD subchart's <role>.resources: read in deployments/gpu-operator/values.yaml
        # at NVIDIA/gpu-operator commit d7413be (the devicePlugin v0.16 era).
        "node-feature-discovery.worker.resources",
        "node-feature-discovery.master.resources",
        "node-feature-discovery.gc.resources",
        "node-feature-discovery.worker.podSecurityContext",
        "node-feature-discovery.master.podSecurityContext",
        "node-feature-discovery.gc.podSecurityContext",
        # Verified in NVIDIA/gpu-operator deployments/gpu-operator/values.yaml
        # (operator.tolerations) and the NFD subchart's values.yaml (master/gc.tolerations).
        "operator",
        "operator.tolerations",
        "node-feature-discovery.master",
        "node-feature-discovery.master.tolerations",
        "node-feature-discovery.gc",
        "node-feature-discovery.gc.tolerations",
    }
)


def unknown_value_paths(
    values: Mapping[str, object], known: frozenset[str] = KNOWN_VALUE_PATHS, prefix: str = ""
) -> list[str]:
    """Every key path in ``values`` that is not in ``known``, in document order.

    Descends into a mapping only where ``known`` lists deeper paths; below that the value is
    opaque (a Kubernetes object, or a map of user-chosen names).
    """
    unknown: list[str] = []
    for key, value in values.items():
        path = f"{prefix}{key}"
        if path not in known:
            unknown.append(path)
            continue
        deeper = any(k.startswith(path + ".") for k in known)
        if deeper and isinstance(value, Mapping):
            unknown.extend(unknown_value_paths(value, known, path + "."))
    return unknown


def version_tuple(version: str) -> tuple[int, ...]:
    """``"0.20.0"`` -> ``(0, 20, 0)``; a leading ``v`` and pre-release suffixes are ignored."""
    core = version.strip().lstrip("v").split("-", 1)[0].split("+", 1)[0]
    return tuple(int(part) for part in core.split("."))


def at_least(version: str, minimum: str) -> bool:
    """Whether ``version`` is ``minimum`` or newer (semantic version order)."""
    return version_tuple(version) >= version_tuple(minimum)


# The GPU Operator's own pods and the operands it deploys in its namespace (NVIDIA/gpu-operator
# assets/state-*/: read at commit 06faaf0). Not rendered in tests: the operator creates the
# operands at run time from ClusterPolicy, so no chart render shows them.
GPU_OPERATOR_DRIVER_LABELS: Mapping[str, str] = MappingProxyType({"app": "nvidia-driver-daemonset"})
"""Pod labels of the driver DaemonSet (assets/state-driver/0500_daemonset.yaml). Not on the host
network. Its container builds the kernel module and fetches the node's kernel headers from the
distribution's package repositories (names, over HTTP and HTTPS); its driver-manager init
container evicts GPU pods through the API."""
GPU_OPERATOR_DRIVER_DOWNLOAD_PORTS: tuple[int, ...] = (80, 443)
"""Ubuntu's archive mirrors serve HTTP; NVIDIA's and other repositories HTTPS."""
GPU_OPERATOR_DCGM_EXPORTER_LABELS: Mapping[str, str] = MappingProxyType(
    {"app": "nvidia-dcgm-exporter"}
)
"""Pod labels of the operator's dcgm-exporter (assets/state-dcgm-exporter/0800_daemonset.yaml;
``dcgmExporter.enabled`` is on by default), not on the host network."""
GPU_OPERATOR_DCGM_EXPORTER_PORT = 9400
"""Its ``metrics`` container port (``DCGM_EXPORTER_LISTEN=:9400``)."""
