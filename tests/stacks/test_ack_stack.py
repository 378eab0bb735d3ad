"""The ack-dev stack and the MPS example Job, end to end on the mock engine with the policy pack."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpu_facts.scheduling import MPS_HOST_IPC_LABEL, MPS_HOST_IPC_REQUIRED
from offline_preview import PreviewResult, Secret, preview
from offline_preview.cli import EXIT_OK
from offline_preview.engine import RecordedResource
from stack_config import ConfigError
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
    assert set(pools) == {"system", "a10mps", "t4"}
    mps_labels = {label["key"]: label["value"] for label in pools["a10mps"].inputs["labels"]}
    assert mps_labels["ack.node.gpu.schedule"] == "mps"
    # The NVIDIA device plugin release serves t4; ACK's own plugin is turned off there.
    t4_labels = {label["key"]: label["value"] for label in pools["t4"].inputs["labels"]}
    assert t4_labels["ack.node.gpu.schedule"] == "disabled"
    # Auto-upgrade on: ACK picks the version.
    assert "version" not in cluster.inputs
    assert cluster.inputs["operationPolicy"]["clusterAutoUpgrade"]["enabled"] is True


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


def test_in_cluster_layers_wait_for_pools_and_sharing(ack_dev: PreviewResult) -> None:
    waits_for = {
        name
        for r in ack_dev.run.resources
        if r.type == "gpu-platform:workloads:GpuWorkloadNamespace"
        for name in (urn.rsplit("::", 1)[-1] for urn in r.dependencies)
    }
    assert {
        "ack-dev-gpu-a10mps-pool",
        "ack-dev-gpu-t4-pool",
        "ack-dev-gpu-sharing-ack-ai-installer",
        "ack-dev-gpu-sharing-ack-mps-control",
    } <= waits_for


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
    assert of_type(ack_dev, "gpu-platform:gpu:DriverReadinessCheck") == []
    assert of_type(ack_dev, "kubernetes:batch/v1:Job") == []
    assert of_type(ack_dev, "kubernetes:batch/v1:CronJob") == []
