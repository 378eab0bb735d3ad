"""Kueue's controller as the platform installs it (plan.queue_controller): pinned image, CPU
nodes, queue names required, webhooks confined to the queued namespaces, GPU-only quotas."""

from __future__ import annotations

import yaml

from gpu_facts import kueue
from gpu_facts.nvidia.device_plugin_chart import CRITICAL_ADDONS_TAINT_KEY
from gpu_platform.plan.queue_controller import (
    controller_values,
    manager_config,
    metrics_monitor_spec,
)


def test_the_released_image_of_the_pinned_version_on_system_nodes_only() -> None:
    values = controller_values("0.19.2", None)
    manager = values["controllerManager"]
    assert manager["manager"]["image"] == {
        "repository": "registry.k8s.io/kueue/kueue",
        "tag": "v0.19.2",
        "pullPolicy": "IfNotPresent",
    }
    # No GPU taint tolerated: never on a GPU node.
    assert manager["tolerations"] == [{"key": CRITICAL_ADDONS_TAINT_KEY, "operator": "Exists"}]
    assert values["enablePrometheus"] is False


def test_the_charts_service_monitor_only_for_the_prometheus_operator() -> None:
    assert controller_values("0.19.2", "serviceMonitor")["enablePrometheus"] is True
    assert controller_values("0.19.2", "azureMonitor")["enablePrometheus"] is False


def test_the_manager_config_is_what_the_values_carry() -> None:
    values = controller_values("0.19.2", None)
    text = values["managerConfig"]["controllerManagerConfigYaml"]
    assert yaml.safe_load(text) == manager_config()


def test_gpu_jobs_name_their_queue_and_kueue_sees_only_queued_namespaces() -> None:
    config = manager_config()
    assert config["apiVersion"] == "config.kueue.x-k8s.io/v1beta2"
    assert config["manageJobsWithoutQueueName"] is False
    assert config["managedJobsNamespaceSelector"] == {
        "matchExpressions": [{"key": "gpu-platform.io/local-queue", "operator": "Exists"}]
    }
    assert config["resources"] == {"quotaCheckStrategy": "IgnoreUndeclared"}
    assert config["metrics"] == {"bindAddress": ":8443", "enableClusterQueueResources": True}
    assert config["webhook"] == {"port": kueue.WEBHOOK_PORT}
    assert config["leaderElection"]["resourceName"] == kueue.LEADER_ELECTION_ID


def test_every_queued_kind_has_its_framework_on() -> None:
    frameworks = set(manager_config()["integrations"]["frameworks"])
    assert {k.framework for k in kueue.QUEUED_KINDS} <= frameworks
    assert "kubeflow.org/pytorchjob" in frameworks  # the chart leaves it commented out


def test_the_metrics_are_scraped_over_https_with_the_scrapers_token() -> None:
    (endpoint,) = metrics_monitor_spec()["endpoints"]
    assert endpoint["scheme"] == "https" and endpoint["port"] == "https"
    assert endpoint["bearerTokenFile"].endswith("serviceaccount/token")
    assert metrics_monitor_spec()["selector"]["matchLabels"] == dict(kueue.METRICS_SERVICE_LABELS)
