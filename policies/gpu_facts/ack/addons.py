"""Facts about ACK: GPU-sharing components, editions, and the managed Prometheus and Log
Service integrations (ACK documentation, docs/ack.md, docs/observability.md)."""

from __future__ import annotations

ACK_PRO_PREFIX = "ack.pro."


def needs_ack_pro(mode: str) -> str:
    """Why ACK's GPU sharing ``mode`` (the ``ack.node.gpu.schedule`` value) is refused on a
    cluster that is not ACK Pro: the one message the stack config, the components and the pack
    give."""
    return f"ACK GPU sharing ('{mode}') needs ACK Pro ({ACK_PRO_PREFIX}*)"


"""``clusterSpec`` prefix of ACK Pro editions (``ack.pro.small``); MPS sharing needs Pro."""
ACK_CHART_REPO = "https://aliacs-app-catalog.oss-cn-hangzhou.aliyuncs.com/charts-incubator/"
"""ACK's app catalog (Marketplace) Helm repository."""
AI_INSTALLER_CHART = "ack-ai-installer"
"""GPU sharing scheduling and ACK's shared-GPU device plugin."""
MPS_CONTROL_CHART = "ack-mps-control"
"""The MPS control daemon (privileged, hostIPC, hostPID); restarting it crashes MPS clients."""
ACK_SYSTEM_NAMESPACE = "kube-system"
"""Where ACK's console installs both releases."""

# --- The GPU-memory ledger of ACK's GPU sharing (what ``kubectl inspect cgpu`` shows) ---------
# Sources: AliyunContainerService/gpushare-device-plugin ``cmd/inspect`` (the open-source
# ``kubectl inspect gpushare`` that ACK's ``kubectl inspect cgpu`` extends: ``main.go`` names,
# ``nodeinfo.go`` the per-GPU sums, ``podinfo.go`` the pods) and gpushare-scheduler-extender
# ``docs/designs/designs.md`` (the extender picks a GPU at bind time and writes it on the pod).

GPU_COUNT_RESOURCE = "aliyun.com/gpu-count"
"""GPUs of a shared node, advertised next to ``aliyun.com/gpu-mem``: the tool splits the node's
allocatable GPU memory evenly over this many GPUs (``totalGPUMem / gpuCount``)."""
GPU_MEM_INDEX_ANNOTATION = "ALIYUN_COM_GPU_MEM_IDX"
"""Pod annotation with the index of the GPU the scheduler extender gave the pod. A pod without
it (or with a value that is no whole number) is counted as pending (the tool's ``-1`` device,
its ``PENDING(Allocated)`` column)."""
GPU_MEM_POD_ANNOTATION = "ALIYUN_COM_GPU_MEM_POD"
"""Pod annotation with the GPU memory the extender booked for the pod. The tool itself sums the
containers' ``aliyun.com/gpu-mem`` limits instead; so do we."""

# --- Observability: Alibaba Cloud Managed Service for Prometheus (ARMS) and Simple Log Service.

ARMS_PROMETHEUS_ADDON = "arms-prometheus"
"""The cluster add-on (``cs.KubernetesAddon`` name; pulumi-alicloud 4.0.0 ``cs`` addons docs)
that installs ``ack-arms-prometheus``: the agent linking the cluster to Managed Service for
Prometheus, its kube-state-metrics and node-exporter (ACK help "Use Managed Service for
Prometheus to monitor an ACK cluster"; "Introduction and release notes for
ack-arms-prometheus"). The cluster's Prometheus instance carries the cluster's ID."""
ARMS_PROMETHEUS_CHART = "ack-arms-prometheus"
"""The same component as a Helm release from ACK's app catalog."""
ARMS_NAMESPACE = "arms-prom"
"""Where the add-on runs its agent (ACK help "Troubleshoot issues in GPU monitoring": ``kubectl
get pods -n arms-prom``): the namespace that scrapes our exporter."""
ARMS_GPU_EXPORTER = "ack-prometheus-gpu-exporter"
"""The add-on's own GPU exporter, a DaemonSet in ``arms-prom`` (ACK help "Enable GPU monitoring
for a cluster": started with the Prometheus component; default basic metrics "GPU monitoring for
cluster nodes (ack-gpu-exporter)"). It declares no toleration for custom taints: on a tainted
GPU node it does not run until someone adds one (ACK help, FAQ "Why can't I deploy GPU
monitoring?"). Our GPU nodes all carry the GPU taint, so on them it never runs next to ours,
which runs on every GPU pool, those ACK's own sharing serves included: one exporter per node.
Its series use ACK's own label names (``namespace_name``, ``pod_name``),
which our rules do not read."""
ARMS_GPU_EXPORTER_NODE_LABEL = "aliyun.accelerator/nvidia_name"
"""The node label ACK's GPU exporter selects on (required node affinity ``Exists``; the same
DaemonSet in kubeflow/arena ``arena-artifacts/charts/gpu-exporter``); ACK sets it on every
GPU node."""
ARMS_DISCOVERY_ANNOTATION = "arms.prometheus.io/discovery"
"""Marks a ``monitoring.coreos.com/v1`` PodMonitor or ServiceMonitor for the ARMS agent to
collect (value ``"true"``; the PodMonitor examples of pulumi-alicloud ``arms.EnvPodMonitor`` and
terraform-provider-alicloud ``alicloud_arms_env_pod_monitor``). ack-arms-prometheus reads
PodMonitors since 1.1.0 (its release notes)."""
ARMS_ALERT_MIN_MINUTES = 1
ARMS_ALERT_MAX_MINUTES = 1440
"""An ARMS Prometheus alert rule's ``Duration``: 1 to 1440 minutes (API CreatePrometheusAlertRule;
pulumi-alicloud ``arms.PrometheusAlertRule``). ARMS evaluates recording rules only from the
instance's RecordingRule.yaml (console, or API AddRecordingRule), which the SDK has no resource
for, and reads PrometheusRule objects only when their sync is switched on in the console (ARMS
help "Use a PrometheusRule to create an alert rule": off by default)."""

