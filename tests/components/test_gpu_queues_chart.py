"""Kueue's chart (0.19.2) rendered for real with the values ``GpuQueues`` gives it (Helm's Go SDK,
no helm binary), read from ``../shared/reference`` next to the repository: skipped, with the
reason, where that copy is absent. Nothing of the chart is in the project.

The release runs one pod, Kueue's controller, on CPU nodes only (it tolerates none of the
GPU pools' taints), from the released image of the pinned version, with our manager config; its
webhooks see only the queued namespaces; our namespace's policies let it reach the API server
and the API server reach its webhooks and visibility API; the ports, labels, names and values
``gpu_facts.kueue`` states are the chart's; the ResourceFlavors, ClusterQueues and LocalQueues
we write fit Kueue's own CRDs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpu_facts import kueue
from gpu_facts.network_policy import API_SERVER_PORTS, Endpoint, allows
from gpu_platform.components.gpu_queues import kueue_policies
from gpu_platform.plan.pools import pool_placement
from gpu_platform.plan.queue_controller import controller_values, manager_config
from gpu_platform.plan.queues import queues_plan
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.conftest import run
from tests.reference import has_path, reference, render_chart

NAMESPACE = kueue.DEFAULT_NAMESPACE
POD_KINDS = {"DaemonSet", "Deployment", "StatefulSet", "Job", "CronJob", "Pod"}


@pytest.fixture(scope="module")
def chart() -> Path:
    """Kueue's chart 0.19.2 from ``../shared/reference`` (skipped, saying so, where it is not)."""
    return reference("kueue-0.19.2")


def _render(chart: Path, values: dict[str, Any]) -> list[dict[str, Any]]:
    return render_chart(chart, values, kueue.RELEASE_NAME, NAMESPACE)


@pytest.fixture(scope="module")
def rendered(chart: Path) -> list[dict[str, Any]]:
    """Rendered once, with the Prometheus Operator's scrape (the one that adds an object)."""
    return _render(chart, controller_values(kueue.DEFAULT_VERSION, "serviceMonitor"))


