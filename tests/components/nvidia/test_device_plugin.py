"""NvidiaDevicePlugin, NvidiaGpuOperator and GpuPlatform._gpu_layer on the mock engine."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest
import yaml

from gpu_facts.nvidia.device_plugin_chart import (
    CHART_NAME,
    CHART_REPO,
    GFD_CHART_NAME,
    GPU_OPERATOR_CHART_NAME,
    GPU_OPERATOR_CHART_REPO,
    GPU_OPERATOR_KNOWN_VALUE_PATHS,
    KNOWN_VALUE_PATHS,
    MPS_NEEDS_VERSION,
    unknown_value_paths,
)
from gpu_platform.components.nvidia.device_plugin import (
    DevicePluginValuesError,
    NvidiaDevicePlugin,
    chart_values,
    merge_values,
)
from gpu_platform.components.nvidia.gpu_operator import (
    GpuOperatorValuesError,
    NvidiaGpuOperator,
    operator_values,
)
from gpu_platform.components.platform import GpuPlatform
from gpu_platform.offline_preview import ProgramRun, run_policies
from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor
from gpu_platform.plan.nvidia.device_plugin import DEFAULT_CONFIG_NAME
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.settings import DevicePluginSettings
from gpu_platform.stack_config import ConfigError, load_platform
from gpu_policies.registry import policies
from tests.components import platforms
from tests.components.incluster_args import operator_args, plugin_args, pools_args
from tests.components.input_errors import paths
from tests.conftest import by_type, one, run

RELEASE = "kubernetes:helm.sh/v3:Release"
NAMESPACE = "kubernetes:core/v1:Namespace"
PLUGIN = "gpu-platform:index:NvidiaDevicePlugin"
OPERATOR = "gpu-platform:index:NvidiaGpuOperator"
CHECK = "gpu-platform:index:DriverCheck"

GPU_TOLERATIONS = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
NFD_TOLERATIONS = [
    {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"}
]
GPU_AFFINITY = {
    "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [
                {
                    "matchExpressions": [
                        {"key": "nvidia.com/gpu.present", "operator": "In", "values": ["true"]},
                        {"key": "nvidia.com/device-plugin.config", "operator": "Exists"},
                    ]
                }
            ]
        }
    }
}
SYSTEM_TOLERATIONS = [{"key": "CriticalAddonsOnly", "operator": "Exists"}]
# NFD's pods run under the container runtime's default seccomp profile (the chart sets none).
RUNTIME_DEFAULT = {"seccompProfile": {"type": "RuntimeDefault"}}
# The defaults of DevicePluginSettings.resources: small requests; NFD's are its chart's own.
PLUGIN_RESOURCES = {"requests": {"cpu": "50m", "memory": "64Mi"}}
NFD_RESOURCES = {
    "master": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "4Gi"}},
    "worker": {"requests": {"cpu": "5m", "memory": "64Mi"}, "limits": {"memory": "512Mi"}},
    "gc": {"requests": {"cpu": "10m", "memory": "128Mi"}, "limits": {"memory": "1Gi"}},
}


platform = platforms.loaded  # the default platform of these tests, changed by a mutation


def mixed_pools() -> ResolvedPlatform:
    """MIG single, MIG mixed, time-slicing, MPS and a plain pool under one release."""
    return load_platform(
        {
            "cloud": "existing",
            "cluster": {"name": "lab"},
            "gpuPools": [
                {
                    "name": "migsingle",
                    "vmSize": "Standard_ND96asr_v4",
                    "count": 1,
                    "mig": {"profile": "MIG1g", "strategy": "single"},
                },
                {
                    "name": "migmixed",
                    "vmSize": "Standard_ND96asr_v4",
                    "count": 1,
                    "mig": {"profile": "MIG3g", "strategy": "mixed"},
                },
                {
                    "name": "sliced",
                    "vmSize": "Standard_NC4as_T4_v3",
                    "count": 2,
                    "sharing": {"mode": "timeSlicing", "replicas": 4},
                },
                {
                    "name": "mps",
                    "vmSize": "Standard_NC4as_T4_v3",
                    "count": 2,
                    "sharing": {"mode": "mps", "replicas": 2},
                },
                {"name": "plain", "vmSize": "Standard_NC4as_T4_v3", "count": 1},
            ],
        }
    )


def plugin_run(p: ResolvedPlatform, **fields: Any) -> ProgramRun:
    return run(lambda: NvidiaDevicePlugin("dp", plugin_args(p, **fields)))


def test_release_chart_version_repo_namespace() -> None:
    result = plugin_run(platform())
    release = one(result, RELEASE)
    inputs = release.inputs
    assert inputs["chart"] == CHART_NAME == "nvidia-device-plugin"
    assert inputs["version"] == "0.20.0"
    assert inputs["repositoryOpts"] == {"repo": CHART_REPO}
    assert CHART_REPO == "https://nvidia.github.io/k8s-device-plugin"
    assert inputs["namespace"] == "nvidia-device-plugin"
    assert inputs["name"] == "nvidia-device-plugin"
    assert inputs["createNamespace"] is False
    namespace = one(result, NAMESPACE)
    assert namespace.inputs["metadata"]["name"] == "nvidia-device-plugin"
    assert namespace.inputs["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == (
        "privileged"
    )
    component = one(result, PLUGIN)
    assert release.parent == namespace.parent == component.urn
    assert namespace.urn in release.dependencies


def test_release_values_hold_plugin_gfd_and_nfd_to_gpu_nodes() -> None:
    values = one(plugin_run(platform()), RELEASE).inputs["values"]
    assert values["tolerations"] == GPU_TOLERATIONS
    assert values["affinity"] == GPU_AFFINITY
    assert values["priorityClassName"] == "system-node-critical"
    assert values["gfd"] == {"enabled": True}
    assert values["nfd"] == {
        "worker": {
            "tolerations": NFD_TOLERATIONS,
            "nodeSelector": {"nvidia.com/gpu.present": "true"},
            "affinity": GPU_AFFINITY,
            "resources": NFD_RESOURCES["worker"],
            "podSecurityContext": RUNTIME_DEFAULT,
        },
        # The NFD master and gc Deployments run on (CriticalAddonsOnly-tainted) system nodes.
        "master": {
            "tolerations": SYSTEM_TOLERATIONS,
            "resources": NFD_RESOURCES["master"],
            "podSecurityContext": RUNTIME_DEFAULT,
        },
        "gc": {
            "tolerations": SYSTEM_TOLERATIONS,
            "resources": NFD_RESOURCES["gc"],
            "podSecurityContext": RUNTIME_DEFAULT,
        },
    }
    assert values["resources"] == PLUGIN_RESOURCES
    # The chart's CriticalAddonsOnly toleration would let the plugin onto system nodes.
    assert all(t["key"] != "CriticalAddonsOnly" for t in values["tolerations"])
    # A global migStrategy would override every per-pool config (it becomes an env var).
    assert "migStrategy" not in values
    assert set(values) == {
        "config",
        "gfd",
        "affinity",
        "tolerations",
        "priorityClassName",
        "resources",
        "nfd",
    }


def test_per_pool_configs_for_mig_single_mixed_time_slicing_and_mps() -> None:
    p = mixed_pools()
    values = one(plugin_run(p), RELEASE).inputs["values"]
    assert values["config"]["default"] == DEFAULT_CONFIG_NAME
    configs = {name: yaml.safe_load(text) for name, text in values["config"]["map"].items()}
    assert configs == {
        DEFAULT_CONFIG_NAME: {"version": "v1", "flags": {"migStrategy": "none"}},
        "migsingle": {"version": "v1", "flags": {"migStrategy": "single"}},
        "migmixed": {"version": "v1", "flags": {"migStrategy": "mixed"}},
        "sliced": {
            "version": "v1",
            "flags": {"migStrategy": "none"},
            "sharing": {
                "timeSlicing": {
                    "renameByDefault": True,
                    "failRequestsGreaterThanOne": True,
                    "resources": [{"name": "nvidia.com/gpu", "replicas": 4}],
                }
            },
        },
        "mps": {
            "version": "v1",
            "flags": {"migStrategy": "none"},
            "sharing": {
                "mps": {
                    "renameByDefault": True,
                    "failRequestsGreaterThanOne": True,
                    "resources": [{"name": "nvidia.com/gpu", "replicas": 2}],
                }
            },
        },
        "plain": {"version": "v1", "flags": {"migStrategy": "none"}},
    }


def test_gfd_follows_config() -> None:
    values = one(plugin_run(platform(), gfd=False), RELEASE).inputs["values"]
    assert values["gfd"] == {"enabled": False}


def test_every_generated_value_key_is_a_known_chart_key() -> None:
    for p in (platform(), mixed_pools(), platform(platforms.aks_mig_and_time_slicing())):
        values = one(plugin_run(p), RELEASE).inputs["values"]
        assert unknown_value_paths(values) == []
    for p in (platform(), platform(platforms.aks_mig_and_time_slicing())):
        values = operator_values(list(p.pools.values()))
        assert unknown_value_paths(values, GPU_OPERATOR_KNOWN_VALUE_PATHS) == []


@pytest.mark.parametrize(
    ("values", "unknown"),
    [
        ({"toleration": []}, ["toleration"]),
        ({"gfd": {"enable": True}}, ["gfd.enable"]),
        ({"nfd": {"worker": {"nodeselector": {}}}}, ["nfd.worker.nodeselector"]),
        ({"migStrategy": "mixed"}, ["migStrategy"]),
        ({"config": {"map": {"anything": "x"}}, "resources": {"limits": {"cpu": 1}}}, []),
    ],
)
def test_key_walker_flags_typos_and_leaves_opaque_values_alone(
    values: dict[str, Any], unknown: list[str]
) -> None:
    assert unknown_value_paths(values) == unknown


def test_known_paths_have_their_parents() -> None:
    for known in (KNOWN_VALUE_PATHS, GPU_OPERATOR_KNOWN_VALUE_PATHS):
        for path in known:
            parent = path.rpartition(".")[0]
            assert not parent or parent in known, path


def test_user_values_merge_over_ours() -> None:
    user = {
        "resources": {"requests": {"cpu": "80m"}},
        "tolerations": [{"key": "dedicated", "operator": "Exists"}],
        "nfd": {"worker": {"nodeSelector": {"gpu": "yes"}}},
    }
    values = one(plugin_run(platform(), values=user), RELEASE).inputs["values"]
    # Over devicePlugin.resources too: the values are the last word, key by key.
    assert values["resources"] == {"requests": {"cpu": "80m", "memory": "64Mi"}}
    assert values["tolerations"] == [{"key": "dedicated", "operator": "Exists"}]  # lists replace
    # Maps merge like Helm's: a user selector adds to ours, it cannot drop the GPU label.
    assert values["nfd"]["worker"] == {
        "tolerations": NFD_TOLERATIONS,
        "nodeSelector": {"nvidia.com/gpu.present": "true", "gpu": "yes"},
        "affinity": GPU_AFFINITY,
        "resources": NFD_RESOURCES["worker"],
        "podSecurityContext": RUNTIME_DEFAULT,
    }
    assert values["priorityClassName"] == "system-node-critical"


def test_merge_is_helm_like() -> None:
    assert merge_values({"a": {"b": 1, "c": [1]}}, {"a": {"c": [2]}, "d": 3}) == {
        "a": {"b": 1, "c": [2]},
        "d": 3,
    }


def test_unknown_user_value_is_refused_before_anything_registers() -> None:
    p = platform()
    settings = DevicePluginSettings(values={"tolerations": [], "gfd": {"enabeld": True}})
    with pytest.raises(DevicePluginValuesError, match=r"unknown chart keys gfd\.enabeld"):
        chart_values(settings, list(p.pools.values()))
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(
            lambda: NvidiaDevicePlugin("dp", plugin_args(p, values=settings.values)),
            monitor=monitor,
        )
    assert paths(err.value) == ["values.gfd.enabeld"]
    assert monitor.recorded == []


@pytest.mark.parametrize(
    "values",
    [{"config": {"default": "nope"}}, {"config": "cm"}, {"config": {"map": "cm"}}],
)
def test_user_values_must_keep_a_named_default_config(values: dict[str, Any]) -> None:
    with pytest.raises(DevicePluginValuesError, match=r"config\.default naming one of them"):
        chart_values(DevicePluginSettings(values=values), list(platform().pools.values()))


def test_config_rule_refuses_unknown_chart_values() -> None:
    def typo(raw: dict[str, Any]) -> None:
        raw["devicePlugin"] = {"values": {"tolerations": [], "priorityclassname": "x"}}

    with pytest.raises(ConfigError) as err:
        platform(mutate=typo)
    assert [path for path, _ in err.value.problems] == ["devicePlugin.values.priorityclassname"]


# --- GPU Operator --------------------------------------------------------------------------


def operator_platform(mutate: Any = None) -> ResolvedPlatform:
    def with_operator(raw: dict[str, Any]) -> None:
        raw["devicePlugin"] = {"enabled": False}
        raw["gpuOperator"] = {"enabled": True}
        if mutate is not None:
            mutate(raw)

    return platform(mutate=with_operator)


def test_gpu_operator_release() -> None:
    p = operator_platform()
    result = run(lambda: NvidiaGpuOperator("op", operator_args(p)))
    release = one(result, RELEASE)
    assert release.inputs["chart"] == GPU_OPERATOR_CHART_NAME
    assert release.inputs["repositoryOpts"] == {"repo": GPU_OPERATOR_CHART_REPO}
    assert release.inputs["version"] == "v25.10.1"
    assert release.inputs["namespace"] == "gpu-operator"
    values = release.inputs["values"]
    assert values["driver"] == {"enabled": True}
    assert values["mig"] == {"strategy": "mixed"}  # the existing A100 pool is mixed
    assert values["migManager"] == {"enabled": False}
    assert values["daemonsets"] == {
        "tolerations": GPU_TOLERATIONS,
        "priorityClassName": "system-node-critical",
    }
    assert values["node-feature-discovery"] == {
        "worker": {
            "tolerations": NFD_TOLERATIONS,
            "resources": NFD_RESOURCES["worker"],
            "podSecurityContext": RUNTIME_DEFAULT,
        },
        "master": {
            "tolerations": SYSTEM_TOLERATIONS,
            "resources": NFD_RESOURCES["master"],
            "podSecurityContext": RUNTIME_DEFAULT,
        },
        "gc": {
            "tolerations": SYSTEM_TOLERATIONS,
            "resources": NFD_RESOURCES["gc"],
            "podSecurityContext": RUNTIME_DEFAULT,
        },
    }
    assert values["devicePlugin"]["resources"] == values["gfd"]["resources"] == PLUGIN_RESOURCES
    # AKS taints every non-GPU node: the operator Deployment needs the system pool.
    assert values["operator"] == {"tolerations": SYSTEM_TOLERATIONS}
    # Its dcgm-exporter attributes the time-sliced T4s to pods too; the chart's own variables
    # stay, since a list in our values replaces the chart's.
    assert values["dcgmExporter"] == {
        "env": [
            {"name": "DCGM_EXPORTER_LISTEN", "value": ":9400"},
            {"name": "DCGM_EXPORTER_KUBERNETES", "value": "true"},
            {
                "name": "DCGM_EXPORTER_COLLECTORS",
                "value": "/etc/dcgm-exporter/dcp-metrics-included.csv",
            },
            {"name": "NVIDIA_RESOURCE_NAMES", "value": "nvidia.com/gpu.shared"},
            {"name": "KUBERNETES_VIRTUAL_GPUS", "value": "true"},
        ]
    }
    plugin_config = values["devicePlugin"]["config"]
    assert plugin_config["create"] is True
    assert plugin_config["default"] == DEFAULT_CONFIG_NAME
    assert set(plugin_config["data"]) == {DEFAULT_CONFIG_NAME, "a100", "t4"}
    assert one(result, NAMESPACE).inputs["metadata"]["labels"] == {
        "pod-security.kubernetes.io/enforce": "privileged",
        "app.kubernetes.io/part-of": "gpu-platform",
    }


def test_gpu_operator_needs_one_mig_strategy() -> None:
    p = mixed_pools()
    with pytest.raises(GpuOperatorValuesError, match="one MIG strategy"):
        operator_values(list(p.pools.values()))

    def two_strategies(raw: dict[str, Any]) -> None:
        raw["gpuPools"].append(
            {
                "name": "single",
                "vmSize": "Standard_ND96asr_v4",
                "count": 1,
                "mig": {"profile": "MIG1g", "strategy": "single"},
            }
        )

    with pytest.raises(ConfigError, match="one MIG strategy"):
        operator_platform(two_strategies)


# --- GpuPlatform._gpu_layer ----------------------------------------------------------------


def platform_run(p: ResolvedPlatform) -> ProgramRun:
    def program() -> None:
        plat = GpuPlatform("existing", p)
        pulumi.export("sharedGpuWarnings", plat.shared_gpu_warnings)

    return run(program)


def test_platform_installs_one_plugin_release_and_checks_after_it() -> None:
    result = platform_run(platform())
    # One device-plugin release (and the GPU metrics exporter's, a chart of its own).
    charts = [r.inputs["chart"] for r in by_type(result, RELEASE)]
    assert sorted(charts) == sorted([CHART_NAME, "dcgm-exporter"])
    releases = [r for r in by_type(result, RELEASE) if r.inputs["chart"] == CHART_NAME]
    assert GFD_CHART_NAME not in charts
    assert by_type(result, OPERATOR) == []
    plugin, check = one(result, PLUGIN), one(result, CHECK)
    # Depending on a component means depending on its children: the checks wait for the release.
    assert releases[0].urn in check.dependencies
    gpu_platform = one(result, "gpu-platform:index:GpuPlatform")
    assert plugin.parent == check.parent == gpu_platform.urn
    # In-cluster resources go through the existing cluster's provider.
    assert "existing-cluster-k8s" in releases[0].provider
    warnings = result.outputs["sharedGpuWarnings"]
    assert set(warnings) == {"t4"}
    assert "gpu-inference" in warnings["t4"]


def test_platform_with_gpu_operator_installs_no_plugin() -> None:
    result = platform_run(operator_platform())
    assert [r.inputs["chart"] for r in by_type(result, RELEASE)] == [GPU_OPERATOR_CHART_NAME]
    assert by_type(result, PLUGIN) == []
    assert one(result, RELEASE).urn in one(result, CHECK).dependencies


def test_platform_with_gpu_operator_passes_the_exporter_policies() -> None:
    """The operator's exporter is the platform's: it must know the T4 pool's shared name."""
    found = run_policies(platform_run(operator_platform()).resources, policies())
    assert [(v.policy, v.message) for v in found] == []


