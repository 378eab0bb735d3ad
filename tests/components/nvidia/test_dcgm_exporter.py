"""DcgmExporter: on exactly the GPU nodes, every exposed resource attributed, a deny-all namespace
with only the scrape let in, and the scrape path the caller chose."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest
import yaml
from pulumi.provider.experimental.analyzer import Analyzer

from gpu_facts.nvidia.dcgm_exporter_chart import KNOWN_VALUE_PATHS
from gpu_facts.nvidia.device_plugin_chart import unknown_value_paths
from gpu_facts.scheduling import DEVICE_PLUGIN_CONFIG_LABEL, GPU_PRESENT_LABEL, POOL_LABEL
from gpu_platform.components.nvidia.dcgm_exporter import DcgmExporter, DcgmExporterArgs
from gpu_platform.components.pool_args import GpuPoolArgs, gpu_pool_args
from gpu_platform.offline_preview import ProgramRun
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.conftest import by_type, one, run
from tests.reference import reference

CHART = "dcgm-exporter-4.8.2"
"""NVIDIA's dcgm-exporter chart, read from ../shared/reference (never copied here)."""
RELEASE = "kubernetes:helm.sh/v3:Release"
POLICY = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
T4_SHARED: GpuPoolArgs = {
    "name": "t4",
    "vm_size": "Standard_NC4as_T4_v3",
    "autoscale": {"min": 0, "max": 3},
    "sharing": {"mode": "timeSlicing", "replicas": 4},
}
A100_MIG: GpuPoolArgs = {
    "name": "a100mig",
    "vm_size": "Standard_ND96asr_v4",
    "count": 1,
    "mig": {"profile": "MIG1g", "strategy": "mixed"},
}


KEEPS_POD_ATTRIBUTION = {
    "selector": {"matchLabels": {"app.kubernetes.io/name": "dcgm-exporter"}},
    # The exporter's own namespace/pod/container labels name the pod holding the GPU; the
    # scrape target's (the exporter pod's) would overwrite or shadow them.
    "podMetricsEndpoints": [
        {
            "port": "metrics",
            "path": "/metrics",
            "honorLabels": True,
            "relabelings": [{"action": "labeldrop", "regex": "namespace|pod|container"}],
        }
    ],
}


def exporter(**args: Any) -> ProgramRun:
    full: DcgmExporterArgs = {"pools": [A100_MIG, T4_SHARED], "cloud": "aks", **args}
    return run(lambda: DcgmExporter("metrics", full))


def values(result: ProgramRun) -> dict[str, Any]:
    return one(result, RELEASE).inputs["values"]


def test_release_is_pinned_in_its_own_namespace() -> None:
    release = one(exporter(), RELEASE).inputs
    assert release["chart"] == "dcgm-exporter"
    assert release["version"] == "4.8.2"
    assert release["repositoryOpts"] == {
        "repo": "https://nvidia.github.io/dcgm-exporter/helm-charts"
    }
    assert release["namespace"] == "gpu-metrics"


