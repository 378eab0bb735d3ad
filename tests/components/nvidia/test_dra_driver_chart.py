"""NVIDIA's DRA driver chart rendered for real with our values (Helm's Go SDK, no helm binary),
beside the device plugin chart rendered with the same platform's values: the kubelet plugin lands
on exactly the DRA pools' nodes (tolerating their taint), the device plugin, GFD and NFD worker
on none of them, the controller on CPU nodes only; the pods are the ones
``gpu_facts.nvidia.dra_driver_chart`` lists, the DeviceClasses the ones ``gpu_facts.dra`` names,
and the release's namespace lets each pod reach the API server and nothing else."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from helm_python.chart import Chart

from gpu_facts.dra import NVIDIA_DRA_DRIVER, NVIDIA_GPU_CLASS, TYPE_ATTRIBUTE
from gpu_facts.network_policy import API_SERVER_PORTS, Endpoint, allows, is_deny_all
from gpu_facts.nvidia.device_plugin_chart import DEFAULT_VERSION as PLUGIN_VERSION
from gpu_facts.nvidia.device_plugin_chart import RELEASE_NAME as PLUGIN_RELEASE
from gpu_facts.nvidia.device_plugin_chart import unknown_value_paths
from gpu_facts.nvidia.dra_driver_chart import (
    CHART_PODS,
    CONTROLLER_COMPONENT,
    DEFAULT_VERSION,
    KNOWN_VALUE_PATHS,
    KUBELET_PLUGIN_COMPONENT,
    RELEASE_NAME,
)
from gpu_facts.scheduling import GPU_TAINT_EFFECT, POOL_LABEL, Taint
from gpu_platform.components.nvidia.device_plugin import chart_values as plugin_values
from gpu_platform.components.nvidia.dra_driver import NvidiaDraDriver
from gpu_platform.plan.node_labels import node_labels
from gpu_platform.plan.nvidia.dra_driver import dra_driver_values
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.stack_config import load_platform
from gpu_policy_support.node_placement import node_placement
from gpu_policy_support.tolerations import may_schedule
from tests.components import platforms
from tests.components.incluster_args import dra_driver_args
from tests.conftest import by_type, run
from tests.reference import reference

DRA_CHART = f"nvidia-dra-driver-gpu-{DEFAULT_VERSION}"
PLUGIN_CHART = f"nvidia-device-plugin-{PLUGIN_VERSION}"
"""NVIDIA's charts at our pinned versions, read from ../shared/reference (never copied here)."""
POD_KINDS = {"DaemonSet", "Deployment", "StatefulSet", "Job", "CronJob", "Pod"}
CPU_NODE: dict[str, str] = {POOL_LABEL: "general"}
SYSTEM_NODE: dict[str, str] = {"kubernetes.azure.com/mode": "system"}
SYSTEM_TAINT = Taint("CriticalAddonsOnly", "true", "NoSchedule")


def platform(**changes: Any) -> ResolvedPlatform:
    raw = platforms.aks_dra_and_device_plugin()
    raw["draDriver"] = {**raw.get("draDriver", {}), **changes}
    return load_platform(raw)


def _documents(chart: str, values: dict[str, Any], namespace: str, release: str) -> list[Any]:
    manifests = Chart.load(reference(chart)).render(
        values=values, name=release, namespace=namespace, is_install=True
    )
    return [
        {**doc, "source": source}
        for source, text in manifests.items()
        for doc in yaml.safe_load_all(text)
        if doc
    ]


def render(p: ResolvedPlatform) -> list[dict[str, Any]]:
    """Every object the DRA release makes, with ``source`` the template file."""
    settings = p.settings.dra_driver
    dra = sorted(pf.name for pf in p.pools.values() if pf.uses_dra)
    values = dra_driver_values(dra, settings.compute_domains)
    return _documents(DRA_CHART, values, settings.namespace, RELEASE_NAME)


