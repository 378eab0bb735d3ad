"""Kueue's controller as the platform installs it: the chart's values and the manager's
configuration (``gpu_facts.kueue`` holds the facts, with their sources).

- Pinned: the chart version of ``queues.version`` and the released image of that version
  (the chart in Kueue's repository names a staging image pulled ``Always``).
- On CPU nodes: it tolerates the system pool's ``CriticalAddonsOnly`` taint and no GPU taint,
  so it never runs on a GPU node (every GPU pool we create carries its vendor's GPU taint).
- GPU workloads name their LocalQueue (``manageJobsWithoutQueueName: false``, Kueue's default,
  said explicitly) and Kueue's webhooks see only the queued namespaces
  (``managedJobsNamespaceSelector``): with the default selector, every namespace but
  ``kube-system`` and Kueue's own goes through webhooks that fail closed, so a Kueue outage
  would stop Deployments and Jobs everywhere, the platform's own included.
- ClusterQueues cover GPU resources only (``quotaCheckStrategy: IgnoreUndeclared``); the
  ResourceQuota caps the rest. A DRA pool's devices are quota'd through
  ``deviceClassMappings``.
- Its per-ClusterQueue resource metrics on (``enableClusterQueueResources``): the rules read
  pending and admitted GPU quota from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from gpu_facts import kueue
from gpu_facts.nvidia.device_plugin_chart import unknown_value_paths

from .chart_values import system_tolerations
from .metrics import ScrapeMode


def manager_config(device_class_mappings: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The manager's ``Configuration`` (``config.kueue.x-k8s.io/v1beta2``): the chart's ports
    and leader election, and ours; ``device_class_mappings``: DRA pools' DeviceClasses as quota
    resources (``plan.queues.device_class_mappings``)."""
    resources: dict[str, Any] = {"quotaCheckStrategy": kueue.IGNORE_UNDECLARED}
    if device_class_mappings:
        resources["deviceClassMappings"] = [dict(m) for m in device_class_mappings]
    return {
        "apiVersion": kueue.CONFIG_API_VERSION,
        "kind": "Configuration",
        "health": {"healthProbeBindAddress": ":8081"},
        "metrics": {
            "bindAddress": f":{kueue.METRICS_PORT}",
            "enableClusterQueueResources": True,
        },
        "webhook": {"port": kueue.WEBHOOK_PORT},
        "leaderElection": {"leaderElect": True, "resourceName": kueue.LEADER_ELECTION_ID},
        "manageJobsWithoutQueueName": False,
        "managedJobsNamespaceSelector": {
            "matchExpressions": [{"key": kueue.QUEUE_NAMESPACE_LABEL, "operator": "Exists"}]
        },
        "integrations": {"frameworks": list(kueue.FRAMEWORKS)},
        "resources": resources,
    }


def controller_values(
    version: str,
    scrape: ScrapeMode | None,
    device_class_mappings: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The release's values: the released image of ``version``, system tolerations only, our
    manager configuration; the chart's own ServiceMonitor where the Prometheus Operator
    scrapes."""
    values: dict[str, Any] = {
        "enablePrometheus": scrape == "serviceMonitor",
        "controllerManager": {
            "tolerations": system_tolerations(),
            "manager": {
                "image": {
                    "repository": kueue.IMAGE_REPOSITORY,
                    "tag": kueue.image_tag(version),
                    "pullPolicy": "IfNotPresent",
                }
            },
        },
        "managerConfig": {
            "controllerManagerConfigYaml": yaml.safe_dump(
                manager_config(device_class_mappings), sort_keys=False
            )
        },
    }
    unknown = unknown_value_paths(values, kueue.KNOWN_VALUE_PATHS)
    if unknown:  # a guard on our own code
        raise ValueError(f"unknown kueue chart keys: {', '.join(unknown)}")
    return values


def metrics_monitor_spec() -> dict[str, Any]:
    """A ServiceMonitor's ``spec`` for Kueue's metrics Service: HTTPS with the scraper's own
    service-account token, which Kueue authorizes against ``/metrics``
    (``gpu_facts.kueue.METRICS_PORT``); the certificate is Kueue's self-signed one."""
    return {
        "selector": {"matchLabels": dict(kueue.METRICS_SERVICE_LABELS)},
        "endpoints": [
            {
                "port": "https",
                "path": "/metrics",
                "scheme": "https",
                "bearerTokenFile": "/var/run/secrets/kubernetes.io/serviceaccount/token",
                "tlsConfig": {"insecureSkipVerify": True},
            }
        ],
    }
