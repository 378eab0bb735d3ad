"""Facts about NVIDIA's dcgm-exporter and its Helm chart (read from chart 4.8.2's values.yaml and
the exporter's source; sources beside each fact).

The exporter is one DaemonSet pod per GPU node serving Prometheus metrics on port 9400. Its
chart defaults do not fit a cluster whose GPU nodes are tainted: it tolerates only the
control-plane taint, selects every node, and asks for a ServiceMonitor whose CRD may not exist.
"""

from __future__ import annotations

from ..scheduling import ALIYUN_GPU_MEM

CHART_NAME = "dcgm-exporter"
CHART_REPO = "https://nvidia.github.io/dcgm-exporter/helm-charts"
DEFAULT_VERSION = "4.8.2"
"""Chart 4.8.2 (app 4.5.3-4.8.2): ``hostname`` label, per-process metrics on shared GPUs."""
MIN_VERSION = "4.0.0"
IMAGE_REPOSITORY = "nvcr.io/nvidia/k8s/dcgm-exporter"
IMAGE_NAME = "dcgm-exporter"
"""Last path segment of the exporter's image, whatever the registry (a raw DaemonSet's)."""
METRICS_PORT = 9400
"""``service.port`` and the container port: ``/metrics`` on every GPU node."""
DEFAULT_NAMESPACE = "gpu-metrics"
"""Namespace of our exporter release (the chart's pods need SYS_ADMIN for profiling metrics)."""

RESOURCE_NAMES_ENV = "NVIDIA_RESOURCE_NAMES"
"""Extra resource names the exporter maps to pods through the kubelet pod-resources API. Without
it only ``nvidia.com/gpu`` and names starting ``nvidia.com/mig-`` are attributed
(dcgm-exporter ``internal/pkg/transformation/kubernetes.go``, ``appconfig/const.go``)."""
RESOURCE_NAMES_FLAG = "--nvidia-resource-names"
"""The command-line form of ``NVIDIA_RESOURCE_NAMES`` (comma-separated, like the env var)."""
NATIVE_RESOURCE = "nvidia.com/gpu"
NATIVE_RESOURCE_PREFIX = "nvidia.com/mig-"


UNATTRIBUTABLE_RESOURCES: frozenset[str] = frozenset({ALIYUN_GPU_MEM})
"""GPU resources whose pods the exporter cannot name, whatever it is told. It labels a GPU's
series with the pod whose pod-resources device ID *is* that GPU: its UUID (or ``nvidiaN`` with
``--kubernetes-gpu-id-type=device-name``), the NVIDIA plugin's replica form ``<UUID>::<n>``, or
GKE's ``nvidia<i>/vgpu<n>`` (``internal/pkg/transformation/kubernetes.go``: ``toDeviceToPod``,
``toDeviceToSharingPods``; the per-process path of ``KUBERNETES_VIRTUAL_GPUS``,
``process_metrics.go``, takes its candidate pods from the same map). ACK's GPU sharing advertises
``aliyun.com/gpu-mem`` as one fake device per GiB, ``<UUID>-_-<n>`` (AliyunContainerService
gpushare-device-plugin ``pkg/gpu/nvidia/nvidia.go``, ``generateFakeDeviceID``), a form the
exporter never maps to a GPU; and its ``Allocate`` ignores the IDs the kubelet picked, handing the
pod the GPU its scheduler extender wrote into the pod's annotations (``allocate.go``,
``getGPUIDFromPodAnnotation``), so on a node of several GPUs those IDs need not even name the
pod's GPU. Such a pod's GPU series carry no pod or namespace: the GPU is measured, the pod is
not named. (ACK's ack-ai-installer ships its own build of that plugin; the same holds as long
as its IDs are not the bare GPU UUIDs, which one GPU shared by several pods cannot be.)"""


def attributable(resource: str) -> bool:
    """Whether the exporter can map GPUs of ``resource`` to pods (told its name if need be)."""
    return resource not in UNATTRIBUTABLE_RESOURCES


def natively_attributed(resource: str) -> bool:
    """Whether the exporter maps GPUs of ``resource`` to pods without being told its name."""
    return resource == NATIVE_RESOURCE or resource.startswith(NATIVE_RESOURCE_PREFIX)


def declared_names(value: str) -> frozenset[str]:
    """The names of an ``NVIDIA_RESOURCE_NAMES`` value (comma-separated, blanks ignored)."""
    return frozenset(name.strip() for name in value.split(",") if name.strip())