LOGTAIL_ADDON = "logtail-ds"
"""The cluster add-on that runs Logtail on every node and ``alibaba-log-controller``, which turns
``AliyunLogConfig`` objects into Logtail configs (ACK/SLS help "Use AliyunLogConfig to manage a
Logtail configuration"; config key ``sls_project_name``, pulumi-alicloud ``cs`` addons docs)."""
LOG_CONFIG_API_VERSION = "log.alibabacloud.com/v1alpha1"
LOG_CONFIG_KIND = "AliyunLogConfig"
LOG_CONFIG_NAMESPACE = "kube-system"
"""Where ACK keeps its own AliyunLogConfig objects (``k8s-nginx-ingress``, ACK help "Collect log
files of system components")."""
STDOUT_INPUT = "service_docker_stdout"
"""The Logtail plugin input for container stdout and stderr (``Stdout``, ``Stderr``,
``K8sNamespaceRegex``; SLS help "Collect stdout and stderr from containers", CRD examples)."""
STDOUT_FIELDS: tuple[str, ...] = ("_namespace_", "_pod_name_", "_container_name_", "_source_")
"""Fields the stdout input adds to each line (besides ``content`` and ``_time_``): where a
line came from, and whether it was stdout or stderr (SLS help "Collect stdout and stderr from
containers", default fields). A logstore is searchable only through an index on them."""
SLS_PROJECT_PREFIX = "k8s-log-"
"""ACK's default SLS project of a cluster, ``k8s-log-<cluster ID>``: where audit logs and
logtail-ds go unless another project is named (ACK help "Work with cluster auditing")."""
LOGSTORE_NAME_MAX = 63
"""A logstore name: 3 to 63 lowercase letters, digits, hyphens and underscores, starting and
ending with a letter or digit (SLS help "Manage a logstore")."""
LOGSTORE_NAME_MIN = 3
SLS_MAX_RETENTION_DAYS = 3650
"""A logstore keeps data 1 to 3650 days (pulumi-alicloud ``log.Store.retention_period``)."""
SLS_DEFAULT_RETENTION_DAYS = 30
"""A new logstore's retention when none is given (same source)."""


def arms_duration(prometheus_duration: str) -> str:
    """A Prometheus ``for`` (``0m``, ``10m``, ``1h``) as an ARMS alert rule duration: whole
    minutes, at least 1 (ARMS has no immediate alerts)."""
    value, unit = prometheus_duration[:-1], prometheus_duration[-1:]
    if not value.isdigit() or unit not in ("s", "m", "h"):
        raise ValueError(f"not a Prometheus duration of s, m or h: {prometheus_duration!r}")
    seconds = int(value) * {"s": 1, "m": 60, "h": 3600}[unit]
    minutes = max(ARMS_ALERT_MIN_MINUTES, -(-seconds // 60))
    if minutes > ARMS_ALERT_MAX_MINUTES:
        raise ValueError(
            f"ARMS alerts wait at most {ARMS_ALERT_MAX_MINUTES} minutes, not {minutes}"
        )
    return str(minutes)
