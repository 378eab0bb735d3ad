"""The ack-dev stack and the MPS example Job, end to end on the mock engine with the policy pack."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpu_facts.scheduling import MPS_HOST_IPC_LABEL, MPS_HOST_IPC_REQUIRED
from gpu_platform.offline_preview import PreviewResult, Secret, preview
from gpu_platform.offline_preview.cli import EXIT_OK
from gpu_platform.offline_preview.engine import RecordedResource
from gpu_platform.offline_preview.graph import downstream, waits_for
from gpu_platform.offline_preview.render import as_document
from gpu_platform.stack_config import ConfigError
from gpu_policy_support.node_placement import node_placement
from gpu_policy_support.node_pools import node_pools
from gpu_policy_support.tolerations import may_schedule
from tests.components.ack.test_monitoring import T4_AND_MPS_ALERTS
from tests.conftest import ROOT, stack_preview

pytestmark = pytest.mark.slow

EXAMPLE = ROOT / "examples" / "ack-mps-job"


@pytest.fixture
def ack_dev() -> PreviewResult:
    return stack_preview("ack-dev")


def of_type(result: PreviewResult, type_: str) -> list[RecordedResource]:
    return [r for r in result.run.resources if r.type == type_]


def test_ack_dev_preview_has_no_mandatory_violation(ack_dev: PreviewResult) -> None:
    mandatory = [v for v in ack_dev.violations if v.enforcement == "mandatory"]
    assert mandatory == []
    assert ack_dev.exit_code == EXIT_OK


def test_ack_dev_builds_the_ack_pro_cluster_and_pools(ack_dev: PreviewResult) -> None:
    (cluster,) = of_type(ack_dev, "alicloud:cs/managedKubernetes:ManagedKubernetes")
    assert cluster.inputs["clusterSpec"] == "ack.pro.small"
    assert ack_dev.run.outputs["rrsaOidcIssuerUrl"].endswith("/gpu-ack-dev")
    pools = {p.inputs["nodePoolName"]: p for p in of_type(ack_dev, "alicloud:cs/nodePool:NodePool")}
    assert set(pools) == {"system", "a10mps", "t4", "general"}
    mps_labels = {label["key"]: label["value"] for label in pools["a10mps"].inputs["labels"]}
    assert mps_labels["ack.node.gpu.schedule"] == "mps"
    # The NVIDIA device plugin release serves t4; ACK's own plugin is turned off there.
    t4_labels = {label["key"]: label["value"] for label in pools["t4"].inputs["labels"]}
    assert t4_labels["ack.node.gpu.schedule"] == "disabled"
    # Auto-upgrade on: ACK picks the version.
    assert "version" not in cluster.inputs
    assert cluster.inputs["operationPolicy"]["clusterAutoUpgrade"]["enabled"] is True


NODE_POOL = "alicloud:cs/nodePool:NodePool"


def test_a_pod_without_tolerations_lands_on_the_system_and_cpu_pools_only(
    ack_dev: PreviewResult,
) -> None:
    """ACK's system pool is untainted (its add-ons need it); the GPU pools never take the pod."""
    landing = {
        pool.name
        for resource in of_type(ack_dev, NODE_POOL)
        for pool in node_pools(resource.type, resource.name, resource.inputs)
        if may_schedule([], pool.taints)
    }
    assert landing == {"system", "general"}


def test_ack_dev_cpu_pool_autoscales_without_taints_beside_the_gpu_pools(
    ack_dev: PreviewResult,
) -> None:
    pools = {p.inputs["nodePoolName"]: p for p in of_type(ack_dev, NODE_POOL)}
    general = pools["general"].inputs
    assert general["instanceTypes"] == ["ecs.g7.xlarge"]
    assert general["taints"] == []
    assert general["scalingConfig"] == {"enable": True, "minSize": 1, "maxSize": 3, "type": "cpu"}
    assert {label["key"]: label["value"] for label in general["labels"]} == {
        "gpu-platform.io/pool": "general"
    }
    # Every node pool's system disk: ESSD, 120 GiB, as the stack says (unencrypted in dev).
    for name, pool in pools.items():
        disk = {k: pool.inputs.get(k) for k in ("systemDiskCategory", "systemDiskSize")}
        assert disk == {"systemDiskCategory": "cloud_essd", "systemDiskSize": 120}, name
        assert pool.inputs["systemDiskEncrypted"] is False, name
    # The CPU pool waits for the cluster, not for a GPU pool.
    gpu_urns = {pools[n].urn for n in ("a10mps", "t4")} | {
        pools[n].parent for n in ("a10mps", "t4")
    }
    assert not gpu_urns & set(pools["general"].dependencies)
    assert ack_dev.run.outputs["cpuPools"] == {
        "general": {"instanceType": "ecs.g7.xlarge", "minNodes": 1, "maxNodes": 3}
    }


