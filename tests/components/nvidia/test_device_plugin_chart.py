"""The device plugin chart rendered for real with our values (Helm's Go SDK, no helm binary):
its pods are the ones ``gpu_facts.nvidia.device_plugin_chart`` lists, and the release's namespace
lets each of them reach the API server and nothing else."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from helm_python.chart import Chart

from gpu_facts.network_policy import API_SERVER_PORTS, Endpoint, allows, is_deny_all
from gpu_facts.nvidia.device_plugin_chart import CHART_PODS, DEFAULT_VERSION, RELEASE_NAME
from gpu_platform.components.nvidia.device_plugin import NvidiaDevicePlugin, chart_values
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.components.incluster_args import plugin_args
from tests.conftest import by_type, run
from tests.reference import reference

CHART_NAME = f"nvidia-device-plugin-{DEFAULT_VERSION}"
"""NVIDIA's chart at our pinned version, read from ../shared/reference (never copied here)."""
POD_KINDS = {"DaemonSet", "Deployment", "StatefulSet", "Job", "CronJob", "Pod"}
PLATFORM_OF_CLOUD = {
    "aks": platforms.aks_mig_and_time_slicing,
    "ack": platforms.ack_mps_and_whole_gpus,
    "existing": platforms.existing_mig_and_time_slicing,
}


def platform(cloud: str) -> ResolvedPlatform:
    return load_platform(PLATFORM_OF_CLOUD[cloud]())


def render(p: ResolvedPlatform) -> list[dict[str, Any]]:
    """Every object the release makes (hooks included), with ``source`` the template file."""
    settings = p.settings.device_plugin
    values = chart_values(settings, list(p.pools.values()))
    manifests = Chart.load(reference(CHART_NAME)).render(
        values=values, name=RELEASE_NAME, namespace=settings.namespace, is_install=True
    )
    return [
        {**doc, "source": source}
        for source, text in manifests.items()
        for doc in yaml.safe_load_all(text)
        if doc
    ]


def pod_template(obj: dict[str, Any]) -> dict[str, Any]:
    spec = obj["spec"]
    if obj["kind"] == "CronJob":
        spec = spec["jobTemplate"]["spec"]
    return obj if obj["kind"] == "Pod" else spec["template"]


@cache
def rendered_for(cloud: str) -> list[dict[str, Any]]:
    """``render(platform(cloud))``, once per process (the tests only read it)."""
    return render(platform(cloud))


@pytest.fixture
def rendered() -> list[dict[str, Any]]:
    return rendered_for("aks")


def test_the_chart_facts_list_every_pod_the_release_runs(rendered: list[dict[str, Any]]) -> None:
    workloads = sorted(
        (obj["kind"], Path(obj["source"]).name, obj["metadata"]["name"])
        for obj in rendered
        if obj["kind"] in POD_KINDS
    )
    facts = sorted((pod.kind, Path(pod.template).name) for pod in CHART_PODS)
    assert [(kind, source) for kind, source, _ in workloads] == facts
    for pod in CHART_PODS:
        (obj,) = [
            o
            for o in rendered
            if o["kind"] == pod.kind and Path(o["source"]).name == Path(pod.template).name
        ]
        labels = pod_template(obj)["metadata"]["labels"]
        assert dict(pod.labels).items() <= labels.items(), pod.name
        assert pod.api, pod.name


def test_no_pod_is_on_the_host_network_or_behind_a_service(rendered: list[dict[str, Any]]) -> None:
    for obj in rendered:
        if obj["kind"] in POD_KINDS:
            assert not pod_template(obj)["spec"].get("hostNetwork"), obj["metadata"]["name"]
    kinds = {obj["kind"] for obj in rendered}
    assert not kinds & {"Service", "Ingress", "NetworkPolicy", "PodMonitor", "ServiceMonitor"}


API_SERVERS = [Endpoint(ip="198.51.100.10"), Endpoint(ip="10.0.0.1")]
"""A public and a private API server address: the allowance must not depend on which."""
PEERS = [
    *API_SERVERS,
    Endpoint(ip="203.0.113.80"),
    Endpoint(namespace="kube-system", labels={"k8s-app": "kube-dns"}),
    Endpoint(namespace="nvidia-device-plugin", labels={"app": "other"}),
    Endpoint(namespace="gpu-training", labels={"app": "trainer"}),
]
PROBES = [
    (53, "UDP"),
    (53, "TCP"),
    (80, "TCP"),
    (443, "TCP"),
    (443, "UDP"),
    (6443, "TCP"),
    (8080, "TCP"),
    (9400, "TCP"),
]


