"""Facts about NVIDIA's DRA driver chart for GPUs, ``nvidia-dra-driver-gpu`` 25.12.0.

Read from the chart at the tag v25.12.0 of NVIDIA/k8s-dra-driver-gpu (0882da87; the copy in
``../shared/reference/nvidia-dra-driver-gpu-25.12.0`` is that chart directory, unchanged):
``Chart.yaml``, ``values.yaml``, ``templates/_helpers.tpl``, ``templates/validation.yaml``,
``templates/kubeletplugin.yaml``, ``templates/controller.yaml``, ``templates/deviceclass-*.yaml``,
``templates/rbac-*.yaml``; and the driver's ``docs/prerequisites.md`` (NVIDIA driver 565 or newer
for GPU allocation, CDI enabled in the container runtime). Newer releases (0.4.x) moved to
kubernetes-sigs/dra-driver-nvidia-gpu under another chart name; upgrading to them needs
``nameOverride=nvidia-dra-driver-gpu`` (that repository's ``docs/upgrade.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

CHART_NAME = "nvidia-dra-driver-gpu"
NEW_CHART_NAME = "dra-driver-nvidia-gpu"
"""The same driver's chart from 0.4.0 on (kubernetes-sigs/dra-driver-nvidia-gpu
``deployments/helm/dra-driver-nvidia-gpu``, ``docs/install.md``): the pack knows a release by
either name."""
CHART_NAMES: tuple[str, ...] = ("nvidia-dra-driver-gpu", NEW_CHART_NAME)
DEFAULT_KUBELET_PLUGIN_TOLERATIONS: Mapping[str, tuple[Mapping[str, str], ...]] = MappingProxyType(
    {
        CHART_NAME: (),
        NEW_CHART_NAME: (
            MappingProxyType(
                {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
            ),
        ),
    }
)
"""``kubeletPlugin.tolerations`` by default, per chart name: none in ``nvidia-dra-driver-gpu``
25.12.0 (its ``values.yaml``), ``nvidia.com/gpu`` Exists NoSchedule in ``dra-driver-nvidia-gpu``
(kubernetes-sigs/dra-driver-nvidia-gpu v0.4.1 and main, ``values.yaml``): a release of the newer
chart that sets none runs on every tainted GPU node its affinity admits."""
CHART_REPO = "https://helm.ngc.nvidia.com/nvidia"
"""NGC's Helm repository (the driver's README and install docs; the chart does not say)."""
DEFAULT_VERSION = "25.12.0"
"""The pinned chart version (SemVer without ``v``; ``appVersion`` the same, image tag
``v25.12.0``)."""
KUBE_VERSION = ">=1.32.0-0"
"""``Chart.yaml`` ``kubeVersion``; DRA itself is on by default from 1.34 (``gpu_facts.dra``)."""
DEFAULT_NAMESPACE = CHART_NAME
"""Namespace of our release: the chart refuses ``default`` (``allowDefaultNamespace``)."""
RELEASE_NAME = CHART_NAME
"""Our release is named like the chart, so its fullname and every object name is the chart's
name (``_helpers.tpl``)."""
MIN_NVIDIA_DRIVER_MAJOR = 565
"""NVIDIA driver for GPU allocation (``docs/prerequisites.md``; 570.158.01 for ComputeDomains)."""
HOST_DRIVER_ROOT = "/"
"""``nvidiaDriverRoot`` when the node image installs the driver (AKS, ACK, existing nodes)."""

COMPONENT_LABEL = f"{CHART_NAME}-component"
"""The selector label of each pod (``_helpers.tpl`` ``selectorLabels``: ``<name>-component``)."""
KUBELET_PLUGIN_COMPONENT = "kubelet-plugin"
CONTROLLER_COMPONENT = "controller"
KUBELET_PLUGIN_DAEMONSET = f"{CHART_NAME}-kubelet-plugin"
"""The DaemonSet the chart names ``<name>-kubelet-plugin`` (``templates/kubeletplugin.yaml``)."""
GPU_PLUGIN_CONTAINER = "gpus"
"""The kubelet plugin's container that publishes GPUs (``resources.gpus.enabled``)."""
CONTROLLER_DEPLOYMENT = f"{CHART_NAME}-controller"
"""The ComputeDomain controller, rendered only with ``resources.computeDomains.enabled``."""
INSTANCE_LABEL = "app.kubernetes.io/instance"
NAME_LABEL = "app.kubernetes.io/name"
IMAGE = "nvcr.io/nvidia/k8s-dra-driver-gpu"
"""``image.repository``; the tag defaults to ``v<appVersion>``."""