VIRTUAL_GPUS_ENV = "KUBERNETES_VIRTUAL_GPUS"
"""Per-process metrics for GPUs shared by time-slicing or MPS, so each pod on a shared GPU gets
its own series (dcgm-exporter ``pkg/cmd/app.go``, commit fb5e3dc)."""
DEFAULT_TOLERATIONS: tuple[dict[str, str], ...] = (
    {"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"},
)
"""The chart's ``tolerations`` (values.yaml 4.8.2): without an override it never runs on a
node tainted ``nvidia.com/gpu``."""
POD_LABEL = "pod"
NAMESPACE_LABEL = "namespace"
"""Labels of the pod (and its namespace) holding a GPU, on every series of that GPU, when the
exporter runs with Kubernetes support (``internal/pkg/transformation/kubernetes.go``)."""
GPU_LABEL = "gpu"
"""The GPU's index on the node; ``UUID`` is its UUID."""
UUID_LABEL = "UUID"
HOSTNAME_LABEL = "hostname"
"""The node label on every series; ``Hostname`` before commit d5e5f51 (2026-05): rules written
for older exporters silently match nothing."""

# Counters of the chart's default-counters.csv that our rules and dashboard read.
UTILIZATION = "DCGM_FI_DEV_GPU_UTIL"
"""One series per whole GPU; not reported for MIG instances (NVIDIA/dcgm-exporter issues #105,
#216: "not supported for MIG configurations", use the profiling fields)."""
ENGINE_ACTIVE = "DCGM_FI_PROF_GR_ENGINE_ACTIVE"
"""The utilization that is meaningful per MIG instance (0..1): one series per GPU instance,
labelled ``GPU_I_PROFILE`` and ``GPU_I_ID``."""
FRAMEBUFFER_USED = "DCGM_FI_DEV_FB_USED"
FRAMEBUFFER_FREE = "DCGM_FI_DEV_FB_FREE"
XID_ERRORS = "DCGM_FI_DEV_XID_ERRORS"
"""The last XID error code of the GPU (0: none)."""
TEMPERATURE = "DCGM_FI_DEV_GPU_TEMP"
ROW_REMAP_FAILURE = "DCGM_FI_DEV_ROW_REMAP_FAILURE"
UNCORRECTABLE_REMAPPED_ROWS = "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS"
MIG_PROFILE_LABEL = "GPU_I_PROFILE"
MIG_INSTANCE_LABEL = "GPU_I_ID"

DRA_VALUE = "kubernetesDRA"
"""``kubernetesDRA.enabled`` (values.yaml 4.8.2, default false): the chart sets
``KUBERNETES_ENABLE_DRA=true``, mounts the ServiceAccount token and grants get/list/watch on
pods and ``resource.k8s.io`` ResourceSlices (``templates/daemonset.yaml``,
``templates/clusterrole.yaml``). The exporter then maps the devices the kubelet's pod-resources
API reports for DRA claims, as (pool, device) names, to GPU or MIG UUIDs through the node's
ResourceSlices, and labels their series with ``pod``, ``namespace``, ``container`` and ``dra_*``
labels (NVIDIA/gpu-operator PRs #2697 and #2706; no pod UID label: NVIDIA/dcgm-exporter#718).
It needs egress to the API server."""
DRA_ATTRIBUTION_MIN_VERSION = "4.8.3"
"""The first exporter said to read ResourceSlices as ``resource.k8s.io/v1`` (NVIDIA/dcgm-exporter
#590, "Add support for K8s v1.34 resource.k8s.io/v1 DRA APIs": "fixed in the latest version
4.6.0-4.8.3", a user's comment of 2026-07-14; the PRs #650 and #654 in the index are closed, so
which change did it is unconfirmed). Earlier exporters read ``v1beta1``, which Kubernetes 1.34+
does not serve by default: on those, the pinned 4.8.2 included, series of claimed devices name
no pod. The platform turns DRA attribution on only from this version."""

# The chart value paths we set, or let users set; each is in the chart's values.yaml (4.8.2).
# Below a listed path with no listed children the value is opaque (a Kubernetes object);
# ``device_plugin_chart.unknown_value_paths(values, KNOWN_VALUE_PATHS)`` finds the rest.
KNOWN_VALUE_PATHS: frozenset[str] = frozenset(
    {
        "image",
        "image.repository",
        "image.tag",
        "arguments",
        "priorityClassName",
        "podLabels",
        "podAnnotations",
        "securityContext",
        "service",
        "service.enable",
        "service.port",
        "service.annotations",
        "resources",
        "serviceMonitor",
        "serviceMonitor.enabled",
        "serviceMonitor.apiVersion",
        "serviceMonitor.interval",
        "serviceMonitor.additionalLabels",
        "serviceMonitor.honorLabels",
        "serviceMonitor.relabelings",
        "nodeSelector",
        "tolerations",
        "affinity",
        "extraEnv",
        "kubernetes",
        "kubernetes.enablePodLabels",
        "kubernetes.enablePodUID",
        "kubernetes.podLabelAllowlistRegex",
        DRA_VALUE,
        f"{DRA_VALUE}.enabled",
    }
)
