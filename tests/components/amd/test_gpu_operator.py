"""AmdGpuOperator: the release's values, one DeviceConfig per AMD pool on exactly that pool, the
namespace's deny-all and what its pods need, the scrape objects, and bad input."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_facts.amd import gpu_operator as amd
from gpu_facts.network_policy import API_SERVER_PORTS, Endpoint, allows, is_deny_all
from gpu_facts.nvidia.device_plugin_chart import unknown_value_paths
from gpu_platform.components.amd.gpu_operator import AmdGpuOperator
from gpu_platform.plan.amd.pools import amd_layer_problems
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.settings import AmdGpuOperatorSettings
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.components.incluster_args import amd_operator_args
from tests.components.input_errors import paths, refused
from tests.conftest import by_type, one, run, run_once
from tests.pools import gpu_pool

DEVICE_CONFIG = "kubernetes:amd.com/v1alpha1:DeviceConfig"
RELEASE = "kubernetes:helm.sh/v3:Release"
NETWORK_POLICY = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
NAMESPACE_TYPE = "kubernetes:core/v1:Namespace"
POD_MONITOR = "kubernetes:azmonitoring.coreos.com/v1:PodMonitor"
OPERATOR_POD_MONITOR = "kubernetes:monitoring.coreos.com/v1:PodMonitor"
PROMETHEUS_RULE = "kubernetes:monitoring.coreos.com/v1:PrometheusRule"
HOME = "amd-gpu-operator"
AMD_TOLERATION = [{"key": "amd.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]


def amd_platform() -> ResolvedPlatform:
    return load_platform(platforms.aks_amd_and_nvidia())


@run_once
def operator_run(scrape: str | None = "azureMonitor", rules: bool = False) -> Any:
    fields: dict[str, Any] = {}
    if scrape is not None:
        fields = {"scrape": scrape, "scraper_namespaces": ["kube-system"]}
    if rules:
        fields["prometheus_rules"] = True
    args = amd_operator_args(amd_platform(), **fields)
    return run(lambda: AmdGpuOperator("amd", args))


def test_one_device_config_per_amd_pool_on_exactly_that_pool() -> None:
    result = operator_run()
    (config,) = by_type(result, DEVICE_CONFIG)  # mi300x; the t4 pool is NVIDIA's
    assert config.inputs["metadata"] == {"name": "mi300x", "namespace": HOME}
    assert config.inputs["apiVersion"] == "amd.com/v1alpha1"
    spec = config.inputs["spec"]
    assert spec["selector"] == {"gpu-platform.io/pool": "mi300x"}
    assert spec["driver"] == {
        "enable": True,
        "blacklist": True,
        "version": "6.4",
        "image": "gpuamddev.azurecr.io/amd/amdgpu-kmod",
        "imageRegistrySecret": {"name": "amd-driver-registry"},
        "tolerations": AMD_TOLERATION,
        # Azure's MI300X are virtual functions: the operator's VF parameter, set by us.
        "kernelModuleConfig": {"parameters": ["ip_block_mask=0x7f"]},
    }
    assert spec["devicePlugin"] == {
        "enableDevicePlugin": True,
        "devicePluginImage": "docker.io/rocm/k8s-device-plugin:1.31.0.10",
        "devicePluginArguments": {"resource_naming_strategy": "single"},
        "devicePluginTolerations": AMD_TOLERATION,
        "enableNodeLabeller": True,
        "nodeLabellerImage": "docker.io/rocm/k8s-device-plugin:labeller-1.31.0.10",
        "nodeLabellerTolerations": AMD_TOLERATION,
    }
    assert spec["metricsExporter"] == {
        "enable": True,
        "image": "docker.io/rocm/device-metrics-exporter:v1.5.1",
        "port": 5000,
        "serviceType": "ClusterIP",
        "tolerations": AMD_TOLERATION,
    }
    assert unknown_value_paths(spec, amd.DEVICE_CONFIG_PATHS) == []


def test_release_is_pinned_without_nfd_default_cr_or_remediation() -> None:
    result = operator_run()
    release = one(result, RELEASE).inputs
    assert (release["chart"], release["version"], release["namespace"]) == (
        "gpu-operator-charts",
        "v1.5.1",
        HOME,
    )
    assert release["repositoryOpts"] == {"repo": "https://rocm.github.io/gpu-operator"}
    values = release["values"]
    assert values["node-feature-discovery"] == {"enabled": False}
    assert values["installdefaultNFDRule"] is False
    assert values["crds"] == {"defaultCR": {"install": False}}
    assert values["remediation"] == {"enabled": False, "installCRDs": False}
    system = [{"key": "CriticalAddonsOnly", "operator": "Exists"}]
    assert values["controllerManager"]["manager"]["tolerations"] == system
    kmm = values["kmm"]
    assert kmm["controller"]["manager"]["tolerations"] == system
    assert kmm["webhookServer"]["webhookServer"]["tolerations"] == system
    # No KMM image left on the chart's ``latest``.
    assert kmm["controller"]["manager"]["image"]["tag"] == "v1.5.1"
    assert kmm["controller"]["manager"]["env"]["relatedImageWorker"].endswith(":v1.5.1")
    assert unknown_value_paths(values, amd.KNOWN_VALUE_PATHS) == []


def test_device_configs_wait_for_the_release_that_brings_their_crd() -> None:
    result = operator_run()
    release = one(result, RELEASE)
    (config,) = by_type(result, DEVICE_CONFIG)
    assert release.urn in config.dependencies


def test_namespace_is_privileged_for_the_operands() -> None:
    namespace = one(operator_run(), NAMESPACE_TYPE).inputs
    assert namespace["metadata"]["name"] == HOME
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "privileged"


DNS = Endpoint(namespace="kube-system", labels={"k8s-app": "kube-dns"})
SCRAPER = Endpoint(namespace="kube-system", labels={"rsName": "ama-metrics"})
STRANGER = Endpoint(namespace="gpu-training", labels={"app": "trainer"})
ADDRESS = Endpoint(ip="198.51.100.10")
BUILD = Endpoint(namespace=HOME, labels={amd.KMM_POD_TYPE_LABEL: "build"})
SIGN = Endpoint(namespace=HOME, labels={amd.KMM_POD_TYPE_LABEL: "sign"})
WEBHOOK = Endpoint(namespace=HOME, labels=dict(amd.KMM_WEBHOOK_LABELS))
EXPORTER = Endpoint(
    namespace=HOME, labels={amd.EXPORTER_NAME_LABEL: amd.EXPORTER_NAME, "daemonset-name": "x"}
)
CONTROLLER = Endpoint(namespace=HOME, labels=dict(amd.CONTROLLER_LABELS))
PLUGIN = Endpoint(namespace=HOME, labels={"daemonset-name": "mi300x"})
WEB = ((80, "TCP"), (443, "TCP"))
PROBES = [(53, "UDP"), (53, "TCP"), (80, "TCP"), (443, "TCP"), (5000, "TCP"), (9443, "TCP")]


@pytest.mark.parametrize("cloud", ["existing", "aks"])
def test_every_pod_reaches_the_api_server_and_no_more_unless_it_must(cloud: str) -> None:
    args = amd_operator_args(
        amd_platform(), cloud=cloud, scrape="annotations", scraper_namespaces=["kube-system"]
    )
    found = [r.inputs for r in by_type(run(lambda: AmdGpuOperator("amd", args)), NETWORK_POLICY)]
    assert sum(is_deny_all(p) for p in found) == 1
    ports = API_SERVER_PORTS[cloud]
    for pod in (BUILD, SIGN, WEBHOOK, EXPORTER, CONTROLLER, PLUGIN):
        for peer in (DNS, SCRAPER, STRANGER, ADDRESS):
            for port, protocol in PROBES:
                egress = allows(found, pod, "Egress", peer, port=port, protocol=protocol)
                api = protocol == "TCP" and port in ports
                # Build and sign pods: DNS in kube-system, then HTTP(S) to any address.
                dns = port == 53 and peer.namespace == "kube-system"
                builds = pod in (BUILD, SIGN) and ((port, protocol) in WEB or dns)
                assert egress == (api or builds), (pod, peer, port, protocol)
                ingress = allows(found, pod, "Ingress", peer, port=port, protocol=protocol)
                # The scrapers' namespace is let in, every pod of it.
                scrape = pod is EXPORTER and peer.namespace == "kube-system" and port == 5000
                webhook = pod is WEBHOOK and port == 9443 and protocol == "TCP"
                assert ingress == (scrape or webhook), (pod, peer, port, protocol)


def test_recorded_policies_are_the_ones_the_network_test_reads() -> None:
    names = sorted(p.inputs["metadata"]["name"] for p in by_type(operator_run(), NETWORK_POLICY))
    assert names == [
        "allow-api-server-egress",
        "allow-driver-build",
        "allow-kmm-webhook-ingress",
        "allow-scrape",
        "default-deny-all",
    ]


def test_azure_monitor_reads_a_pod_monitor_of_its_own_group() -> None:
    monitor = one(operator_run(), POD_MONITOR).inputs
    assert monitor["metadata"] == {"name": "amd-metrics-exporter", "namespace": HOME}
    (endpoint,) = monitor["spec"]["podMetricsEndpoints"]
    assert monitor["spec"]["selector"] == {
        "matchLabels": {"app.kubernetes.io/name": "metrics-exporter"}
    }
    assert (endpoint["port"], endpoint["honorLabels"]) == ("exporter-port", True)
    assert endpoint["relabelings"] == [{"action": "labeldrop", "regex": "namespace|pod|container"}]


def test_annotations_scrape_needs_no_crd_and_no_scrape_means_no_allowance() -> None:
    annotated = operator_run("annotations")
    assert not by_type(annotated, POD_MONITOR) and not by_type(annotated, OPERATOR_POD_MONITOR)
    spec = one(annotated, DEVICE_CONFIG).inputs["spec"]
    assert spec["metricsExporter"]["podAnnotations"] == {
        "prometheus.io/scrape": "true",
        "prometheus.io/port": "5000",
        "prometheus.io/path": "/metrics",
    }
    silent = operator_run(None)
    names = {p.inputs["metadata"]["name"] for p in by_type(silent, NETWORK_POLICY)}
    assert "allow-scrape" not in names
    # The exporter still runs: the device plugin reads GPU health from it.
    assert one(silent, DEVICE_CONFIG).inputs["spec"]["metricsExporter"]["enable"] is True


def test_prometheus_operator_gets_a_pod_monitor_and_the_rules() -> None:
    result = operator_run("serviceMonitor", rules=True)
    assert one(result, OPERATOR_POD_MONITOR)
    groups = one(result, PROMETHEUS_RULE).inputs["spec"]["groups"]
    alerts = {r.get("alert") for g in groups for r in g["rules"]}
    assert {"AmdGpuUnhealthy", "AmdGpuUncorrectableEccErrors"} <= alerts


def test_bad_args_name_every_property_and_register_nothing() -> None:
    args: Any = amd_operator_args(
        amd_platform(),
        scrape="carrier-pigeon",
        driver={"version": "6.4", "image": "registry.example/amd:6.4"},
        scraper_namespaces=["Not_A_Namespace"],
        colour="red",
    )
    err = refused(lambda: AmdGpuOperator("amd", args))
    assert paths(err) == ["colour"]  # a wrong shape first, alone
    del args["colour"]
    err = refused(lambda: AmdGpuOperator("amd", args))
    assert paths(err) == ["driver.image", "scraperNamespaces[0]", "scrape"]


def test_no_amd_pool_and_no_driver_image_are_refused() -> None:
    t4 = {"name": "t4", "vm_size": "Standard_NC4as_T4_v3", "count": 1}
    mi300x = {"name": "mi300x", "vm_size": "Standard_ND96isr_MI300X_v5", "count": 1}
    no_amd_pool: Any = {"pools": [t4], "driver": {"image": "r.example/amd/kmod"}}
    no_image: Any = {"pools": [mi300x]}
    errors = [
        refused(lambda: AmdGpuOperator("amd", no_amd_pool)),
        refused(lambda: AmdGpuOperator("amd", no_image)),
    ]
    assert [paths(e) for e in errors] == [["pools"], ["driver.image"]]
    assert "no pool has an AMD size" in str(errors[0])
    # The stack config's rule, with its message (plan.amd.pools).
    pool = gpu_pool(mi300x)
    [(_, message)] = amd_layer_problems("existing", AmdGpuOperatorSettings(), [pool])
    assert message in str(errors[1])


def test_children_are_named_after_and_parented_to_the_component() -> None:
    result = operator_run()
    component = one(result, "gpu-platform:index:AmdGpuOperator")
    for res in result.resources:
        if res is component:
            continue
        assert res.name.startswith("amd-"), res.name
        assert res.parent == component.urn, res.name