@pytest.mark.parametrize("cloud", sorted(PLATFORM_OF_CLOUD))
def test_each_pod_reaches_the_api_server_and_nothing_else(cloud: str) -> None:
    p = platform(cloud)
    result = run(lambda: NvidiaDevicePlugin("dp", plugin_args(p)))
    policies = [r.inputs for r in by_type(result, "kubernetes:networking.k8s.io/v1:NetworkPolicy")]
    assert sum(is_deny_all(policy) for policy in policies) == 1
    namespace = p.settings.device_plugin.namespace
    ports = API_SERVER_PORTS[cloud]
    pods = [
        Endpoint(namespace=namespace, labels=pod_template(obj)["metadata"]["labels"])
        for obj in rendered_for(cloud)
        if obj["kind"] in POD_KINDS
    ]
    assert len(pods) == len(CHART_PODS)
    for pod in pods:
        # What every pod of the chart needs: the API server, wherever its address is.
        for server in API_SERVERS:
            for port in ports:
                assert allows(policies, pod, "Egress", server, port=port), (pod, port)
        # And nothing else: no ingress at all, no other port, no other protocol.
        for peer in PEERS:
            for port, protocol in PROBES:
                assert not allows(policies, pod, "Ingress", peer, port=port, protocol=protocol)
                expected = protocol == "TCP" and port in ports
                got = allows(policies, pod, "Egress", peer, port=port, protocol=protocol)
                assert got == expected, (pod, peer, port, protocol)


def test_the_resources_reach_the_rendered_containers() -> None:
    raw = platforms.existing_mig_and_time_slicing()
    raw["devicePlugin"] = {
        "resources": {
            "plugin": {"cpu": "20m", "memory": "40Mi", "memoryLimit": "200Mi"},
            "nfdGc": {"cpu": "7m", "memory": "30Mi"},
        }
    }
    p = load_platform(raw)
    expected = {
        name: getattr(p.settings.device_plugin.resources, name).as_values()
        for name in ("plugin", "nfd_master", "nfd_worker", "nfd_gc")
    }
    pods = [obj for obj in render(p) if obj["kind"] in POD_KINDS]
    containers = {
        container["name"]: container.get("resources")
        for obj in pods
        for container in pod_template(obj)["spec"]["containers"]
    }
    # Chart 0.20 gives the plugin, GFD and MPS daemon containers one value.
    assert containers["nvidia-device-plugin-ctr"] == expected["plugin"]
    assert containers["gpu-feature-discovery-ctr"] == expected["plugin"]
    assert containers["mps-control-daemon-ctr"] == expected["plugin"]
    assert containers["worker"] == expected["nfd_worker"]
    # Without a memoryLimit the NFD chart's own limit stays (values merge over its defaults).
    assert containers["gc"] == {
        "requests": {"cpu": "7m", "memory": "30Mi"},
        "limits": {"memory": "1Gi"},
    }
    # The master's value sizes the master and the prune Job (both run nfd-master).
    masters = [
        pod_template(obj)["spec"]["containers"][0].get("resources")
        for obj in pods
        if obj["metadata"]["name"].endswith(("-master", "-prune"))
    ]
    assert masters == [expected["nfd_master"]] * 2


def test_nfd_pods_run_under_the_runtime_default_seccomp_profile(
    rendered: list[dict[str, Any]],
) -> None:
    nfd = {
        obj["metadata"]["name"]: pod_template(obj)["spec"].get("securityContext")
        for obj in rendered
        if obj["kind"] in {"DaemonSet", "Deployment"}
        and "node-feature-discovery" in obj["metadata"]["name"]
    }
    assert sorted(nfd) == [
        "nvidia-device-plugin-node-feature-discovery-gc",
        "nvidia-device-plugin-node-feature-discovery-master",
        "nvidia-device-plugin-node-feature-discovery-worker",
    ]
    assert all(sc == {"seccompProfile": {"type": "RuntimeDefault"}} for sc in nfd.values()), nfd