def test_platform_without_plugin_or_operator() -> None:
    def off(raw: dict[str, Any]) -> None:
        raw["devicePlugin"] = {"enabled": False}

    result = platform_run(platform(mutate=off))
    # No plugin release; the GPU metrics exporter still watches the nodes.
    assert [r.inputs["chart"] for r in by_type(result, RELEASE)] == ["dcgm-exporter"]
    assert len(by_type(result, CHECK)) == 1


def test_platform_registers_its_cluster_outputs() -> None:
    monitor = RecordingMonitor(PreviewMocks())
    result = run(
        lambda: GpuPlatform("ack", platform(platforms.ack_mps_and_whole_gpus())), monitor=monitor
    )
    component = one(result, "gpu-platform:index:GpuPlatform")
    outputs = monitor.registered_outputs[component.urn]
    assert set(outputs["clusterOutputs"]) == {
        "clusterId",
        "vpcId",
        "rrsaOidcIssuerUrl",
        "gpuPools",
        "cpuPools",
        "ackGpuSharing",
        # Observability (on by default): ACK's managed Prometheus and the SLS logs.
        "prometheusQueryEndpoint",
        "prometheusAlertRules",
        "logProject",
        "logstores",
    }
    assert set(outputs["clusterOutputs"]["gpuPools"]) == {"a10mps", "t4"}
    assert set(outputs["clusterOutputs"]["cpuPools"]) == {"general"}
    assert "cluster_outputs" in GpuPlatform.__annotations__  # declared, documented


