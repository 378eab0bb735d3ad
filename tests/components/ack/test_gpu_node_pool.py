"""AckGpuNodePool on the mock engine: taint, labels, sharing label, scaling, facts."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from gpu_facts.scheduling import (
    ACK_GPU_SCHEDULE_LABEL,
    ALIYUN_GPU_MEM,
    DEVICE_PLUGIN_CONFIG_LABEL,
    GPU_PRESENT_LABEL,
    NVIDIA_GPU,
    POOL_LABEL,
)
from gpu_platform.components.ack.gpu_node_pool import AckGpuNodePool
from gpu_platform.components.nvidia.device_plugin import gpu_node_affinity
from gpu_platform.components.pool_args import GpuPoolArgs, gpu_pool_args
from gpu_platform.offline_preview import ProgramRun
from gpu_platform.stack_config import ConfigError, load_platform
from tests.components import platforms
from tests.components.input_errors import paths, reasons, refused
from tests.conftest import one, run

NODE_POOL = "alicloud:cs/nodePool:NodePool"


def pool_facts(name: str, **changes: Any) -> GpuPoolArgs:
    """The args of a pool of ``platforms.ack_mps_and_whole_gpus`` (checked by the config
    rules), with ``changes`` (YAML keys) applied."""
    raw = platforms.ack_mps_and_whole_gpus()
    for workload in raw["workloads"]:
        workload["gpuQuota"] = 1  # whatever resources the changed pools expose
    for pool in raw["gpuPools"]:
        if pool["name"] == name:
            pool.update(changes)
            for key in [k for k, v in changes.items() if v is None]:
                pool.pop(key)
    return gpu_pool_args(load_platform(raw).pools[name])


def build(pf: GpuPoolArgs, protect: bool = False, **extra: Any) -> ProgramRun:
    def program() -> None:
        pool = AckGpuNodePool(
            f"gpu-{pf['name']}",
            {
                "cluster_id": "c-123",
                "vswitch_ids": ["vsw-a", "vsw-b"],
                "pool": pf,
                "protect": protect,
                "tags": {"environment": "dev"},
                **extra,  # type: ignore[typeddict-item]
            },
        )
        pulumi.export("facts", pool.facts)

    return run(program)


def labels(result: ProgramRun) -> dict[str, str]:
    return {label["key"]: label["value"] for label in one(result, NODE_POOL).inputs["labels"]}


def test_gpu_taint_keeps_other_pods_off() -> None:
    pool = one(build(pool_facts("a10mps")), NODE_POOL)
    assert pool.inputs["taints"] == [
        {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
    ]


def test_mps_pool_labels() -> None:
    assert labels(build(pool_facts("a10mps"))) == {
        POOL_LABEL: "a10mps",
        ACK_GPU_SCHEDULE_LABEL: "mps",
    }


@pytest.mark.parametrize(("mode", "value"), [("mps", "mps"), ("cgpu", "cgpu"), ("share", "share")])
def test_sharing_mode_sets_the_ack_schedule_label(mode: str, value: str) -> None:
    found = labels(build(pool_facts("a10mps", sharing={"mode": mode})))
    assert found[ACK_GPU_SCHEDULE_LABEL] == value
    # ACK's own device plugin serves shared pools: nothing the NVIDIA plugin, GFD or the NFD
    # worker select on, so only one plugin advertises these GPUs (BP-15/16).
    assert DEVICE_PLUGIN_CONFIG_LABEL not in found
    assert GPU_PRESENT_LABEL not in found


def matches_plugin_affinity(labels: dict[str, str]) -> bool:
    """Whether a node with ``labels`` satisfies the NVIDIA plugin's (and NFD worker's) affinity."""
    required = gpu_node_affinity()["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    [term] = required["nodeSelectorTerms"]
    operators = {e["operator"] for e in term["matchExpressions"]}
    assert operators == {"In", "Exists"}  # the two this check models
    return all(
        e["key"] in labels if e["operator"] == "Exists" else labels.get(e["key"]) in e["values"]
        for e in term["matchExpressions"]
    )


def test_nvidia_plugin_lands_on_plugin_pools_only() -> None:
    assert matches_plugin_affinity(labels(build(pool_facts("t4"))))
    assert not matches_plugin_affinity(labels(build(pool_facts("a10mps"))))


def test_user_gpu_present_label_is_refused_by_config() -> None:
    # The label is reserved: a user cannot put it back on an ACK-shared pool.
    with pytest.raises(ConfigError, match=r"nvidia\.com/gpu\.present: set by the platform"):
        pool_facts("a10mps", labels={GPU_PRESENT_LABEL: "true"})


def test_pool_without_instance_type_is_refused_before_anything_is_registered() -> None:
    good = pool_facts("t4")
    # Bypass config validation (which refuses it too) to show the component checks its input.
    bad = {k: v for k, v in good.items() if k != "instance_type"}
    err = refused(
        lambda: AckGpuNodePool(
            "bad",
            {"cluster_id": "c-123", "vswitch_ids": ["vsw-a"], "pool": bad},  # type: ignore[typeddict-item]
        )
    )
    # An ACK pool's model needs its machine (settings.ack), as the config's does.
    assert reasons(err) == {"pool.instanceType": "Field required"}
    assert "AckGpuNodePool 'bad'" in str(err)


def test_bad_pool_args_name_every_property_path() -> None:
    bad: Any = {
        **pool_facts("a10mps"),
        "autoscale": {"min": 0, "max": "two"},
        "sharing": {"mode": "mps", "replicas": 1},
        "colour": "green",
    }
    err = refused(
        lambda: AckGpuNodePool("bad", {"cluster_id": "c-1", "vswitch_ids": [], "pool": bad})
    )
    assert sorted(paths(err)) == ["pool.autoscale.max", "pool.colour", "pool.sharing.replicas"]


def test_unknown_instance_type_is_refused() -> None:
    bad = {**pool_facts("t4"), "instance_type": "ecs.nope"}
    err = refused(
        lambda: AckGpuNodePool("bad", {"cluster_id": "c-1", "vswitch_ids": [], "pool": bad})  # type: ignore[typeddict-item]
    )
    assert paths(err) == ["pool.instanceType"]


def test_plain_args_default_to_unprotected_untagged() -> None:
    pool = {"name": "l20", "instance_type": "ecs.gn7i-c8g1.2xlarge", "count": 1}
    result = run(
        lambda: AckGpuNodePool(
            "gpu-l20",
            {"cluster_id": "c-1", "vswitch_ids": ["vsw-a"], "pool": pool},  # type: ignore[typeddict-item]
        )
    )
    node_pool = one(result, NODE_POOL)
    assert node_pool.protect is False
    assert "tags" not in node_pool.inputs
    assert node_pool.inputs["desiredSize"] == "1"


def test_whole_gpu_pool_selects_its_device_plugin_config() -> None:
    found = labels(build(pool_facts("t4", labels={"team": "vision"})))
    assert found == {
        "team": "vision",
        GPU_PRESENT_LABEL: "true",
        POOL_LABEL: "t4",
        DEVICE_PLUGIN_CONFIG_LABEL: "t4",
        ACK_GPU_SCHEDULE_LABEL: "disabled",
    }


def test_time_sliced_pool_on_ack_uses_the_nvidia_device_plugin() -> None:
    pf = pool_facts("t4", sharing={"mode": "timeSlicing", "replicas": 4})
    found = labels(build(pf))
    assert found[ACK_GPU_SCHEDULE_LABEL] == "disabled"
    assert found[DEVICE_PLUGIN_CONFIG_LABEL] == "t4"


ACK_PLUGIN_SELECTOR = {ACK_GPU_SCHEDULE_LABEL: "default"}
"""nodeSelector of ACK's ack-nvidia-device-plugin DaemonSet (1.32+), as ACK documents it."""


