"""Every component that passes a value on to the cloud or Kubernetes refuses what they would,
with the same rules as the stack config (``plan.names``, ``plan.kubernetes_values``,
``plan.cloud_tags``, ``plan.zones``, ``plan.kubernetes_versions``, ``plan.schedules``,
``plan.kubeconfigs``): one ``InputPropertiesError`` with exact property paths, nothing
registered. And a zone an ACK GPU pool asks for places it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gpu_platform.components.ack.cluster import AckCluster, ack_cluster_args
from gpu_platform.components.ack.cpu_node_pool import AckCpuNodePool
from gpu_platform.components.ack.gpu_node_pool import AckGpuNodePool
from gpu_platform.components.ack.monitoring import AckMonitoring
from gpu_platform.components.aks.cluster import AksCluster, aks_cluster_args
from gpu_platform.components.aks.cpu_node_pool import AksCpuNodePool
from gpu_platform.components.aks.gpu_node_pool import AksGpuNodePool
from gpu_platform.components.aks.grafana import AksGrafana
from gpu_platform.components.aks.monitoring import AksMonitoringWorkspaces
from gpu_platform.components.driver_check import DriverCheck
from gpu_platform.components.existing.cluster import ExistingCluster
from gpu_platform.components.platform import GpuPlatform
from gpu_platform.components.pool_args import cpu_pool_args, gpu_pool_args
from gpu_platform.settings import AckClusterSettings, AksClusterSettings
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.components.input_errors import paths, reasons, refused
from tests.conftest import run

TAGS_51 = {f"t{i}": "x" for i in range(51)}
AKS_NAME = (
    "AKS cluster names are 1-63 characters: letters, digits, '-' and '_', starting and ending "
    "with a letter or digit (Azure's rule for Microsoft.ContainerService/managedClusters)"
)
LABEL_VALUE = (
    "Kubernetes label values are at most 63 characters: letters, digits, '-', '_' and '.', "
    "starting and ending with a letter or digit (or empty)"
)


def aks_cluster(**changes: Any) -> Any:
    settings = load_platform(platforms.aks_hardened()).settings.cluster
    assert isinstance(settings, AksClusterSettings)
    return {**aks_cluster_args(settings), **changes}


def test_aks_cluster_names_tags_ids_and_version() -> None:
    args = aks_cluster(
        name="gpu dev!",
        resource_group={"name": "rg/gpu#dev."},
        kubernetes_version="1.99",
        tags=TAGS_51,
        entra_id={"admin_group_object_ids": ["ml-admins"]},
    )
    err = refused(lambda: AksCluster("bad", args))
    assert paths(err) == [
        "name",
        "resourceGroup.name",
        "tags",
        "entraId.adminGroupObjectIds[0]",
        "kubernetesVersion",
    ]
    assert reasons(err)["name"] == f"'gpu dev!': {AKS_NAME}"
    assert reasons(err)["tags"] == "51 tags; Azure takes at most 50 per resource"
    assert reasons(err)["kubernetesVersion"].startswith("Kubernetes 1.99 is not a release AKS")


def test_aks_cluster_on_a_version_aks_keeps_for_long_term_support_only() -> None:
    err = refused(lambda: AksCluster("bad", aks_cluster(kubernetes_version="1.33")))
    assert paths(err) == ["kubernetesVersion"]
    assert "only under long-term support" in reasons(err)["kubernetesVersion"]


def aks_gpu_pool(**changes: Any) -> Any:
    pf = load_platform(platforms.aks_mig_and_time_slicing()).pools["t4"]
    return {
        "pool": {**gpu_pool_args(pf), **changes},
        "cluster_name": "gpu-dev",
        "resource_group_name": "rg-gpu-dev",
    }


def test_aks_gpu_pool_zones_and_labels() -> None:
    args = aks_gpu_pool(zones=["4", "1", "1"], labels={"team name!": "x", "tier": "v" * 64})
    err = refused(lambda: AksGpuNodePool("bad", args))
    assert paths(err) == [
        "pool.labels.team name!",
        "pool.labels.tier",
        "pool.zones[0]",
        "pool.zones[2]",
    ]
    assert reasons(err)["pool.zones[0]"] == "AKS zones are 1, 2, 3, not '4'"
    assert reasons(err)["pool.labels.tier"] == f"'{'v' * 64}' (64 characters): {LABEL_VALUE}"


def test_aks_gpu_pool_in_zones_1_to_3_is_taken() -> None:
    result = run(lambda: AksGpuNodePool("t4", aks_gpu_pool(zones=["1", "2", "3"])))
    (pool,) = [r for r in result.resources if r.type.endswith("containerservice:AgentPool")]
    assert pool.inputs["availabilityZones"] == ["1", "2", "3"]


def test_aks_cpu_pool_zones_and_reserved_labels() -> None:
    (cpu,) = load_platform(platforms.aks_hardened()).settings.cpu_pools
    pool = {**cpu_pool_args(cpu), "zones": ["0"], "labels": {"node.kubernetes.io/role": "x"}}
    err = refused(
        lambda: AksCpuNodePool(
            "bad", {"pool": pool, "cluster_name": "c", "resource_group_name": "rg"}
        )
    )
    assert paths(err) == ["pool.labels.node.kubernetes.io/role", "pool.zones[0]"]
    assert reasons(err)["pool.labels.node.kubernetes.io/role"] == (
        "the kubernetes.io label domain is reserved for Kubernetes' own components (and the "
        "kubelet refuses it on nodes); choose another prefix"
    )


def ack_cluster(**changes: Any) -> Any:
    raw = {**platforms.ack_pro_cluster(), **changes}
    return ack_cluster_args(AckClusterSettings.model_validate(raw), node_autoscaling=False)


def test_ack_cluster_name_tags_ids_zones_and_version() -> None:
    vpc = platforms.ack_pro_cluster()["vpc"]
    vpc["vswitches"][1]["zone"] = "cn-hangzhou-z"
    vpc["podVswitches"][0]["zone"] = "cn-shanghai-b"
    vpc.update(vpcId="vpc-bp1lab", vswitchIds=["vsw-lab-node"])
    args = ack_cluster(
        name="-gpu ack/dev",
        tags={"acs:team": "x"},
        auditLogProject="ab",
        vpc=vpc,
        kubernetesVersion="1.29",
        autoUpgradeChannel="none",
    )
    err = refused(lambda: AckCluster("bad", args))
    assert paths(err) == [
        "name",
        "auditLogProject",
        "tags.acs:team",
        "vpc.vswitchIds[0]",
        "kubernetesVersion",
        "vpc.vswitches[1].zone",
        "vpc.podVswitches[0].zone",
    ]
    assert reasons(err)["vpc.podVswitches[0].zone"] == (
        "'cn-shanghai-b' is in cn-shanghai, the other zones in cn-hangzhou: one region only"
    )
    assert reasons(err)["tags.acs:team"] == "Alibaba Cloud refuses a tag name starting with 'acs:'"


def ack_gpu_pool(**changes: Any) -> Any:
    pf = load_platform(platforms.ack_mps_and_whole_gpus()).pools["t4"]
    return {
        "cluster_id": "c-123",
        "vswitch_ids": ["vsw-a"],
        "pool": {**gpu_pool_args(pf), **changes},
    }


def test_ack_gpu_pool_zones_labels_and_tags() -> None:
    args = {
        **ack_gpu_pool(zones=["cn-hangzhou-i"], labels={"a/b/c": "x"}),
        "tags": {"aliyun": "x"},
    }
    err = refused(lambda: AckGpuNodePool("bad", args))
    assert paths(err) == ["pool.labels.a/b/c", "pool.zones", "tags.aliyun"]
    assert reasons(err)["pool.zones"] == (
        "on ACK the vSwitches place a pool: pass the zones' vswitchIds"
    )


def test_ack_cpu_pool_labels_and_tags() -> None:
    (cpu,) = load_platform(platforms.ack_mps_and_whole_gpus()).settings.cpu_pools
    pool = {**cpu_pool_args(cpu), "labels": {"team": "a b"}}
    args = {"cluster_id": "c", "vswitch_ids": ["vsw-a"], "pool": pool, "tags": TAGS_51}
    err = refused(lambda: AckCpuNodePool("bad", args))  # type: ignore[arg-type]
    assert paths(err) == ["pool.labels.team", "tags"]
    assert reasons(err)["tags"] == "51 tags; Alibaba Cloud takes at most 20 per resource"


def test_grafana_and_workspaces_tags() -> None:
    grafana = {
        "name": "gpu-prod-grafana",
        "resource_group_name": "rg",
        "location": "westeurope",
        "azure_monitor_workspace_id": "/subscriptions/s/x",
        "tags": {"a/b": "x"},
    }
    err = refused(lambda: AksGrafana("bad", grafana))  # type: ignore[arg-type]
    assert paths(err) == ["tags.a/b"]
    workspaces = {"resource_group_name": "rg", "location": "westeurope", "tags": TAGS_51}
    assert paths(refused(lambda: AksMonitoringWorkspaces("bad", workspaces))) == ["tags"]  # type: ignore[arg-type]


def test_ack_monitoring_log_project() -> None:
    args = {"cluster_id": "c-1", "metrics": False, "log_namespaces": ["gpu-training"]}
    err = refused(lambda: AckMonitoring("bad", {**args, "log_project": "Audit_Logs"}))  # type: ignore[arg-type]
    assert paths(err) == ["logProject", "kubernetesProvider"]
    assert reasons(err)["logProject"].startswith("'Audit_Logs': Simple Log Service project names")


def test_driver_check_schedule() -> None:
    pools = [
        gpu_pool_args(pf)
        for pf in load_platform(platforms.existing_mig_and_time_slicing()).pools.values()
    ]
    for schedule in ("99 99 99 99 99", "a b c d e", "CRON_TZ=UTC 0 6 * * *"):
        err = refused(
            lambda schedule=schedule: DriverCheck("bad", {"pools": pools, "schedule": schedule})
        )
        assert paths(err) == ["schedule"]
        assert reasons(err)["schedule"].startswith(repr(schedule))


def test_existing_cluster_kubeconfig_file(tmp_path: Path) -> None:
    pod = tmp_path / "pod.yaml"
    pod.write_text("kind: Pod\napiVersion: v1\n")
    err = refused(lambda: ExistingCluster("existing", {"kubeconfig_path": str(pod)}))
    assert paths(err) == ["kubeconfigPath"]
    good = tmp_path / "kubeconfig"
    good.write_text(
        "clusters: [{name: c, cluster: {server: 'https://c:6443'}}]\n"
        "users: [{name: u, user: {token: t}}]\n"
        "contexts: [{name: lab, context: {cluster: c, user: u}}]\n"
    )
    err = refused(
        lambda: ExistingCluster("existing", {"kubeconfig_path": str(good), "context": "x"})
    )
    assert reasons(err) == {"context": f"no context 'x' in {str(good)!r}; its contexts: lab"}


@pytest.mark.slow  # a whole ACK platform on the mock engine
def test_ack_gpu_pool_zones_pick_its_vswitches() -> None:
    raw = platforms.ack_mps_and_whole_gpus()
    raw["gpuPools"][0]["zones"] = ["cn-hangzhou-j"]  # the second node vSwitch's zone
    result = run(lambda: GpuPlatform("ack", load_platform(raw)))
    pools = {
        r.name: r.inputs["vswitchIds"]
        for r in result.resources
        if r.type == "alicloud:cs/nodePool:NodePool"
    }
    both = ["ack-ack-nodes-vsw-0-id", "ack-ack-nodes-vsw-1-id"]
    assert pools == {
        "ack-ack-system": both,
        "ack-gpu-a10mps-pool": ["ack-ack-nodes-vsw-1-id"],
        "ack-gpu-t4-pool": both,
        "ack-cpu-general-pool": both,
    }
