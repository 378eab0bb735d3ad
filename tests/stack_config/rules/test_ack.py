"""ACK stack config rules: every bad setting gets its key path and a clear message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gpu_platform.plan.ack.cluster import EXISTING_NEED_VPC, ack_cluster_problems
from gpu_platform.plan.problems import under
from gpu_platform.settings import AckClusterSettings
from gpu_platform.stack_config import ConfigError, load_platform
from gpu_platform.stack_config.rules.ack import RULES as ACK_RULES
from tests.conftest import stack_raw
from tests.stack_config.rules.subjects import subject

Raw = dict[str, Any]


def ack_dev() -> Raw:
    return stack_raw("ack-dev")


def problems_of(raw: Raw) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as err:
        load_platform(raw)
    return err.value.problems


def test_ack_dev_is_valid() -> None:
    platform = load_platform(ack_dev())
    assert platform.pools["a10mps"].sharing == "ackMps"
    assert platform.pools["t4"].sharing is None


def vpc(raw: Raw) -> Raw:
    return raw["cluster"]["vpc"]


CASES: list[tuple[str, Callable[[Raw], object], str, str]] = [
    (
        "standard edition with MPS",
        lambda r: r["cluster"].update(clusterSpec="ack.standard"),
        "cluster.clusterSpec",
        "needs ACK Pro",
    ),
    (
        "unknown edition",
        lambda r: r["cluster"].update(clusterSpec="pro"),
        "cluster.clusterSpec",
        "ack.pro.<size>",
    ),
    (
        "existing vSwitches in a created VPC",
        lambda r: vpc(r).update(vswitchIds=["vsw-1"]),
        "cluster.vpc.vswitchIds",
        "need the existing vpcId",
    ),
    (
        "no node vSwitches",
        lambda r: vpc(r).update(vswitches=[]),
        "cluster.vpc",
        "give node vSwitches",
    ),
    (
        "no Terway pod vSwitches",
        lambda r: vpc(r).update(podVswitches=[]),
        "cluster.vpc",
        "Terway needs pod vSwitches",
    ),
    (
        "vSwitch outside the VPC",
        lambda r: vpc(r)["vswitches"][1].update(cidr="192.168.0.0/24"),
        "cluster.vpc.vswitches[1].cidr",
        "not inside the VPC CIDR",
    ),
    (
        "overlapping vSwitches",
        lambda r: vpc(r)["podVswitches"][0].update(cidr="10.1.128.0/17"),
        "cluster.vpc.podVswitches[0].cidr",
        "overlaps cluster.vpc.vswitches[0].cidr",
    ),
    (
        "not a CIDR",
        lambda r: vpc(r)["vswitches"][0].update(cidr="10.1.0.1/16"),
        "cluster.vpc.vswitches[0].cidr",
        "not an IPv4 CIDR",
    ),
    (
        "service CIDR inside the VPC",
        lambda r: r["cluster"].update(serviceCidr="10.200.0.0/20"),
        "cluster.serviceCidr",
        "overlaps the VPC CIDR",
    ),
    (
        "auto-upgrade without a window",
        lambda r: r["cluster"].pop("maintenanceWindow"),
        "cluster.maintenanceWindow",
        "auto-upgrade (patch) runs inside the maintenance window",
    ),
    (
        "ack-ai-installer unpinned",
        lambda r: r["ackGpuSharing"].pop("aiInstallerVersion"),
        "ackGpuSharing.aiInstallerVersion",
        "pin the chart",
    ),
    (
        "ack-mps-control unpinned",
        lambda r: r["ackGpuSharing"].pop("mpsControlVersion"),
        "ackGpuSharing.mpsControlVersion",
        "an upgrade crashes running GPU apps",
    ),
    (
        "not a chart version",
        lambda r: r["ackGpuSharing"].update(mpsControlVersion="latest"),
        "ackGpuSharing.mpsControlVersion",
        "not a chart version",
    ),
    (
        "kubeconfig lifetime out of range",
        lambda r: r["cluster"].update(kubeconfigMinutes=5),
        "cluster.kubeconfigMinutes",
        "greater than or equal to 15",
    ),
    (
        "version pinned next to auto-upgrade",
        lambda r: r["cluster"].update(kubernetesVersion="1.33"),
        "cluster.kubernetesVersion",
        "not with auto-upgrade (patch)",
    ),
    (
        "ACK device-plugin label set by hand",
        lambda r: r["gpuPools"][1].update(labels={"ack.node.gpu.schedule": "default"}),
        "gpuPools[1].labels.ack.node.gpu.schedule",
        "set by the platform from sharing.mode",
    ),
    (
        "whole-GPU pool without the NVIDIA device plugin",
        lambda r: r["devicePlugin"].update(enabled=False),
        "devicePlugin.enabled",
        "pools t4 use the NVIDIA device plugin",
    ),
    (
        "whole-GPU pool on a cluster whose ACK plugin is a static pod",
        # 1.30: one ACK still lists, older than 1.32.
        lambda r: r["cluster"].update(kubernetesVersion="1.30", autoUpgradeChannel="none"),
        "cluster.kubernetesVersion",
        "pools t4 need 1.32+",
    ),
    (
        "MPS with replicas",
        lambda r: r["gpuPools"][0]["sharing"].update(replicas=4),
        "gpuPools[0].sharing.replicas",
        "aliyun.com/gpu-mem",
    ),
    (
        "Azure VM size on ACK",
        lambda r: r["gpuPools"][1].update(vmSize="Standard_NC4as_T4_v3"),
        "gpuPools[1].vmSize",
        "AKS only (cloud 'aks'); on cloud 'ack' remove it",
    ),
    (
        "instance type not in the catalog",
        lambda r: r["gpuPools"][1].update(instanceType="ecs.g7.xlarge"),
        "gpuPools[1].instanceType",
        "a GPU pool needs a type with GPUs",
    ),
]


@pytest.mark.parametrize(
    ("change", "key", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_ack_setting_is_reported(
    change: Callable[[Raw], object], key: str, message: str
) -> None:
    raw = ack_dev()
    change(raw)
    found = problems_of(raw)
    assert any(path == key and message in text for path, text in found), found


def test_existing_vpc_needs_no_created_network() -> None:
    raw = ack_dev()
    raw["cluster"]["vpc"] = {"vpcId": "vpc-1", "vswitchIds": ["vsw-1"], "podVswitchIds": ["vsw-2"]}
    assert load_platform(raw).settings.cluster.vpc.vpc_id == "vpc-1"  # type: ignore[union-attr]


def test_versions_not_required_without_ack_sharing() -> None:
    raw = ack_dev()
    raw["gpuPools"] = [raw["gpuPools"][1]]
    raw["workloads"] = [raw["workloads"][1]]
    raw.pop("ackGpuSharing")
    assert load_platform(raw).pools["t4"].sharing is None


def test_cgpu_pool_needs_only_the_ai_installer() -> None:
    raw = ack_dev()
    raw["gpuPools"][0]["sharing"] = {"mode": "cgpu"}
    raw["ackGpuSharing"].pop("mpsControlVersion")
    assert load_platform(raw).pools["a10mps"].sharing == "ackCgpu"


def test_every_problem_in_one_error() -> None:
    raw = ack_dev()
    raw["cluster"].update(clusterSpec="ack.standard", serviceCidr="10.0.0.0/20")
    raw["ackGpuSharing"].pop("mpsControlVersion")
    keys = {path for path, _ in problems_of(raw)}
    assert {"cluster.clusterSpec", "cluster.serviceCidr", "ackGpuSharing.mpsControlVersion"} <= keys


def test_version_pinned_without_auto_upgrade() -> None:
    raw = ack_dev()
    raw["cluster"].update(kubernetesVersion="1.33", autoUpgradeChannel="none")
    assert load_platform(raw).settings.cluster.kubernetes_version == "1.33"  # type: ignore[union-attr]


def test_ack_shared_pools_alone_need_neither_the_nvidia_plugin_nor_1_32() -> None:
    raw = ack_dev()
    raw["gpuPools"] = [raw["gpuPools"][0]]
    raw["workloads"] = [raw["workloads"][0]]
    raw["devicePlugin"]["enabled"] = False
    raw["cluster"].update(kubernetesVersion="1.30", autoUpgradeChannel="none")
    assert load_platform(raw).pools["a10mps"].sharing == "ackMps"


def test_the_clusters_networking_and_disk_are_plans_under_cluster() -> None:
    """The AckCluster component asks plan.ack.cluster too: the same messages."""

    def no_switches(raw: Raw) -> None:
        raw["cluster"]["vpc"] = {"vswitchIds": ["vsw-1"]}
        raw["cluster"]["nodeSystemDisk"] = {"kmsKeyId": "key-1"}

    cfg = subject("ack-dev", no_switches)
    assert isinstance(cfg.settings.cluster, AckClusterSettings)
    found = [p for rule in ACK_RULES for p in rule(cfg)]
    for problem in under("cluster", ack_cluster_problems(cfg.settings.cluster)):
        assert problem in found
    assert ("cluster.vpc.vswitchIds", EXISTING_NEED_VPC) in found
