"""AMD's GPU Operator chart (v1.5.1) rendered for real with our values (Helm's Go SDK, no helm
binary), read from ``../shared/reference`` next to the repository: skipped, with the reason, where
that copy is absent. Nothing of the chart is in the project.

The release runs exactly the pods ``gpu_facts.amd.gpu_operator.CHART_PODS`` lists, on the system
nodes, none on a GPU node, every image pinned; no NFD, default DeviceConfig, remediation or DRA
object; our namespace's policies let each pod reach the API server; every value and DeviceConfig
field we set is one the chart and its CRD have.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gpu_facts.amd import gpu_operator as amd
from gpu_facts.network_policy import API_SERVER_PORTS, Endpoint, allows
from gpu_platform.components.amd.gpu_operator import operator_policies
from gpu_platform.plan.amd.gpu_operator import device_configs, operator_values
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.conftest import run
from tests.reference import has_path, reference, render_chart

NAMESPACE = amd.DEFAULT_NAMESPACE
POD_KINDS = {"DaemonSet", "Deployment", "StatefulSet", "Job", "CronJob", "Pod"}


def _platform() -> Any:
    return load_platform(platforms.aks_amd_and_nvidia())


@pytest.fixture(scope="module")
def chart() -> Path:
    """AMD's chart v1.5.1 from ``../shared/reference`` (skipped, saying so, where it is not)."""
    return reference("amd-gpu-operator-v1.5.1")


@pytest.fixture(scope="module")
def rendered(chart: Path) -> list[dict[str, Any]]:
    values = operator_values(_platform().settings.amd_gpu_operator)
    return render_chart(chart, values, amd.RELEASE_NAME, NAMESPACE)