GPU_RESOURCES_OVERRIDE = "gpuResourcesEnabledOverride"
"""``resources.gpus.enabled`` (the default) fails the install unless this is true: the GPU
kubelet plugin "cannot be deployed alongside the standard GPU device plugin on the same node"
(``templates/validation.yaml``). The platform keeps the two on disjoint nodes by construction."""
RESOURCE_API_VERSION_VALUE = "resourceApiVersion"
"""Empty: the chart picks from ``.Capabilities.APIVersions`` (v1, v1beta2, v1beta1) and fails
when none is served, as in an offline render; the platform sets ``resource.k8s.io/v1``. Only a
``v1`` render gives the ``gpu.nvidia.com`` class ``extendedResourceName: nvidia.com/gpu``."""

KNOWN_VALUE_PATHS: frozenset[str] = frozenset(
    {
        "nvidiaDriverRoot",
        GPU_RESOURCES_OVERRIDE,
        RESOURCE_API_VERSION_VALUE,
        "resources",
        "resources.gpus",
        "resources.gpus.enabled",
        "resources.computeDomains",
        "resources.computeDomains.enabled",
        "featureGates",
        "logVerbosity",
        "kubeletPlugin",
        "kubeletPlugin.priorityClassName",
        "kubeletPlugin.nodeSelector",
        "kubeletPlugin.affinity",
        "kubeletPlugin.tolerations",
        "kubeletPlugin.containers",
        "kubeletPlugin.containers.gpus",
        "kubeletPlugin.containers.gpus.resources",
        "kubeletPlugin.containers.computeDomains",
        "kubeletPlugin.containers.computeDomains.resources",
        "controller",
        "controller.priorityClassName",
        "controller.nodeSelector",
        "controller.affinity",
        "controller.tolerations",
        "controller.containers",
        "controller.containers.computeDomain",
        "controller.containers.computeDomain.resources",
    }
)
"""Every value path the platform sets or lets users set, each a key of the chart's
``values.yaml`` (25.12.0). ``featureGates`` is a map of the driver's gates
(``TimeSlicingSettings``, ``MPSSupport``: alpha, off), turned into ``FEATURE_GATES``."""


@dataclass(frozen=True, slots=True)
class DraChartPod:
    """One kind of pod the chart runs, read from its template, and what it does on the network:
    both reach the API server only (the kubelet plugin publishes ResourceSlices and reads
    claims; the controller manages ComputeDomains), neither serves another pod (the kubelet
    plugin's gRPC health ports 51515/51516 take the kubelet's probes, which come from the node
    and pass every NetworkPolicy), and neither runs on the host network."""

    name: str
    kind: str
    template: str
    labels: Mapping[str, str]
    """The labels its pod template sets (``templateLabels`` and ``selectorLabels``)."""
    api: str
    """What it does with the API server (``templates/rbac-*.yaml``)."""


def _pod_labels(component: str) -> Mapping[str, str]:
    return MappingProxyType(
        {NAME_LABEL: CHART_NAME, INSTANCE_LABEL: RELEASE_NAME, COMPONENT_LABEL: component}
    )


CHART_PODS: tuple[DraChartPod, ...] = (
    DraChartPod(
        KUBELET_PLUGIN_COMPONENT,
        "DaemonSet",
        "templates/kubeletplugin.yaml",
        _pod_labels(KUBELET_PLUGIN_COMPONENT),
        "publishes its node's ResourceSlices, reads the claims it prepares, reads and labels nodes",
    ),
    DraChartPod(
        CONTROLLER_COMPONENT,
        "Deployment",
        "templates/controller.yaml",
        _pod_labels(CONTROLLER_COMPONENT),
        "manages ComputeDomains, their DaemonSets and ResourceClaimTemplates",
    ),
)
