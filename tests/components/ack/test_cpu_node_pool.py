"""AckCpuNodePool on the mock engine: an untainted, managed pool with the cluster's system disk,
and bad input refused before anything is registered."""

from __future__ import annotations

from typing import Any

import pulumi

from gpu_platform.components.ack.cpu_node_pool import AckCpuNodePool, AckCpuNodePoolArgs
from gpu_platform.components.pool_args import CpuPoolArgs
from gpu_platform.offline_preview import ProgramRun
from tests.components.input_errors import paths, reasons, refused
from tests.conftest import one, run

NODE_POOL = "alicloud:cs/nodePool:NodePool"
GENERAL: CpuPoolArgs = {
    "name": "general",
    "instance_type": "ecs.g7.xlarge",
    "autoscale": {"min": 1, "max": 3},
    "labels": {"team": "platform"},
}


def args(pool: CpuPoolArgs = GENERAL, **overrides: Any) -> AckCpuNodePoolArgs:
    base: AckCpuNodePoolArgs = {
        "cluster_id": "c-123",
        "vswitch_ids": ["vsw-a", "vsw-b"],
        "pool": pool,
        "system_disk": {"category": "cloud_essd", "size_gib": 200, "encrypted": True},
        "protect": True,
        "tags": {"environment": "prod"},
    }
    return {**base, **overrides}  # type: ignore[typeddict-item]


def build(pool_args: AckCpuNodePoolArgs) -> ProgramRun:
    def program() -> None:
        pool = AckCpuNodePool("plat-cpu-general", pool_args)
        pulumi.export("facts", pool.facts)

    return run(program)


def test_autoscaled_cpu_pool_exact_inputs() -> None:
    result = build(args())
    pool = one(result, NODE_POOL)
    assert pool.inputs == {
        "clusterId": "c-123",
        "nodePoolName": "general",
        "instanceTypes": ["ecs.g7.xlarge"],
        "vswitchIds": ["vsw-a", "vsw-b"],
        "labels": [
            {"key": "team", "value": "platform"},
            {"key": "gpu-platform.io/pool", "value": "general"},
        ],
        "taints": [],
        "scalingConfig": {"enable": True, "minSize": 1, "maxSize": 3, "type": "cpu"},
        "management": {
            "enable": True,
            "autoUpgrade": True,
            "autoUpgradePolicy": {"autoUpgradeKubelet": True},
            "autoVulFix": True,
            "maxUnavailable": 1,
        },
        "systemDiskCategory": "cloud_essd",
        "systemDiskSize": 200,
        "systemDiskEncrypted": True,
        "tags": {"environment": "prod"},
    }
    assert pool.protect is True
    assert result.outputs["facts"] == {
        "instanceType": "ecs.g7.xlarge",
        "minNodes": 1,
        "maxNodes": 3,
    }


def test_fixed_pool_with_a_kms_key_and_default_disk() -> None:
    fixed: CpuPoolArgs = {"name": "fixed", "instance_type": "ecs.c7.2xlarge", "count": 2}
    pool = one(
        build(args(fixed, system_disk={"encrypted": True, "kms_key_id": "key-1"})), NODE_POOL
    ).inputs
    assert pool["desiredSize"] == "2"
    assert "scalingConfig" not in pool
    assert (pool["systemDiskCategory"], pool["systemDiskSize"]) == ("cloud_essd", 120)
    assert (pool["systemDiskEncrypted"], pool["systemDiskKmsKey"]) == (True, "key-1")


def test_gpu_types_zones_and_gpu_labels_are_refused_at_once() -> None:
    bad: CpuPoolArgs = {
        "name": "general",
        "instance_type": "ecs.gn7i-c8g1.2xlarge",
        "count": 1,
        "zones": ["cn-hangzhou-i"],
        "labels": {"ack.node.gpu.schedule": "mps"},
    }
    err = refused(lambda: AckCpuNodePool("p", args(bad, system_disk={"kms_key_id": "key-1"})))
    assert paths(err) == [
        "pool.instanceType",
        "pool.labels.ack.node.gpu.schedule",
        "pool.zones",
        "systemDisk.kmsKeyId",
    ]
    assert "is a GPU instance type" in reasons(err)["pool.instanceType"]


def test_an_azure_size_or_no_size_is_refused() -> None:
    azure: CpuPoolArgs = {"name": "p", "vm_size": "Standard_D4ds_v5", "count": 1}
    assert paths(refused(lambda: AckCpuNodePool("p", args(azure)))) == [
        "pool.instanceType",
        "pool.vmSize",
    ]
    both: CpuPoolArgs = {**GENERAL, "count": 1}
    assert paths(refused(lambda: AckCpuNodePool("p", args(both)))) == ["pool"]