def pod_spec(obj: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = obj["spec"]["template"]["spec"]
    return spec


def pods(rendered: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [o for o in rendered if o["kind"] in POD_KINDS]


def test_the_facts_list_every_pod_the_release_runs(rendered: list[dict[str, Any]]) -> None:
    found = sorted((o["kind"], o["metadata"]["name"], o["source"]) for o in pods(rendered))
    assert found == sorted((p.kind, p.name, p.template) for p in amd.CHART_PODS)


def test_no_nfd_default_device_config_remediation_or_dra(rendered: list[dict[str, Any]]) -> None:
    kinds = {o["kind"] for o in rendered}
    assert not kinds & {"NodeFeatureRule", "DeviceConfig", "DeviceClass", "Workflow"}
    assert not [o for o in rendered if "node-feature-discovery" in o["source"]]
    assert not [o for o in rendered if "argo" in o["metadata"]["name"]]


def test_kmm_needs_cert_manager(rendered: list[dict[str, Any]]) -> None:
    """What the platform installs cert-manager for: KMM's webhook certificate."""
    issued = {(o["apiVersion"], o["kind"]) for o in rendered if "cert-manager" in o["apiVersion"]}
    assert issued == {("cert-manager.io/v1", "Certificate"), ("cert-manager.io/v1", "Issuer")}


def test_every_pod_stays_on_the_system_nodes_with_pinned_images(
    rendered: list[dict[str, Any]],
) -> None:
    for obj in pods(rendered):
        spec = pod_spec(obj)
        keys = {t.get("key") for t in spec.get("tolerations") or []}
        name = obj["metadata"]["name"]
        assert "CriticalAddonsOnly" in keys, name
        assert not keys & {"nvidia.com/gpu", "amd.com/gpu"}, name
        for container in spec["containers"]:
            image = container["image"]
            assert ":" in image.rsplit("/", 1)[-1] and not image.endswith(":latest"), image
    env = {
        e["name"]: e.get("value")
        for obj in pods(rendered)
        if obj["metadata"]["name"] == f"{amd.KMM_FULLNAME}-controller"
        for e in pod_spec(obj)["containers"][0]["env"]
    }
    for related in ("RELATED_IMAGE_WORKER", "RELATED_IMAGE_SIGN", "RELATED_IMAGE_BUILD"):
        assert not str(env[related]).endswith(":latest"), related


def test_our_policies_let_every_pod_reach_the_api_server_and_the_webhook_be_called(
    rendered: list[dict[str, Any]],
) -> None:
    result = run(lambda: _policies("aks"))
    policies = [r.inputs for r in result.resources if r.type.endswith("NetworkPolicy")]
    api_server = Endpoint(ip="198.51.100.10")
    for obj in pods(rendered):
        labels = obj["spec"]["template"].get("metadata", {}).get("labels") or {}
        pod = Endpoint(namespace=NAMESPACE, labels=labels)
        for port in API_SERVER_PORTS["aks"]:
            assert allows(policies, pod, "Egress", api_server, port=port), obj["metadata"]["name"]
    (webhook,) = [
        o for o in pods(rendered) if o["metadata"]["name"] == f"{amd.KMM_FULLNAME}-webhook-server"
    ]
    labels = webhook["spec"]["template"]["metadata"]["labels"]
    assert dict(amd.KMM_WEBHOOK_LABELS).items() <= labels.items()
    ports = {p["containerPort"] for c in pod_spec(webhook)["containers"] for p in c["ports"]}
    assert amd.KMM_WEBHOOK_PORT in ports
    pod = Endpoint(namespace=NAMESPACE, labels=labels)
    assert allows(policies, pod, "Ingress", api_server, port=amd.KMM_WEBHOOK_PORT)
    (controller,) = [
        o
        for o in pods(rendered)
        if o["metadata"]["name"] == f"{amd.RELEASE_NAME}-controller-manager"
    ]
    labels = controller["spec"]["template"]["metadata"]["labels"]
    assert dict(amd.CONTROLLER_LABELS).items() <= labels.items()


def _policies(cloud: str) -> None:
    from pulumi_kubernetes.meta.v1 import ObjectMetaArgs
    from pulumi_kubernetes.networking import v1 as net

    for name, spec in operator_policies(cloud, []).items():
        net.NetworkPolicy(name, metadata=ObjectMetaArgs(name=name, namespace=NAMESPACE), spec=spec)


def test_every_value_we_set_is_a_chart_value(chart: Path) -> None:
    values = yaml.safe_load((chart / "values.yaml").read_text())
    values["kmm"] |= yaml.safe_load((chart / "charts" / "kmm" / "values.yaml").read_text())
    # Keys the chart templates read without a default in values.yaml.
    read_only_by_templates = {"draDriver.deviceClass.create"}
    for path in sorted(amd.KNOWN_VALUE_PATHS - read_only_by_templates):
        assert has_path(values, path), f"{path} is not in the chart's values.yaml"


def _schema_paths(schema: dict[str, Any], prefix: str = "") -> set[str]:
    found: set[str] = set()
    for key, sub in (schema.get("properties") or {}).items():
        path = f"{prefix}{key}"
        found.add(path)
        found |= _schema_paths(sub, path + ".")
    return found


def test_every_device_config_field_we_set_is_in_the_crd(chart: Path) -> None:
    crd = yaml.safe_load((chart / "crds" / "deviceconfig-crd.yaml").read_text())
    (version,) = crd["spec"]["versions"]
    assert (crd["spec"]["group"], version["name"]) == ("amd.com", "v1alpha1")
    spec = version["schema"]["openAPIV3Schema"]["properties"]["spec"]
    known = _schema_paths(spec)
    assert known >= amd.DEVICE_CONFIG_PATHS, sorted(amd.DEVICE_CONFIG_PATHS - known)
    platform = _platform()
    for config in device_configs(
        list(platform.pools.values()), platform.settings.amd_gpu_operator, "annotations"
    ).values():
        assert _paths_of(config) <= known


OUR_MAPS = ("selector", "podAnnotations", "devicePluginArguments")


def _paths_of(value: dict[str, Any], prefix: str = "") -> set[str]:
    found: set[str] = set()
    for key, sub in value.items():
        path = f"{prefix}{key}"
        found.add(path)
        # Below a map of our own keys (a selector, annotations, arguments) the CRD has none.
        if isinstance(sub, dict) and key not in OUR_MAPS:
            found |= _paths_of(sub, path + ".")
    return found