def test_ack_dev_installs_pinned_sharing_components(ack_dev: PreviewResult) -> None:
    releases = {
        r.inputs["chart"]: r
        for r in of_type(ack_dev, "kubernetes:helm.sh/v3:Release")
        if r.inputs["chart"].startswith("ack-")
    }
    assert {c: r.inputs["version"] for c, r in releases.items()} == {
        "ack-ai-installer": "1.8.2",
        "ack-mps-control": "0.2.0",
    }
    assert releases["ack-mps-control"].protect is True
    # In the cluster, through the cluster's own provider, after the cluster is ready.
    (provider,) = of_type(ack_dev, "pulumi:providers:kubernetes")
    assert all(r.provider.startswith(provider.urn) for r in releases.values())


def test_ack_dev_gpu_mem_capacity_outputs(ack_dev: PreviewResult) -> None:
    outputs = ack_dev.run.outputs
    assert outputs["gpuCapacity"]["a10mps"] == {
        "perNode": {"aliyun.com/gpu-mem": 24},
        "nodes": {"min": 0, "max": 2},
        "total": {"aliyun.com/gpu-mem": 48},
    }
    assert outputs["gpuPools"]["a10mps"]["total"] == {"aliyun.com/gpu-mem": 48}
    assert outputs["gpuPools"]["a10mps"]["sharing"] == "ackMps"
    assert outputs["gpuPools"]["t4"]["perNode"] == {"nvidia.com/gpu": 1}
    assert outputs["ackGpuSharing"] == {"ack-ai-installer": "1.8.2", "ack-mps-control": "0.2.0"}


def test_ack_dev_kubeconfig_output_is_secret(ack_dev: PreviewResult) -> None:
    assert isinstance(ack_dev.run.outputs["kubeconfig"], Secret)


def test_only_the_namespace_on_the_mps_pool_gets_the_host_ipc_exception(
    ack_dev: PreviewResult,
) -> None:
    labels = {
        r.inputs["metadata"]["name"]: r.inputs["metadata"].get("labels", {})
        for r in of_type(ack_dev, "kubernetes:core/v1:Namespace")
    }
    assert labels["gpu-training"][MPS_HOST_IPC_LABEL] == MPS_HOST_IPC_REQUIRED
    assert MPS_HOST_IPC_LABEL not in labels["gpu-inference"]