def test_ack_platform_serves_only_plugin_pools() -> None:
    result = run(lambda: GpuPlatform("ack", platform(platforms.ack_mps_and_whole_gpus())))
    (release,) = [r for r in by_type(result, RELEASE) if r.inputs["chart"] == CHART_NAME]
    assert set(release.inputs["values"]["config"]["map"]) == {DEFAULT_CONFIG_NAME, "t4"}


def test_ack_platform_with_only_ack_shared_pools_installs_no_plugin() -> None:
    def only_mps(raw: dict[str, Any]) -> None:
        raw["gpuPools"] = [p for p in raw["gpuPools"] if p["name"] == "a10mps"]
        raw["gpuPools"][0]["autoscale"]["min"] = 1  # always a node: it gets its check Job
        raw["workloads"] = [w for w in raw["workloads"] if w["pools"] == ["a10mps"]]

    result = run(lambda: GpuPlatform("ack", platform(platforms.ack_mps_and_whole_gpus(), only_mps)))
    assert [r for r in by_type(result, RELEASE) if r.inputs["chart"] == CHART_NAME] == []
    assert by_type(result, PLUGIN) == []
    # The MPS pool is still checked, from its own namespace (docs/device-plugin.md).
    assert len(by_type(result, CHECK)) == 1
    jobs = by_type(result, "kubernetes:batch/v1:Job")
    assert [job.inputs["metadata"]["namespace"] for job in jobs] == ["gpu-readiness-mps"]