def test_exporter_lands_on_exactly_the_gpu_nodes_the_plugin_serves() -> None:
    v = values(exporter())
    # No ACK-shared pool: the plugin's labels alone select the nodes.
    # Tolerates our GPU taint whatever its value, and nothing else: never a system node.
    assert v["tolerations"] == [
        {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    ]
    terms = v["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert terms["nodeSelectorTerms"] == [
        {
            "matchExpressions": [
                {"key": GPU_PRESENT_LABEL, "operator": "In", "values": ["true"]},
                {"key": DEVICE_PLUGIN_CONFIG_LABEL, "operator": "Exists"},
            ]
        }
    ]


def test_every_exposed_resource_is_attributed_and_shared_gpus_get_per_pod_series() -> None:
    env = {e["name"]: e["value"] for e in values(exporter())["extraEnv"]}
    # nvidia.com/mig-1g.5gb is attributed natively; the time-sliced name must be declared.
    assert env == {
        "NVIDIA_RESOURCE_NAMES": "nvidia.com/gpu.shared",
        "KUBERNETES_VIRTUAL_GPUS": "true",
    }


def test_whole_gpus_need_no_declared_names() -> None:
    whole: GpuPoolArgs = {"name": "a100", "vm_size": "Standard_ND96asr_v4", "count": 2}
    assert values(exporter(pools=[whole]))["extraEnv"] == []


def test_mig_shared_names_are_declared() -> None:
    shared_mig: GpuPoolArgs = {**A100_MIG, "sharing": {"mode": "timeSlicing", "replicas": 2}}
    env = {e["name"]: e["value"] for e in values(exporter(pools=[shared_mig]))["extraEnv"]}
    assert env["NVIDIA_RESOURCE_NAMES"] == "nvidia.com/mig-1g.5gb.shared"


A10_MPS: GpuPoolArgs = {
    "name": "a10mps",
    "instance_type": "ecs.gn7i-c16g1.4xlarge",
    "count": 1,
    "sharing": {"mode": "mps"},
}
ACK_T4: GpuPoolArgs = {"name": "t4", "instance_type": "ecs.gn6i-c4g1.xlarge", "count": 1}


def test_ack_mps_pools_get_our_exporter_which_names_no_aliyun_pods() -> None:
    def program() -> None:
        component = DcgmExporter("metrics", {"pools": [A10_MPS, ACK_T4], "cloud": "ack"})
        pulumi.export("resourceNames", component.resource_names)

    result = run(program)
    v = values(result)
    # The MPS pool's nodes carry the GPU taint and none of the NVIDIA plugin's labels: the
    # exporter tolerates the taint and selects them by our pool label.
    assert v["tolerations"] == [
        {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    ]
    terms = v["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert terms["nodeSelectorTerms"] == [
        {
            "matchExpressions": [
                {"key": GPU_PRESENT_LABEL, "operator": "In", "values": ["true"]},
                {"key": DEVICE_PLUGIN_CONFIG_LABEL, "operator": "Exists"},
            ]
        },
        {"matchExpressions": [{"key": POOL_LABEL, "operator": "In", "values": ["a10mps"]}]},
    ]
    # aliyun.com/gpu-mem is not declared (the exporter cannot attribute it), and no per-pod
    # series: the only shared GPUs are ACK's, whose pods it cannot name.
    assert v["extraEnv"] == []
    assert result.outputs["resourceNames"] == ["nvidia.com/gpu"]


def test_namespace_denies_all_and_lets_in_only_the_scrapers() -> None:
    result = exporter(scrape="serviceMonitor", scraper_namespaces=["monitoring"])
    namespace = one(result, "kubernetes:core/v1:Namespace").inputs["metadata"]
    assert namespace["name"] == "gpu-metrics"
    assert namespace["labels"]["pod-security.kubernetes.io/enforce"] == "privileged"
    policies = {p.inputs["metadata"]["name"]: p.inputs["spec"] for p in by_type(result, POLICY)}
    assert policies["default-deny-all"] == {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}
    assert policies["allow-scrape"] == {
        "podSelector": {"matchLabels": {"app.kubernetes.io/name": "dcgm-exporter"}},
        "policyTypes": ["Ingress"],
        "ingress": [
            {
                "from": [
                    {
                        "namespaceSelector": {
                            "matchLabels": {"kubernetes.io/metadata.name": "monitoring"}
                        }
                    }
                ],
                "ports": [{"protocol": "TCP", "port": 9400}],
            }
        ],
    }
    assert all(p.inputs["metadata"]["namespace"] == "gpu-metrics" for p in by_type(result, POLICY))


def test_no_scraper_no_allowance() -> None:
    names = [p.inputs["metadata"]["name"] for p in by_type(exporter(), POLICY)]
    assert names == ["default-deny-all"]


def test_annotations_scrape_needs_no_crd() -> None:
    result = exporter()
    v = values(result)
    assert v["serviceMonitor"] == {"enabled": False}
    assert v["podAnnotations"] == {
        "prometheus.io/scrape": "true",
        "prometheus.io/port": "9400",
        "prometheus.io/path": "/metrics",
    }
    assert by_type(result, "kubernetes:azmonitoring.coreos.com/v1:PodMonitor") == []
    assert by_type(result, "kubernetes:monitoring.coreos.com/v1:PrometheusRule") == []


def test_azure_monitor_reads_a_pod_monitor_of_its_own_group_from_kube_system() -> None:
    result = exporter(scrape="azureMonitor")
    monitor = one(result, "kubernetes:azmonitoring.coreos.com/v1:PodMonitor").inputs
    assert monitor["metadata"] == {"name": "dcgm-exporter-podmonitor", "namespace": "gpu-metrics"}
    assert monitor["spec"] == KEEPS_POD_ATTRIBUTION
    assert values(result)["serviceMonitor"] == {"enabled": False}
    allow = [p for p in by_type(result, POLICY) if p.inputs["metadata"]["name"] == "allow-scrape"]
    peers = allow[0].inputs["spec"]["ingress"][0]["from"]
    assert peers == [
        {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}}}
    ]