def render_plugin(p: ResolvedPlatform) -> list[dict[str, Any]]:
    values = plugin_values(p.settings.device_plugin, list(p.pools.values()))
    return _documents(PLUGIN_CHART, values, p.settings.device_plugin.namespace, PLUGIN_RELEASE)


def pod_spec(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    return obj["spec"]["template"]["spec"]


def runs_on(obj: Mapping[str, Any], labels: Mapping[str, str], taints: list[Taint]) -> bool:
    """Whether the scheduler may place the object's pods on a node with these labels and taints
    (nodeSelector, required node affinity, tolerations)."""
    spec = pod_spec(obj)
    return node_placement(spec).admits(labels) and may_schedule(
        spec.get("tolerations") or [], taints
    )


def nodes(p: ResolvedPlatform) -> dict[str, tuple[dict[str, str], list[Taint]]]:
    """One node of every pool of the platform, as AKS labels and taints it, and a CPU and a system
    node."""
    found = {
        name: ({**node_labels(p, pf), POOL_LABEL: name}, [pf.vendor.taint])
        for name, pf in p.pools.items()
    }
    found["general"] = (CPU_NODE, [])
    found["system"] = (SYSTEM_NODE, [SYSTEM_TAINT])
    return found


@pytest.fixture(scope="module")
def dra_platform() -> ResolvedPlatform:
    return platform()


@pytest.fixture(scope="module")
def rendered(dra_platform: ResolvedPlatform) -> list[dict[str, Any]]:
    return render(dra_platform)


def test_our_values_are_chart_keys(dra_platform: ResolvedPlatform) -> None:
    values = dra_driver_values(["h100dra"], compute_domains=True)
    assert unknown_value_paths(values, KNOWN_VALUE_PATHS) == []


def test_the_kubelet_plugin_runs_on_exactly_the_dra_pools(
    dra_platform: ResolvedPlatform, rendered: list[dict[str, Any]]
) -> None:
    (plugin,) = [o for o in rendered if o["kind"] == "DaemonSet"]
    placed = sorted(
        name
        for name, (labels, taints) in nodes(dra_platform).items()
        if runs_on(plugin, labels, taints)
    )
    assert placed == ["a100dramig", "h100dra"]
    tolerations = pod_spec(plugin)["tolerations"]
    assert {
        "key": "nvidia.com/gpu",
        "operator": "Exists",
        "effect": GPU_TAINT_EFFECT,
    } in tolerations


def test_device_plugin_objects_land_on_no_dra_pool(dra_platform: ResolvedPlatform) -> None:
    daemonsets = [o for o in render_plugin(dra_platform) if o["kind"] == "DaemonSet"]
    assert len(daemonsets) >= 3  # the plugin, GFD, the MPS daemon and the NFD worker
    dra_pools = {name for name, pf in dra_platform.pools.items() if pf.uses_dra}
    for name, (labels, taints) in nodes(dra_platform).items():
        running = [o["metadata"]["name"] for o in daemonsets if runs_on(o, labels, taints)]
        if name in dra_pools:
            assert running == [], (name, running)
    # ...while the device-plugin pools keep theirs.
    labels, taints = nodes(dra_platform)["a100mig"]
    assert any(runs_on(o, labels, taints) for o in daemonsets)


def test_the_controller_runs_on_cpu_nodes_only() -> None:
    p = platform(computeDomains=True)
    (controller,) = [o for o in render(p) if o["kind"] == "Deployment"]
    placed = sorted(
        name for name, (labels, taints) in nodes(p).items() if runs_on(controller, labels, taints)
    )
    assert placed == ["general", "system"]


def test_the_chart_facts_list_every_pod_the_release_runs() -> None:
    rendered = render(platform(computeDomains=True))
    pods = sorted((o["kind"], Path(o["source"]).name) for o in rendered if o["kind"] in POD_KINDS)
    assert pods == sorted((pod.kind, Path(pod.template).name) for pod in CHART_PODS)
    for pod in CHART_PODS:
        (obj,) = [o for o in rendered if o["kind"] == pod.kind]
        assert dict(pod.labels).items() <= obj["spec"]["template"]["metadata"]["labels"].items()
    # Without ComputeDomains the kubelet plugin alone, with the GPU container only.
    pods = [o for o in render(platform()) if o["kind"] in POD_KINDS]
    assert [(o["kind"], [c["name"] for c in pod_spec(o)["containers"]]) for o in pods] == [
        ("DaemonSet", ["gpus"])
    ]
    assert {KUBELET_PLUGIN_COMPONENT, CONTROLLER_COMPONENT} == {pod.name for pod in CHART_PODS}


def test_the_device_classes_are_the_ones_the_facts_name(rendered: list[dict[str, Any]]) -> None:
    classes = {o["metadata"]["name"]: o for o in rendered if o["kind"] == "DeviceClass"}
    assert sorted(classes) == sorted(NVIDIA_DRA_DRIVER.device_classes)
    for name, obj in classes.items():
        assert obj["apiVersion"] == "resource.k8s.io/v1"
        (selector,) = obj["spec"]["selectors"]
        expression = selector["cel"]["expression"]
        assert f"device.driver == '{NVIDIA_DRA_DRIVER.name}'" in expression, name
        assert f"['{NVIDIA_DRA_DRIVER.attribute_domain}'].{TYPE_ATTRIBUTE}" in expression, name
    # Rendered as v1 the whole-GPU class maps nvidia.com/gpu: the platform's own, on purpose.
    assert classes[NVIDIA_GPU_CLASS]["spec"]["extendedResourceName"] == "nvidia.com/gpu"


def test_no_pod_is_on_the_host_network_or_behind_a_service() -> None:
    rendered = render(platform(computeDomains=True))
    for obj in rendered:
        if obj["kind"] in POD_KINDS:
            assert not pod_spec(obj).get("hostNetwork"), obj["metadata"]["name"]
    assert not {o["kind"] for o in rendered} & {"Service", "Ingress", "NetworkPolicy"}


API_SERVERS = [Endpoint(ip="198.51.100.10"), Endpoint(ip="10.0.0.1")]
PEERS = [
    *API_SERVERS,
    Endpoint(ip="203.0.113.80"),
    Endpoint(namespace="kube-system", labels={"k8s-app": "kube-dns"}),
    Endpoint(namespace="gpu-dra", labels={"app": "trainer"}),
]
PROBES = [(53, "UDP"), (53, "TCP"), (80, "TCP"), (443, "TCP"), (6443, "TCP"), (51516, "TCP")]


def test_each_pod_reaches_the_api_server_and_nothing_else() -> None:
    p = platform(computeDomains=True)
    result = run(lambda: NvidiaDraDriver("dra", dra_driver_args(p)))
    policies = [r.inputs for r in by_type(result, "kubernetes:networking.k8s.io/v1:NetworkPolicy")]
    assert sum(is_deny_all(policy) for policy in policies) == 1
    namespace, ports = p.settings.dra_driver.namespace, API_SERVER_PORTS["aks"]
    pods = [
        Endpoint(namespace=namespace, labels=o["spec"]["template"]["metadata"]["labels"])
        for o in render(p)
        if o["kind"] in POD_KINDS
    ]
    assert len(pods) == len(CHART_PODS)
    for pod in pods:
        for server in API_SERVERS:
            for port in ports:
                assert allows(policies, pod, "Egress", server, port=port), (pod, port)
        for peer in PEERS:
            for port, protocol in PROBES:
                assert not allows(policies, pod, "Ingress", peer, port=port, protocol=protocol)
                expected = protocol == "TCP" and port in ports
                assert allows(policies, pod, "Egress", peer, port=port, protocol=protocol) == (
                    expected
                ), (pod, peer, port, protocol)