@pytest.mark.parametrize(
    ("extra", "path"),
    [
        ({"driverCheck": {"namespace": "nvidia-device-plugin"}}, "driverCheck.namespace"),
        ({"devicePlugin": {"namespace": "gpu-training"}}, "devicePlugin.namespace"),
        ({"driverCheck": {"namespace": "gpu-inference"}}, "driverCheck.namespace"),
    ],
)
def test_gpu_layer_namespaces_are_its_own(extra: dict[str, Any], path: str) -> None:
    with pytest.raises(ConfigError) as err:
        platform(mutate=lambda raw: raw.update(extra))
    assert [p for p, _ in err.value.problems] == [path]


@pytest.mark.parametrize(
    ("version", "message"), [("0.14.5", "older than 0.15.0"), ("latest", "not a version")]
)
def test_component_refuses_an_old_or_bad_chart_version(version: str, message: str) -> None:
    p = platform()
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError, match=message) as err:
        run(lambda: NvidiaDevicePlugin("dp", plugin_args(p, version=version)), monitor=monitor)
    assert paths(err.value) == ["version"]
    assert monitor.recorded == []


# --- bad args: one InputPropertiesError naming every bad property, nothing registered -----


def test_bad_plugin_args_name_every_bad_property() -> None:
    p = platform()
    pools = pools_args(p)
    pools[0] = {**pools[0], "mig": {"profile": "MIG9g"}}
    pools[1] = {**pools[1], "count": -1}
    args = plugin_args(p, namespace="Not_A_Label", gfd="yes", values={"nfd": {"wrker": {}}})
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: NvidiaDevicePlugin("dp", {**args, "pools": pools}), monitor=monitor)
    assert paths(err.value) == [
        "pools[0].mig.profile",
        "pools[1].count",
        "gfd",
        "namespace",
        "values.nfd.wrker",
    ]
    assert monitor.recorded == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"cloud": "gcp"}, ["cloud"]),
        ({"settings": {}}, ["settings"]),  # the old shape: refused, not ignored
        ({"values": {"config": {"default": "nope"}}}, ["values.config.default"]),
    ],
)
def test_bad_plugin_args(change: dict[str, Any], expected: list[str]) -> None:
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(
            lambda: NvidiaDevicePlugin("dp", {**plugin_args(platform()), **change}), monitor=monitor
        )  # type: ignore[typeddict-item]
    assert paths(err.value) == expected
    assert monitor.recorded == []