def test_ack_managed_prometheus_discovers_a_marked_operator_pod_monitor() -> None:
    result = exporter(scrape="armsPrometheus")
    monitor = one(result, "kubernetes:monitoring.coreos.com/v1:PodMonitor").inputs
    assert monitor["metadata"] == {
        "name": "dcgm-exporter-podmonitor",
        "namespace": "gpu-metrics",
        "annotations": {"arms.prometheus.io/discovery": "true"},
    }
    assert monitor["spec"] == KEEPS_POD_ATTRIBUTION
    v = values(result)
    # No annotations: ARMS' default pod discovery would scrape the exporter a second time.
    assert v["serviceMonitor"] == {"enabled": False}
    assert v["podAnnotations"] == {}
    assert by_type(result, "kubernetes:monitoring.coreos.com/v1:PrometheusRule") == []
    allow = [p for p in by_type(result, POLICY) if p.inputs["metadata"]["name"] == "allow-scrape"]
    peers = allow[0].inputs["spec"]["ingress"][0]["from"]
    assert peers == [
        {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "arms-prom"}}}
    ]


def test_prometheus_operator_gets_a_service_monitor_and_the_rules() -> None:
    result = exporter(scrape="serviceMonitor", prometheus_rules=True)
    assert values(result)["serviceMonitor"] == {
        "enabled": True,
        "honorLabels": True,
        "relabelings": [{"action": "labeldrop", "regex": "namespace|pod|container"}],
    }
    rules = one(result, "kubernetes:monitoring.coreos.com/v1:PrometheusRule").inputs
    groups = [g["name"] for g in rules["spec"]["groups"]]
    assert groups == [
        "gpu-platform-gpu-usage",
        "gpu-platform-gpu-health",
        "gpu-platform-gpu-capacity",
    ]


def test_user_values_merge_over_ours() -> None:
    v = values(
        exporter(values={"resources": {"limits": {"memory": "1Gi"}}, "priorityClassName": "x"})
    )
    assert v["resources"] == {"limits": {"memory": "1Gi"}}
    assert v["priorityClassName"] == "x"
    assert v["tolerations"]  # ours stay


def test_bad_args_name_every_property_and_register_nothing() -> None:
    errors: list[pulumi.InputPropertiesError] = []

    def program() -> None:
        try:
            DcgmExporter(
                "metrics",
                {
                    "pools": [
                        {"name": "x", "machine_type": "Standard_Nope", "count": 1},
                        {"name": "y"},
                    ],
                    "scrape": "carrier-pigeon",
                    "version": "3.9.0",
                    "values": {"tolerationz": []},
                },
            )
        except pulumi.InputPropertiesError as err:
            errors.append(err)

    result = run(program)
    assert result.resources == []
    assert [e["property_path"] for e in errors[0].errors] == [
        "pools[0].machineType",
        "pools[1].gpu",  # nothing says what the nodes have
        "pools[1]",  # no size
        "scrape",
        "version",
        "values.tolerationz",
    ]


def test_every_value_we_set_is_a_chart_key() -> None:
    for scrape in ("annotations", "serviceMonitor", "azureMonitor"):
        assert unknown_value_paths(values(exporter(scrape=scrape)), KNOWN_VALUE_PATHS) == []


def test_every_known_value_path_is_in_the_charts_values_yaml() -> None:
    upstream = yaml.safe_load((reference(CHART) / "values.yaml").read_text())
    for path in sorted(KNOWN_VALUE_PATHS):
        node: Any = upstream
        for key in path.split("."):
            assert isinstance(node, dict) and key in node, (
                f"{path} is not in the chart's values.yaml"
            )
            node = node[key]


def test_mig_and_time_sliced_pools_map_onto_the_exporter() -> None:
    platform = load_platform(platforms.aks_mig_and_time_slicing())
    pools = [gpu_pool_args(pf) for pf in platform.pools.values()]
    result = run(lambda: DcgmExporter("metrics", {"pools": pools, "cloud": "aks"}))
    env = {e["name"]: e["value"] for e in values(result)["extraEnv"]}
    assert env["NVIDIA_RESOURCE_NAMES"] == "nvidia.com/gpu.shared"


def test_the_analyzer_infers_a_schema() -> None:
    result = Analyzer("gpu-platform").analyze([DcgmExporter])
    component = result["component_definitions"]["DcgmExporter"]
    assert set(component.inputs) == {
        "pools",
        "cloud",
        "version",
        "namespace",
        "scrape",
        "scraperNamespaces",
        "prometheusRules",
        "values",
    }
    assert all(p.description for p in component.inputs.values())
    assert all(
        p.description for t in result["type_definitions"].values() for p in t.properties.values()
    )


@pytest.mark.parametrize(
    "scrape", ["annotations", "serviceMonitor", "azureMonitor", "armsPrometheus"]
)
def test_children_are_named_after_and_parented_to_the_component(scrape: str) -> None:
    result = exporter(scrape=scrape, prometheus_rules=True, scraper_namespaces=["monitoring"])
    component = one(result, "gpu-platform:index:DcgmExporter")
    for child in result.resources:
        if child is not component:
            assert child.name.startswith("metrics-")
            assert child.parent == component.urn