def pods(rendered: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [o for o in rendered if o["kind"] in POD_KINDS]


def _controller(rendered: list[dict[str, Any]]) -> dict[str, Any]:
    (controller,) = pods(rendered)
    return controller


def test_the_release_runs_one_pod_kueues_controller(rendered: list[dict[str, Any]]) -> None:
    controller = _controller(rendered)
    assert (controller["kind"], controller["metadata"]["name"]) == (
        "Deployment",
        kueue.CONTROLLER_DEPLOYMENT,
    )
    labels = controller["spec"]["template"]["metadata"]["labels"]
    assert dict(kueue.CONTROLLER_LABELS).items() <= labels.items()


def test_the_controller_runs_on_cpu_nodes_from_the_pinned_release_image(
    rendered: list[dict[str, Any]],
) -> None:
    """On CPU nodes: it tolerates no taint of any GPU pool of the queued platform (each its
    vendor's GPU taint), only the system pool's."""
    spec = _controller(rendered)["spec"]["template"]["spec"]
    tolerations = spec.get("tolerations") or []
    platform = load_platform(platforms.aks_queued())
    for pool in platform.pools.values():
        for taint in pool_placement(pool).taints:
            assert not any(t.get("key") in (taint.key, None, "") for t in tolerations), taint
    assert [t["key"] for t in tolerations] == ["CriticalAddonsOnly"]
    (container,) = spec["containers"]
    assert container["image"] == "registry.k8s.io/kueue/kueue:v0.19.2"
    assert container["imagePullPolicy"] == "IfNotPresent"


def test_the_manager_runs_our_config(rendered: list[dict[str, Any]]) -> None:
    (config,) = [
        o
        for o in rendered
        if o["kind"] == "ConfigMap" and o["metadata"]["name"].endswith("-manager-config")
    ]
    loaded = yaml.safe_load(config["data"]["controller_manager_config.yaml"])
    # The chart adds its internal certificate management, nothing else.
    assert loaded.pop("internalCertManagement")["enable"] is True
    assert loaded == manager_config()


def test_its_webhooks_see_only_the_queued_namespaces(rendered: list[dict[str, Any]]) -> None:
    ours = manager_config()["managedJobsNamespaceSelector"]
    configs = [o for o in rendered if o["kind"].endswith("WebhookConfiguration")]
    job_webhooks = [w for c in configs for w in c["webhooks"] if "namespaceSelector" in w]
    assert job_webhooks, "the chart's job webhooks carry a namespace selector"
    for webhook in job_webhooks:
        assert webhook["namespaceSelector"] == ours, webhook["name"]
    ports = {w["clientConfig"]["service"]["name"] for c in configs for w in c["webhooks"]}
    assert ports == {f"{kueue.FULLNAME}-webhook-service"}


def test_the_facts_name_the_charts_ports_services_and_roles(rendered: list[dict[str, Any]]) -> None:
    spec = _controller(rendered)["spec"]["template"]["spec"]
    ports = {p["name"]: p["containerPort"] for p in spec["containers"][0]["ports"]}
    assert ports == {
        "visibility": kueue.VISIBILITY_PORT,
        "webhook-server": kueue.WEBHOOK_PORT,
        "metrics": kueue.METRICS_PORT,
    }
    services = {o["metadata"]["name"]: o for o in rendered if o["kind"] == "Service"}
    metrics = services[kueue.METRICS_SERVICE]
    assert dict(kueue.METRICS_SERVICE_LABELS).items() <= metrics["metadata"]["labels"].items()
    assert [p["name"] for p in metrics["spec"]["ports"]] == ["https"]
    roles = {o["metadata"]["name"] for o in rendered if o["kind"] == "ClusterRole"}
    assert kueue.METRICS_READER_ROLE in roles
    services_of_apis = {o["spec"]["service"]["name"] for o in rendered if o["kind"] == "APIService"}
    assert services_of_apis == {f"{kueue.FULLNAME}-visibility-server"}
    (visibility,) = services[f"{kueue.FULLNAME}-visibility-server"]["spec"]["ports"]
    assert visibility["targetPort"] == kueue.VISIBILITY_PORT


def test_the_charts_service_monitor_scrapes_the_metrics_service(
    rendered: list[dict[str, Any]],
) -> None:
    """The Prometheus Operator's scrape (``enablePrometheus``; off for every other mode:
    ``tests/plan/test_queue_controller.py``)."""
    (monitor,) = [o for o in rendered if o["kind"] == "ServiceMonitor"]
    labels = monitor["spec"]["selector"]["matchLabels"]
    assert dict(kueue.METRICS_SERVICE_LABELS).items() <= labels.items()
    (endpoint,) = monitor["spec"]["endpoints"]
    assert (endpoint["port"], endpoint["scheme"]) == ("https", "https")


def test_our_policies_let_the_controller_work(rendered: list[dict[str, Any]]) -> None:
    result = run(lambda: _policies("aks", ["kube-system"]))
    policies = [r.inputs for r in result.resources if r.type.endswith("NetworkPolicy")]
    labels = _controller(rendered)["spec"]["template"]["metadata"]["labels"]
    pod = Endpoint(namespace=NAMESPACE, labels=labels)
    api_server = Endpoint(ip="198.51.100.10")
    for port in API_SERVER_PORTS["aks"]:
        assert allows(policies, pod, "Egress", api_server, port=port)
    for port in (kueue.WEBHOOK_PORT, kueue.VISIBILITY_PORT):
        assert allows(policies, pod, "Ingress", api_server, port=port)
    scraper = Endpoint(namespace="kube-system", labels={"rsName": "ama-metrics"})
    assert allows(policies, pod, "Ingress", scraper, port=kueue.METRICS_PORT)
    other = Endpoint(namespace="gpu-training", labels={"app": "x"})
    assert not allows(policies, pod, "Ingress", other, port=kueue.METRICS_PORT)


def _policies(cloud: str, scrapers: list[str]) -> None:
    from pulumi_kubernetes.meta.v1 import ObjectMetaArgs
    from pulumi_kubernetes.networking import v1 as net

    for name, spec in kueue_policies(cloud, scrapers).items():
        net.NetworkPolicy(name, metadata=ObjectMetaArgs(name=name, namespace=NAMESPACE), spec=spec)


def test_every_value_we_set_is_a_chart_value(chart: Path) -> None:
    values = yaml.safe_load((chart / "values.yaml").read_text())
    for path in sorted(kueue.KNOWN_VALUE_PATHS):
        assert has_path(values, path), f"{path} is not in the chart's values.yaml"


def _crd(rendered: list[dict[str, Any]], plural: str) -> dict[str, Any]:
    """The ``spec`` schema of one of Kueue's CRDs (the chart renders them), at our version."""
    (crd,) = [
        o
        for o in rendered
        if o["kind"] == "CustomResourceDefinition"
        and o["metadata"]["name"] == f"{plural}.{kueue.API_GROUP}"
    ]
    (version,) = [
        v for v in crd["spec"]["versions"] if v["name"] == kueue.API_VERSION.split("/")[1]
    ]
    assert version["served"] and version["storage"]
    schema: dict[str, Any] = version["schema"]["openAPIV3Schema"]["properties"]["spec"]
    return schema


def _fits(value: Any, schema: dict[str, Any], where: str) -> None:
    """Every field of ``value`` is one the schema has, enums and patterns respected."""
    if "enum" in schema:
        assert value in schema["enum"], f"{where}: {value!r}"
    if "pattern" in schema and isinstance(value, str):
        assert re.fullmatch(schema["pattern"], value), f"{where}: {value!r}"
    if isinstance(value, dict) and "properties" in schema:
        for key, sub in value.items():
            assert key in schema["properties"], f"{where}.{key} is not in the CRD"
            _fits(sub, schema["properties"][key], f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        if "maxItems" in schema:
            assert len(value) <= schema["maxItems"], where
        for i, item in enumerate(value):
            _fits(item, schema["items"], f"{where}[{i}]")


def test_the_queue_objects_we_write_fit_kueues_crds(rendered: list[dict[str, Any]]) -> None:
    platform = load_platform(platforms.aks_queued())
    assert platform.settings.queues is not None
    plan = queues_plan(platform.settings.queues, platform.pools, platform.settings.workloads)
    flavors, queues, locals_ = (
        _crd(rendered, kueue.RESOURCE_FLAVORS),
        _crd(rendered, kueue.CLUSTER_QUEUES),
        _crd(rendered, kueue.LOCAL_QUEUES),
    )
    for flavor in plan.flavors:
        _fits(flavor.spec(), flavors, f"flavor {flavor.name}")
    for queue in plan.cluster_queues:
        _fits(queue.spec(), queues, f"clusterQueue {queue.name}")
    for local in plan.local_queues:
        _fits(local.spec(), locals_, f"localQueue {local.name}")
