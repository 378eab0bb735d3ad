"""Facts about ACK's GPU-sharing components and editions (ACK documentation, docs/ack.md)."""

from __future__ import annotations

ACK_PRO_PREFIX = "ack.pro."
"""``clusterSpec`` prefix of ACK Pro editions (``ack.pro.small``); MPS sharing needs Pro."""
ACK_CHART_REPO = "https://aliacs-app-catalog.oss-cn-hangzhou.aliyuncs.com/charts-incubator/"
"""ACK's app catalog (Marketplace) Helm repository."""
AI_INSTALLER_CHART = "ack-ai-installer"
"""GPU sharing scheduling and ACK's shared-GPU device plugin."""
MPS_CONTROL_CHART = "ack-mps-control"
"""The MPS control daemon (privileged, hostIPC, hostPID); restarting it crashes MPS clients."""
ACK_SYSTEM_NAMESPACE = "kube-system"
"""Where ACK's console installs both releases."""
ARMS_PROMETHEUS_ADDON = "arms-prometheus"
"""The cluster add-on of ACK's managed Prometheus (component ``ack-arms-prometheus``; the name in
``ManagedKubernetes.addons`` and ``cs.KubernetesAddon``, ACK "Manage add-ons using Terraform").
Its GPU monitoring runs ACK's own GPU exporter on the cluster's GPU nodes, DCGM-compatible and
aware of ACK's shared GPUs (ACK "GPU monitoring 2.0 metrics")."""
ARMS_PROMETHEUS_CHART = "ack-arms-prometheus"
"""The same component as a Helm release from ACK's app catalog."""