def test_plugin_args_need_pools() -> None:
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: NvidiaDevicePlugin("dp", {}))  # type: ignore[typeddict-item]
    assert paths(err.value) == ["pools"]


def test_duplicate_pool_names_are_refused() -> None:
    pools = pools_args(platform())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: NvidiaDevicePlugin("dp", {"pools": [pools[0], pools[0]]}))
    assert paths(err.value) == ["pools[1].name"]


def test_plugin_defaults_from_pools_alone() -> None:
    """Pools are the one required arg: chart version, GFD and namespace have defaults."""
    release = one(run(lambda: NvidiaDevicePlugin("dp", {"pools": pools_args(platform())})), RELEASE)
    assert release.inputs["version"] == DevicePluginSettings().version
    assert release.inputs["namespace"] == DevicePluginSettings().namespace
    assert release.inputs["values"]["gfd"] == {"enabled": True}


def test_operator_args_with_two_mig_strategies_are_refused() -> None:
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError, match="one MIG strategy") as err:
        run(
            lambda: NvidiaGpuOperator("op", {"pools": pools_args(mixed_pools()), "version": ""}),
            monitor=monitor,
        )
    assert paths(err.value) == ["pools"]
    assert monitor.recorded == []


def test_bad_operator_args_name_every_bad_property() -> None:
    pools = pools_args(operator_platform())
    pools[0] = {**pools[0], "vm_size": "Standard_D2s_v3"}
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(
            lambda: NvidiaGpuOperator("op", {"pools": pools, "namespace": "-bad", "extra": 1}),  # type: ignore[typeddict-unknown-key]
            monitor=monitor,
        )
    assert paths(err.value) == ["extra"]
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: NvidiaGpuOperator("op", {"pools": pools, "namespace": "-bad"}), monitor=monitor)
    assert paths(err.value) == ["pools[0].vmSize", "namespace"]
    assert monitor.recorded == []


