"""The GPU Operator's namespace: deny-all, and exactly what its pods need (the operand labels
are read from the operator's assets, gpu_facts.nvidia.device_plugin_chart; no chart render shows the
operands, which the operator creates at run time)."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from gpu_facts.network_policy import API_SERVER_PORTS, Endpoint, allows, is_deny_all
from gpu_facts.nvidia.device_plugin_chart import (
    GPU_OPERATOR_DCGM_EXPORTER_LABELS,
    GPU_OPERATOR_DCGM_EXPORTER_PORT,
    GPU_OPERATOR_DRIVER_LABELS,
)
from gpu_platform.components.nvidia.gpu_operator import NvidiaGpuOperator
from gpu_platform.components.platform import GpuPlatform
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.components.incluster_args import operator_args
from tests.components.input_errors import paths
from tests.conftest import by_type, run

NETWORK_POLICY = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
NAMESPACE = "gpu-operator"
DNS = Endpoint(namespace="kube-system", labels={"k8s-app": "kube-dns"})
SCRAPER = Endpoint(namespace="monitoring", labels={"app": "prometheus"})
STRANGER = Endpoint(namespace="gpu-training", labels={"app": "trainer"})
ADDRESS = Endpoint(ip="198.51.100.10")
DRIVER = Endpoint(namespace=NAMESPACE, labels=dict(GPU_OPERATOR_DRIVER_LABELS))
EXPORTER = Endpoint(namespace=NAMESPACE, labels=dict(GPU_OPERATOR_DCGM_EXPORTER_LABELS))
OPERATOR = Endpoint(namespace=NAMESPACE, labels={"app": "gpu-operator"})
PLUGIN = Endpoint(namespace=NAMESPACE, labels={"app": "nvidia-device-plugin-daemonset"})
PROBES = [(53, "UDP"), (53, "TCP"), (80, "TCP"), (443, "TCP"), (6443, "TCP"), (9400, "TCP")]


def operator_platform() -> Any:
    raw = platforms.existing_mig_and_time_slicing()
    raw["devicePlugin"] = {"enabled": False}
    raw["gpuOperator"] = {"enabled": True}
    return load_platform(raw)


def policies(cloud: str = "existing", scrapers: list[str] | None = None) -> list[dict[str, Any]]:
    args = operator_args(operator_platform(), cloud=cloud)
    if scrapers is not None:
        args["scraper_namespaces"] = scrapers
    result = run(lambda: NvidiaGpuOperator("op", args))
    return [r.inputs for r in by_type(result, NETWORK_POLICY)]


@pytest.mark.parametrize("cloud", ["existing", "aks"])
def test_every_pod_reaches_the_api_server_and_no_more_unless_it_must(cloud: str) -> None:
    found = policies(cloud, ["monitoring"])
    assert sum(is_deny_all(p) for p in found) == 1
    ports = API_SERVER_PORTS[cloud]
    for pod in (DRIVER, EXPORTER, OPERATOR, PLUGIN):
        for port in ports:
            assert allows(found, pod, "Egress", ADDRESS, port=port), pod
        for peer in (DNS, SCRAPER, STRANGER, ADDRESS):
            for port, protocol in PROBES:
                egress = allows(found, pod, "Egress", peer, port=port, protocol=protocol)
                api = protocol == "TCP" and port in ports
                # The driver pods: DNS to kube-system, then HTTP(S) to the package mirrors.
                downloads = pod is DRIVER and (
                    (port, protocol) in ((80, "TCP"), (443, "TCP")) or (port == 53 and peer is DNS)
                )
                assert egress == (api or downloads), (pod, peer, port, protocol)
                ingress = allows(found, pod, "Ingress", peer, port=port, protocol=protocol)
                scrape = pod is EXPORTER and peer is SCRAPER and port == 9400
                assert ingress == scrape, (pod, peer, port, protocol)


def test_without_scrapers_nothing_reaches_the_exporter() -> None:
    found = policies(scrapers=[])
    assert not allows(found, EXPORTER, "Ingress", SCRAPER, port=GPU_OPERATOR_DCGM_EXPORTER_PORT)


def test_api_server_ports_follow_the_cloud() -> None:
    def ports(found: list[dict[str, Any]]) -> list[int]:
        (policy,) = [p for p in found if p["metadata"]["name"] == "allow-api-server-egress"]
        return [int(port["port"]) for port in policy["spec"]["egress"][0]["ports"]]

    assert ports(policies("existing")) == [443, 6443]
    assert ports(policies("aks")) == [443]


def test_bad_scraper_namespaces_are_refused() -> None:
    args = {**operator_args(operator_platform()), "scraper_namespaces": ["Not A Label"]}
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: NvidiaGpuOperator("op", args))  # type: ignore[arg-type]
    assert paths(err.value) == ["scraperNamespaces[0]"]


def test_every_namespace_of_an_operator_platform_denies_all() -> None:
    raw = platforms.existing_mig_and_time_slicing()
    raw["devicePlugin"] = {"enabled": False}
    raw["gpuOperator"] = {"enabled": True}
    raw.setdefault("observability", {}).setdefault("metrics", {})["scraperNamespaces"] = [
        "monitoring"
    ]
    result = run(lambda: GpuPlatform("existing", load_platform(raw)))
    created = {
        r.inputs["metadata"]["name"] for r in by_type(result, "kubernetes:core/v1:Namespace")
    }
    denied = {
        r.inputs["metadata"]["namespace"]
        for r in by_type(result, NETWORK_POLICY)
        if is_deny_all(r.inputs)
    }
    assert NAMESPACE in created
    assert denied == created
    scrape = [
        r
        for r in by_type(result, NETWORK_POLICY)
        if r.inputs["metadata"] == {"name": "allow-scrape", "namespace": NAMESPACE}
    ]
    assert len(scrape) == 1
