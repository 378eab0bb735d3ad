"""AksCpuNodePool on the mock engine: an untainted user pool with the cluster's node hardening,
and bad input refused before anything is registered."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from gpu_platform.components.aks.cpu_node_pool import AksCpuNodePool, AksCpuNodePoolArgs
from gpu_platform.components.pool_args import CpuPoolArgs, cpu_pool_args
from gpu_platform.offline_preview import ProgramRun
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.components.input_errors import paths, reasons, refused
from tests.conftest import one, run

AGENT_POOL = "azure-native:containerservice:AgentPool"


def general() -> CpuPoolArgs:
    """The hardened platform's zonal CPU pool, as GpuPlatform passes it."""
    (pool,) = load_platform(platforms.aks_hardened()).settings.cpu_pools
    return cpu_pool_args(pool)


def args(pool: CpuPoolArgs, **overrides: Any) -> AksCpuNodePoolArgs:
    base: AksCpuNodePoolArgs = {
        "pool": pool,
        "cluster_name": "gpu-prod",
        "resource_group_name": "rg-gpu-prod",
        "encryption_at_host": True,
        "protect": True,
    }
    return {**base, **overrides}  # type: ignore[typeddict-item]


def build(pool_args: AksCpuNodePoolArgs) -> ProgramRun:
    def program() -> None:
        pool = AksCpuNodePool("plat-cpu-general", pool_args)
        pulumi.export("facts", pool.facts)
        pulumi.export("poolName", pool.pool_name)

    return run(program)


def test_zonal_cpu_pool_exact_inputs() -> None:
    result = build(args(general()))
    pool = one(result, AGENT_POOL)
    assert pool.inputs == {
        "resourceGroupName": "rg-gpu-prod",
        "resourceName": "gpu-prod",
        "agentPoolName": "general",
        "mode": "User",
        "vmSize": "Standard_D4ds_v5",
        "osType": "Linux",
        "osSKU": "Ubuntu",
        "type": "VirtualMachineScaleSets",
        "maxPods": 110,
        "osDiskType": "Ephemeral",
        "osDiskSizeGB": 128,
        "enableEncryptionAtHost": True,
        "nodeTaints": [],
        "nodeLabels": {"gpu-platform.io/pool": "general"},
        "availabilityZones": ["1", "2", "3"],
        "upgradeSettings": {
            "maxSurge": "1",
            "drainTimeoutInMinutes": 60,
            "nodeSoakDurationInMinutes": 0,
        },
        "enableAutoScaling": True,
        "minCount": 2,
        "maxCount": 6,
        "count": 2,
    }
    assert pool.protect is True
    # The autoscaler owns the live count; AKS sets the hardening only at creation.
    assert pool.ignore_changes == ["count"]
    assert pool.replace_on_changes == [
        "enableEncryptionAtHost",
        "maxPods",
        "osDiskSizeGB",
        "osDiskType",
    ]
    assert pool.delete_before_replace is True
    assert result.outputs["facts"] == {
        "vmSize": "Standard_D4ds_v5",
        "minNodes": 2,
        "maxNodes": 6,
        "zones": ["1", "2", "3"],
    }


def test_a_fixed_pool_keeps_its_count_and_unset_hardening_is_still_explicit() -> None:
    pool: CpuPoolArgs = {"name": "fixed", "vm_size": "Standard_D8s_v5", "count": 2}
    inputs = one(build(args(pool, encryption_at_host=False)), AGENT_POOL).inputs
    assert inputs["count"] == 2
    assert inputs["enableAutoScaling"] is False
    assert "minCount" not in inputs and "maxCount" not in inputs
    # D8s_v5 has no local disk: the default OS disk is managed, and said so.
    assert (inputs["osDiskType"], inputs["osDiskSizeGB"], inputs["maxPods"]) == (
        "Managed",
        128,
        110,
    )
    assert inputs["enableEncryptionAtHost"] is False


@pytest.mark.parametrize(
    ("vm_size", "disk_gib", "expected"),
    [
        ("Standard_D4ds_v5", 128, "Ephemeral"),  # 150 GiB temp disk
        ("Standard_D4ds_v5", 200, "Managed"),
        ("Standard_D2ds_v5", 128, "Managed"),  # 75 GiB temp disk
        ("Standard_E8ds_v5", 128, "Managed"),  # not catalogued: nothing proves it fits
    ],
)
def test_unset_os_disk_type_follows_the_size_local_disk(
    vm_size: str, disk_gib: int, expected: str
) -> None:
    pool: CpuPoolArgs = {"name": "p", "vm_size": vm_size, "count": 1, "os_disk_size_gb": disk_gib}
    assert one(build(args(pool)), AGENT_POOL).inputs["osDiskType"] == expected


def test_ephemeral_os_disk_that_the_size_cannot_hold_is_refused() -> None:
    too_big: CpuPoolArgs = {**general(), "os_disk_type": "Ephemeral", "os_disk_size_gb": 200}
    no_disk: CpuPoolArgs = {**general(), "vm_size": "Standard_D4s_v5", "os_disk_type": "Ephemeral"}
    assert reasons(refused(lambda: AksCpuNodePool("p", args(too_big)))) == {
        "pool.osDiskType": (
            "Standard_D4ds_v5's cache or temp disk holds at most 150 GiB, not the 200 GiB OS "
            "disk (osDiskSizeGb); use Managed, or an OS disk of at most 150 GiB"
        )
    }
    assert reasons(refused(lambda: AksCpuNodePool("p", args(no_disk)))) == {
        "pool.osDiskType": (
            "Standard_D4s_v5 has no cache or temp disk to hold an ephemeral OS disk; use Managed"
        )
    }


def test_gpu_sizes_gpu_labels_and_bad_zones_are_refused_at_once() -> None:
    bad: CpuPoolArgs = {
        **general(),
        "vm_size": "Standard_NC4as_T4_v3",
        "labels": {"nvidia.com/gpu.present": "true", "gpu-platform.io/pool": "x", "team": "a"},
        "zones": ["1", "4", "1"],
        "upgrade": {"max_surge": "0"},
    }
    err = refused(lambda: AksCpuNodePool("p", args(bad)))
    assert paths(err) == [
        "pool.vmSize",
        "pool.labels.nvidia.com/gpu.present",
        "pool.labels.gpu-platform.io/pool",
        "pool.zones[1]",
        "pool.zones[2]",
        "pool.upgrade.maxSurge",
    ]
    assert "is a GPU (N-series) size" in reasons(err)["pool.vmSize"]


def test_schema_and_size_problems_are_refused() -> None:
    both: CpuPoolArgs = {**general(), "count": 2}
    assert paths(refused(lambda: AksCpuNodePool("p", args(both)))) == ["pool"]
    bad_pods: CpuPoolArgs = {**general(), "max_pods": 300}
    assert paths(refused(lambda: AksCpuNodePool("p", args(bad_pods)))) == ["pool.maxPods"]
    alibaba: CpuPoolArgs = {"name": "p", "instance_type": "ecs.g7.xlarge", "count": 1}
    assert paths(refused(lambda: AksCpuNodePool("p", args(alibaba)))) == [
        "pool.vmSize",
        "pool.instanceType",
    ]
