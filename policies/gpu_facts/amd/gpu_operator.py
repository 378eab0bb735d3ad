"""Facts about AMD's GPU Operator (chart ``gpu-operator-charts`` v1.5.1) and the operands its
``DeviceConfig`` runs: device plugin, node labeller, metrics exporter and, through KMM, the
amdgpu driver.

Sources: the chart at ROCm/gpu-operator tag v1.5.1 (``helm-charts-k8s/``: values.yaml,
templates/, crds/, the KMM subchart), the operator's code (``internal/kmmmodule/kmmmodule.go``,
``internal/metricsexporter/metricsexporter.go``), its docs (``docs/releasenotes.md``,
``docs/metrics/health.md``), Kernel Module Management (kubernetes-sigs/kernel-module-management
``internal/constants``, ``internal/pod``; ROCm's fork labels build pods the same way), and the
AKS lab that installs the operator on ``Standard_ND96isr_MI300X_v5`` (Azure/AKS
``examples/amd-gpu-on-aks/0-install-gpu-driver-and-device-plugin.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

CHART_NAME = "gpu-operator-charts"
CHART_REPO = "https://rocm.github.io/gpu-operator"
DEFAULT_VERSION = "v1.5.1"
"""The newest tag of ROCm/gpu-operator (Chart.yaml ``version: v1.5.1``)."""
AMD_NAMESPACE = "kube-amd-gpu"
"""The namespace AMD's install guide and the AKS lab use."""
DEFAULT_NAMESPACE = "amd-gpu-operator"
"""Ours: ``kube-*`` names are Kubernetes' own, which the platform never takes for a namespace of
its own (stack_config/rules/gpu_layer.py); the operator runs in any namespace."""
MIN_KUBERNETES = "1.29"
"""Chart.yaml ``kubeVersion: ">= 1.29.0-0"``."""
RELEASE_NAME = CHART_NAME
"""Our release is named like the chart (components/helm_release.py), so the chart's fullname is
``gpu-operator-charts`` and the KMM subchart's ``gpu-operator-charts-kmm``."""
KMM_FULLNAME = f"{RELEASE_NAME}-kmm"

DEVICE_CONFIG_API_VERSION = "amd.com/v1alpha1"
DEVICE_CONFIG_KIND = "DeviceConfig"
"""The operator's custom resource (crds/deviceconfig-crd.yaml, namespaced)."""

DEFAULT_DRIVER_VERSION = "6.4"
"""The amdgpu (ROCm) driver version KMM builds, as the Radeon repository spells it: the
operator refuses ``6.4.0`` (release notes v1.3.0, known limitations); the AKS lab installs
``6.4`` on MI300X."""
VF_MODPROBE_PARAMETERS: tuple[str, ...] = ("ip_block_mask=0x7f",)
"""What the operator passes to ``modprobe amdgpu`` on a node whose GPUs are virtual functions,
as Azure's MI300X are: it only does so when NFD labelled the node
``feature.node.kubernetes.io/amd-vgpu`` (``getModprobeParametersFromNodeInfo``). We select nodes
by our pool label and run no NFD on AMD nodes, so our DeviceConfig sets the parameter itself
(``driver.kernelModuleConfig.parameters``, which takes precedence)."""

# Images, pinned (BP-19's reason applies to every image: a moving tag changes what runs). The
# chart's and the operator's defaults are ``latest`` for the plugin, labeller and KMM images.
DEVICE_PLUGIN_IMAGE = "docker.io/rocm/k8s-device-plugin:1.31.0.10"
NODE_LABELLER_IMAGE = "docker.io/rocm/k8s-device-plugin:labeller-1.31.0.10"
"""ROCm/k8s-device-plugin releases: the plugin and the labeller share a release number."""
METRICS_EXPORTER_IMAGE = "docker.io/rocm/device-metrics-exporter:v1.5.1"
"""ROCm/device-metrics-exporter ``charts/device-metrics-exporter-charts-v1.5.1_meta.yml``."""
KMM_IMAGES: Mapping[str, str] = MappingProxyType(
    {
        "controller": "docker.io/rocm/kernel-module-management-operator",
        "webhook": "docker.io/rocm/kernel-module-management-webhook-server",
        "worker": "docker.io/rocm/kernel-module-management-worker",
        "signer": "docker.io/rocm/kernel-module-management-signimage",
    }
)
"""KMM's images; earlier charts tag them with the operator's release (``v1.4.1``, ``v1.4.0``...),
so we tag them with the chart version. (v1.5.1's chart says ``latest``; the v1.5.1 tag is
unconfirmed: see docs/amd.md.)"""

DRIVER_VERSION_LABEL = "amd.com/gpu.driver-version"
"""The node labeller's label with the node's amdgpu driver version (read by ``make verify``)."""
PRODUCT_NAME_LABEL = "amd.com/gpu.product-name"

# Operand pods (the operator's code): one DaemonSet of each per DeviceConfig, named after it.
DAEMONSET_NAME_LABEL = "daemonset-name"
"""Every operand pod carries ``daemonset-name: <DeviceConfig name>``."""
EXPORTER_NAME_LABEL = "app.kubernetes.io/name"
EXPORTER_NAME = "metrics-exporter"
"""The metrics exporter's pods also carry ``app.kubernetes.io/name: metrics-exporter``."""
METRICS_PORT = 5000
METRICS_PORT_NAME = "exporter-port"
"""``metricsExporter.port`` (default 5000), the exporter container's port name."""
DEVICE_PLUGIN_SUFFIX = "-device-plugin"
NODE_LABELLER_SUFFIX = "-node-labeller"
EXPORTER_SUFFIX = f"-{EXPORTER_NAME}"
"""The operand DaemonSets are ``<DeviceConfig name><suffix>`` (the operator's reconciler)."""
UNHEALTHY_TAINT_KEY = "amd-gpu-unhealthy"
"""Operands tolerate it on their own; the exporter labels a bad GPU's node
``metricsexporter.amd.com.gpu.<id>.state=unhealthy`` (docs/metrics/health.md)."""