def test_resources_come_from_settings_and_reach_both_charts() -> None:
    def sized(raw: dict[str, Any]) -> None:
        raw["devicePlugin"] = {
            "resources": {
                "plugin": {"cpu": "20m", "memory": "40Mi", "memoryLimit": "200Mi"},
                "nfdWorker": {"cpu": "10m", "memory": "32Mi"},
            }
        }

    p = platform(mutate=sized)
    values = one(plugin_run(p), RELEASE).inputs["values"]
    assert values["resources"] == {
        "requests": {"cpu": "20m", "memory": "40Mi"},
        "limits": {"memory": "200Mi"},
    }
    # A memory limit is set only when asked for; the others keep their defaults.
    assert values["nfd"]["worker"]["resources"] == {"requests": {"cpu": "10m", "memory": "32Mi"}}
    assert values["nfd"]["master"]["resources"] == NFD_RESOURCES["master"]
    operator = operator_values(
        list(p.pools.values()),
        DevicePluginSettings.model_validate(
            {"resources": {"plugin": {"cpu": "20m", "memory": "40Mi"}}}
        ).resources,
    )
    assert operator["gfd"]["resources"] == {"requests": {"cpu": "20m", "memory": "40Mi"}}


def test_a_memory_limit_below_the_request_is_refused() -> None:
    def bad(raw: dict[str, Any]) -> None:
        raw["devicePlugin"] = {
            "resources": {"nfdGc": {"cpu": "1", "memory": "1Gi", "memoryLimit": "1G"}}
        }

    with pytest.raises(
        ConfigError, match=r"devicePlugin\.resources\.nfdGc.*memoryLimit 1G is below"
    ):
        platform(mutate=bad)
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(
            lambda: NvidiaDevicePlugin(
                "dp",
                plugin_args(platform(), resources={"plugin": {"cpu": "x", "memory": "64Mi"}}),
            )
        )
    assert paths(err.value) == ["resources.plugin.cpu"]


def test_mps_on_a_chart_that_cannot_serve_it_is_refused_with_the_plans_message() -> None:
    def mps(raw: dict[str, Any]) -> None:
        raw["gpuPools"][1]["sharing"] = {"mode": "mps", "replicas": 2}

    args = plugin_args(platform(mutate=mps), version="0.15.0")
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: NvidiaDevicePlugin("dp", args))
    # plan.nvidia.device_plugin_values.mps_version_problems: the stack config's words too.
    assert [(e["property_path"], e["reason"]) for e in err.value.errors] == [
        ("version", MPS_NEEDS_VERSION)
    ]