def ack_plugin_lands(labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in ACK_PLUGIN_SELECTOR.items())


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"sharing": {"mode": "timeSlicing", "replicas": 4}},
        {"sharing": {"mode": "mps"}},
        {"sharing": {"mode": "cgpu"}},
        {"sharing": {"mode": "share"}},
    ],
    ids=["whole", "timeSlicing", "mps", "cgpu", "share"],
)
def test_exactly_one_device_plugin_per_ack_gpu_node(changes: dict[str, Any]) -> None:
    found = labels(build(pool_facts("t4", **changes)))
    # ACK adds ``default`` only to nodes whose pool sets no value: every pool sets one.
    assert ACK_GPU_SCHEDULE_LABEL in found
    assert not ack_plugin_lands(found)
    nvidia = matches_plugin_affinity(found)
    ack_sharing = found[ACK_GPU_SCHEDULE_LABEL] in {"mps", "cgpu", "share"}
    assert nvidia != ack_sharing


def test_shared_pool_autoscales_as_gpushare() -> None:
    pool = one(build(pool_facts("a10mps")), NODE_POOL)
    assert pool.inputs["scalingConfig"] == {
        "enable": True,
        "minSize": 0,
        "maxSize": 2,
        "type": "gpushare",
    }
    assert "desiredSize" not in pool.inputs