def test_example_job_passes_the_policy_pack() -> None:
    result = preview(EXAMPLE, stack="dev")
    # The job deploys into the platform stack's namespace, which this program does not
    # declare: the pack says it cannot judge that namespace here (advisory), nothing else.
    assert [(v.policy, v.enforcement) for v in result.violations] == [
        ("gpu-namespaces-declared", "advisory")
    ]
    assert "Namespace 'gpu-training' runs GPU workloads ('mps-sample')" in (
        result.violations[0].message
    )
    (job,) = [r for r in result.run.resources if r.type == "kubernetes:batch/v1:Job"]
    pod = job.inputs["spec"]["template"]["spec"]
    assert job.inputs["metadata"]["namespace"] == "gpu-training"
    assert pod["hostIPC"] is True
    assert pod["tolerations"] == [
        {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    ]
    (container,) = pod["containers"]
    assert container["resources"]["limits"]["aliyun.com/gpu-mem"] == "7"
    assert "aliyun.com/gpu-mem" not in container["resources"].get("requests", {})
    assert not container.get("securityContext", {}).get("privileged", False)
    assert all(e.get("name") != "NVIDIA_VISIBLE_DEVICES" for e in container.get("env", []))
    image = container["image"]
    assert ":" in image.rsplit("/", 1)[-1] and not image.endswith(":latest")


def test_example_project_files() -> None:
    project = yaml.safe_load((EXAMPLE / "Pulumi.yaml").read_text())
    assert project["name"] == "ack-mps-job"
    assert project["runtime"]["name"] == "python"
    assert (EXAMPLE / "Pulumi.dev.yaml").exists()


def test_in_cluster_layers_wait_for_no_gpu_pool(ack_dev: PreviewResult) -> None:
    document = as_document(ack_dev.run, ack_dev.violations)
    graph = waits_for(document["resources"])
    gpu_pools = [
        r.urn
        for r in ack_dev.run.resources
        if r.type == "alicloud:cs/nodePool:NodePool" and "-gpu-" in r.name
    ]
    assert len(gpu_pools) == 2
    for pool in gpu_pools:
        # No pool of ack-dev has a check (both scale from zero): nothing waits for a pool.
        assert downstream(graph, pool) == set()
    namespaces = [r for r in ack_dev.run.resources if r.type == "kubernetes:core/v1:Namespace"]
    assert namespaces and not any(set(gpu_pools) & set(r.dependencies) for r in namespaces)


def test_bad_ack_config_is_refused_with_its_key_path(tmp_path: Path) -> None:
    data = yaml.safe_load((ROOT / "Pulumi.ack-dev.yaml").read_text())
    data["config"]["gpu-platform:cluster"]["clusterSpec"] = "ack.standard"
    bad = tmp_path / "Pulumi.bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError, match=r"cluster\.clusterSpec: ACK GPU sharing \('mps'\)"):
        preview(ROOT, stack="bad", config_file=bad)


def test_ack_dev_turns_on_node_autoscaling_for_its_autoscaled_pools(
    ack_dev: PreviewResult,
) -> None:
    (config,) = of_type(ack_dev, "alicloud:cs/autoscalingConfig:AutoscalingConfig")
    assert config.name == "ack-dev-ack-autoscaling"
    assert config.inputs["scaleUpFromZero"] is True
    assert config.parent is not None and config.parent.endswith("AckCluster::ack-dev-ack")
    # The GPU pools join the cluster only once it can scale them.
    gpu_pools = [
        pool
        for pool in of_type(ack_dev, "alicloud:cs/nodePool:NodePool")
        if pool.parent is not None and "AckGpuNodePool" in pool.parent
    ]
    assert len(gpu_pools) == 2
    for pool in gpu_pools:
        assert config.urn in pool.dependencies


def test_ack_dev_deploys_no_driver_check_when_every_gpu_pool_scales_from_zero(
    ack_dev: PreviewResult,
) -> None:
    # A check Job there would wait for a node forever or power one up just to run; make
    # verify reads those drivers when nodes exist (docs/device-plugin.md).
    assert of_type(ack_dev, "gpu-platform:index:DriverCheck") == []
    assert of_type(ack_dev, "kubernetes:batch/v1:Job") == []
    assert of_type(ack_dev, "kubernetes:batch/v1:CronJob") == []


def test_ack_pools_with_nodes_hold_back_only_their_own_checks(tmp_path: Path) -> None:
    data = yaml.safe_load((ROOT / "Pulumi.ack-dev.yaml").read_text())
    for pool in data["config"]["gpu-platform:gpuPools"]:
        pool["autoscale"]["min"] = 1
    config = tmp_path / "Pulumi.on.yaml"
    config.write_text(yaml.safe_dump(data))
    result = preview(ROOT, stack="on", config_file=config)
    document = as_document(result.run, result.violations)
    graph = waits_for(document["resources"])
    names = {r["urn"]: r["name"] for r in document["resources"]}
    gpu_pools = {
        r.name.removeprefix("on-gpu-").removesuffix("-pool"): r.urn
        for r in of_type(result, "alicloud:cs/nodePool:NodePool")
        if r.parent is not None and "AckGpuNodePool" in r.parent
    }
    assert set(gpu_pools) == {"t4", "a10mps"}
    for pool, urn in gpu_pools.items():
        held_back = {names[u] for u in downstream(graph, urn)}
        assert (
            held_back
            == {f"on-driver-check-{pool}", f"on-driver-check-{pool}-cron"} & set(names.values())
            and f"on-driver-check-{pool}" in held_back
        ), pool
    # The MPS pool's check needs ACK's sharing charts, which wait for the cluster only.
    (checks,) = of_type(result, "gpu-platform:index:DriverCheck")
    sharing = {
        r.urn for r in of_type(result, "kubernetes:helm.sh/v3:Release") if "sharing" in r.name
    }
    assert sharing and sharing <= set(checks.dependencies)


ADDON = "alicloud:cs/kubernetesAddon:KubernetesAddon"


def test_ack_dev_sends_gpu_metrics_to_its_managed_prometheus(ack_dev: PreviewResult) -> None:
    """End to end: the add-on, our exporter marked for its agent and reachable from it, the
    exporter waiting for the add-on's CRDs, the GPU alerts as ARMS rules, the query output."""
    addons = {a.inputs["name"]: a for a in of_type(ack_dev, ADDON)}
    prometheus = addons["arms-prometheus"]
    cluster_id = ack_dev.run.outputs["clusterId"]
    assert prometheus.inputs["clusterId"] == cluster_id
    (monitor,) = of_type(ack_dev, "kubernetes:monitoring.coreos.com/v1:PodMonitor")
    assert monitor.inputs["metadata"]["namespace"] == "gpu-metrics"
    assert monitor.inputs["metadata"]["annotations"] == {"arms.prometheus.io/discovery": "true"}
    (exporter,) = of_type(ack_dev, "gpu-platform:index:DcgmExporter")
    assert prometheus.urn in exporter.dependencies
    (allow,) = [
        p
        for p in of_type(ack_dev, "kubernetes:networking.k8s.io/v1:NetworkPolicy")
        if p.inputs["metadata"] == {"name": "allow-scrape", "namespace": "gpu-metrics"}
    ]
    assert allow.inputs["spec"]["ingress"][0]["from"] == [
        {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "arms-prom"}}}
    ]
    # ACK has no azmonitoring group and no PrometheusRule reader: neither is created.
    assert of_type(ack_dev, "kubernetes:azmonitoring.coreos.com/v1:PodMonitor") == []
    assert of_type(ack_dev, "kubernetes:monitoring.coreos.com/v1:PrometheusRule") == []
    alerts = of_type(ack_dev, "alicloud:arms/prometheusAlertRule:PrometheusAlertRule")
    assert {a.inputs["prometheusAlertRuleName"] for a in alerts} == T4_AND_MPS_ALERTS
    assert all(a.inputs["clusterId"] == cluster_id for a in alerts)
    assert {"prometheusQueryEndpoint", "prometheusAlertRules"} <= set(ack_dev.run.outputs)