# KMM (the subchart and the build pods its controller starts).
KMM_WEBHOOK_PORT = 9443
"""The KMM webhook server's port (values.yaml ``webhookService.ports[0].targetPort``): the API
server calls it (a ValidatingWebhookConfiguration whose certificate cert-manager issues)."""
KMM_POD_TYPE_LABEL = "kmm.node.kubernetes.io/pod-type"
KMM_BUILD_POD_TYPES: tuple[str, ...] = ("build", "sign")
"""KMM's build and sign pods (``PodTypeBuild``, ``PodTypeSign``): the build pulls the base image
(``docker.io/ubuntu``), fetches amdgpu packages from ``repo.radeon.com`` and pushes the driver
image to ``driver.image``."""
DRIVER_DOWNLOAD_PORTS: tuple[int, ...] = (80, 443)

CONTROLLER_LABELS: Mapping[str, str] = MappingProxyType(
    {"app.kubernetes.io/component": "amd-gpu", "control-plane": "controller-manager"}
)
KMM_CONTROLLER_LABELS: Mapping[str, str] = MappingProxyType(
    {"app.kubernetes.io/component": "kmm", "control-plane": "controller"}
)
KMM_WEBHOOK_LABELS: Mapping[str, str] = MappingProxyType(
    {"app.kubernetes.io/component": "kmm", "control-plane": "webhook-server"}
)


@dataclass(frozen=True)
class ChartPod:
    """One pod-bearing object the release runs with our values (read from the chart's
    templates): every one of them talks to the API server, and the webhook is called by it."""

    kind: str
    name: str
    """The object's name with our release name."""
    template: str
    """The chart template that makes it, relative to the chart."""


CHART_PODS: tuple[ChartPod, ...] = (
    ChartPod("Deployment", f"{RELEASE_NAME}-controller-manager", "templates/deployment.yaml"),
    ChartPod("Deployment", f"{KMM_FULLNAME}-controller", "charts/kmm/templates/deployment.yaml"),
    ChartPod(
        "Deployment", f"{KMM_FULLNAME}-webhook-server", "charts/kmm/templates/deployment.yaml"
    ),
    ChartPod("Job", "delete-leftover-deviceconfigs", "templates/pre-delete-hook.yaml"),
    ChartPod("Job", "delete-custom-resource-definitions", "templates/post-delete-hook.yaml"),
    ChartPod("Job", "pre-upgrade-check", "templates/pre-upgrade-hook.yaml"),
    ChartPod("Job", "upgrade-crd", "templates/pre-upgrade-hook.yaml"),
)
"""Every pod-bearing object of the release (the hooks run at upgrade and uninstall);
``tests/components/amd/test_gpu_operator_chart.py`` renders the chart and checks it. The
operator starts the operands (plugin, labeller, exporter, KMM worker and build pods) at run
time: no render shows them."""

# Chart value paths we set (values.yaml v1.5.1, the KMM subchart's values.yaml). A key outside
# this list is refused, so a typo fails in CI instead of being ignored by Helm.
KNOWN_VALUE_PATHS: frozenset[str] = frozenset(
    {
        "node-feature-discovery",
        "node-feature-discovery.enabled",
        "installdefaultNFDRule",
        "crds",
        "crds.defaultCR",
        "crds.defaultCR.install",
        "remediation",
        "remediation.enabled",
        "remediation.installCRDs",
        "draDriver",
        "draDriver.deviceClass",
        "draDriver.deviceClass.create",
        "controllerManager",
        "controllerManager.manager",
        "controllerManager.manager.tolerations",
        "kmm",
        "kmm.enabled",
        "kmm.controller",
        "kmm.controller.manager",
        "kmm.controller.manager.tolerations",
        "kmm.controller.manager.image",
        "kmm.controller.manager.image.repository",
        "kmm.controller.manager.image.tag",
        "kmm.controller.manager.env",
        "kmm.controller.manager.env.relatedImageWorker",
        "kmm.controller.manager.env.relatedImageSign",
        "kmm.webhookServer",
        "kmm.webhookServer.webhookServer",
        "kmm.webhookServer.webhookServer.tolerations",
        "kmm.webhookServer.webhookServer.image",
        "kmm.webhookServer.webhookServer.image.repository",
        "kmm.webhookServer.webhookServer.image.tag",
    }
)

# DeviceConfig spec paths we set (crds/deviceconfig-crd.yaml, v1alpha1).
DEVICE_CONFIG_PATHS: frozenset[str] = frozenset(
    {
        "selector",
        "driver",
        "driver.enable",
        "driver.blacklist",
        "driver.version",
        "driver.image",
        "driver.imageRegistrySecret",
        "driver.imageRegistrySecret.name",
        "driver.tolerations",
        "driver.kernelModuleConfig",
        "driver.kernelModuleConfig.parameters",
        "devicePlugin",
        "devicePlugin.enableDevicePlugin",
        "devicePlugin.devicePluginImage",
        "devicePlugin.devicePluginArguments",
        "devicePlugin.devicePluginTolerations",
        "devicePlugin.enableNodeLabeller",
        "devicePlugin.nodeLabellerImage",
        "devicePlugin.nodeLabellerTolerations",
        "metricsExporter",
        "metricsExporter.enable",
        "metricsExporter.image",
        "metricsExporter.port",
        "metricsExporter.serviceType",
        "metricsExporter.tolerations",
        "metricsExporter.podAnnotations",
    }
)