def test_whole_gpu_pool_autoscales_as_gpu() -> None:
    pool = one(build(pool_facts("t4")), NODE_POOL)
    assert pool.inputs["scalingConfig"]["type"] == "gpu"


def test_fixed_pool_has_desired_size_and_no_autoscaler() -> None:
    pool = one(build(pool_facts("t4", autoscale=None, count=3)), NODE_POOL)
    assert pool.inputs["desiredSize"] == "3"
    assert "scalingConfig" not in pool.inputs


def test_pool_basics_and_management() -> None:
    pool = one(build(pool_facts("a10mps")), NODE_POOL)
    assert pool.inputs["clusterId"] == "c-123"
    assert pool.inputs["nodePoolName"] == "a10mps"
    assert pool.inputs["instanceTypes"] == ["ecs.gn7i-c8g1.2xlarge"]
    assert pool.inputs["vswitchIds"] == ["vsw-a", "vsw-b"]
    assert pool.inputs["tags"] == {"environment": "dev"}
    assert pool.inputs["management"] == {
        "enable": True,
        "autoUpgrade": True,
        "autoUpgradePolicy": {"autoUpgradeKubelet": True},
        "autoVulFix": True,
        "maxUnavailable": 1,
    }


@pytest.mark.parametrize("protect", [True, False])
def test_protect_follows_config(protect: bool) -> None:
    assert one(build(pool_facts("t4"), protect=protect), NODE_POOL).protect is protect


def test_gpu_mem_capacity_from_the_catalog() -> None:
    capacity = build(pool_facts("a10mps")).outputs["facts"]
    # One A10 (24 GiB) per node, up to 2 nodes.
    assert capacity == {
        "instanceType": "ecs.gn7i-c8g1.2xlarge",
        "gpuModel": "A10",
        "sharing": "ackMps",
        "perNode": {ALIYUN_GPU_MEM: 24},
        "nodes": {"min": 0, "max": 2},
        "total": {ALIYUN_GPU_MEM: 48},
    }


def test_gpu_mem_capacity_of_a_multi_gpu_type() -> None:
    pf = pool_facts("a10mps", instanceType="ecs.gn7i-c32g1.32xlarge", autoscale=None, count=2)
    capacity = build(pf).outputs["facts"]
    assert capacity["perNode"] == {ALIYUN_GPU_MEM: 96}
    assert capacity["total"] == {ALIYUN_GPU_MEM: 192}
    assert capacity["nodes"] == 2


def test_whole_gpu_capacity() -> None:
    capacity = build(pool_facts("t4")).outputs["facts"]
    assert capacity["perNode"] == {NVIDIA_GPU: 1}
    assert capacity["total"] == {NVIDIA_GPU: 3}


def test_child_parented_to_the_component() -> None:
    result = build(pool_facts("t4"))
    component = one(result, "gpu-platform:index:AckGpuNodePool")
    pool = one(result, NODE_POOL)
    assert pool.parent == component.urn
    assert pool.name == "gpu-t4-pool"


def test_system_disk_explicit_even_by_default() -> None:
    default = one(build(pool_facts("t4")), NODE_POOL).inputs
    assert (default["systemDiskCategory"], default["systemDiskSize"]) == ("cloud_essd", 120)
    assert default["systemDiskEncrypted"] is False
    encrypted = one(
        build(pool_facts("t4"), system_disk={"category": "cloud_auto", "encrypted": True}),
        NODE_POOL,
    ).inputs
    assert (encrypted["systemDiskCategory"], encrypted["systemDiskEncrypted"]) == (
        "cloud_auto",
        True,
    )


def test_bad_system_disk_is_refused() -> None:
    err = refused(
        lambda: AckGpuNodePool(
            "gpu-t4",
            {
                "cluster_id": "c-123",
                "vswitch_ids": ["vsw-a"],
                "pool": pool_facts("t4"),
                "system_disk": {"category": "cloud", "size_gib": 10},
            },
        )
    )
    assert paths(err) == ["systemDisk.category", "systemDisk.sizeGib"]