def test_ack_dev_exporter_runs_on_every_gpu_pool_and_no_other(ack_dev: PreviewResult) -> None:
    """One exporter per GPU node: ours on both GPU pools, the MPS one included (ACK's own
    tolerates no GPU taint), judged on the pools' recorded labels and taints."""
    (release,) = [
        r
        for r in of_type(ack_dev, "kubernetes:helm.sh/v3:Release")
        if r.inputs["chart"] == "dcgm-exporter"
    ]
    values = release.inputs["values"]
    placement = node_placement(values)
    landing = {
        pool.name
        for resource in of_type(ack_dev, NODE_POOL)
        for pool in node_pools(resource.type, resource.name, resource.inputs)
        if may_schedule(values["tolerations"], pool.taints) and placement.admits(pool.labels)
    }
    assert landing == {"a10mps", "t4"}
    # Told no name: the t4's nvidia.com/gpu is known to it, the MPS pool's aliyun.com/gpu-mem
    # cannot be attributed; so no per-pod series either.
    assert values["extraEnv"] == []


def test_ack_dev_ships_each_workload_namespaces_logs_to_sls(ack_dev: PreviewResult) -> None:
    addons = {a.inputs["name"]: a.inputs for a in of_type(ack_dev, ADDON)}
    project = f"k8s-log-{ack_dev.run.outputs['clusterId']}"
    assert addons["logtail-ds"]["config"] == f'{{"sls_project_name": "{project}"}}'
    stores = {
        s.inputs["logstoreName"]: s.inputs for s in of_type(ack_dev, "alicloud:log/store:Store")
    }
    assert set(stores) == {"gpu-training-stdout", "gpu-inference-stdout"}
    assert {s["retentionPeriod"] for s in stores.values()} == {30}
    assert {s["projectName"] for s in stores.values()} == {project}
    configs = of_type(ack_dev, "kubernetes:log.alibabacloud.com/v1alpha1:AliyunLogConfig")
    regexes = {
        c.inputs["spec"]["logtailConfig"]["inputDetail"]["plugin"]["inputs"][0]["detail"][
            "K8sNamespaceRegex"
        ]
        for c in configs
    }
    assert regexes == {"^gpu-training$", "^gpu-inference$"}
    assert ack_dev.run.outputs["logProject"] == project
    assert ack_dev.run.outputs["logstores"] == {
        "gpu-inference": "gpu-inference-stdout",
        "gpu-training": "gpu-training-stdout",
    }
