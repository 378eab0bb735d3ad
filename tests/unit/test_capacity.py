"""The capacity model: what each kind of GPU pool offers the scheduler, per node and in total."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpu_facts import (
    ACK_SHARING_MODES,
    AZURE_VM_SIZES,
    DEVICE_PLUGIN_SHARING_MODES,
    ECS_INSTANCE_TYPES,
    GPU_MODELS,
    MIG_COMPUTE_SLICES,
    MIG_MEMORY_SLICES,
    Capacity,
    GpuModel,
    PoolShape,
    SharingMode,
    aks_mig_profile,
    azure_vm_size,
    ecs_instance_type,
    gpu_model,
    mig_profile,
    pool_capacity,
)
from gpu_facts.capacity import MigStrategy
from gpu_facts.scheduling import is_gpu_resource
from gpu_platform.stack_config import load_platform
from tests.stack_config.test_load import BASE
from tests.unit.test_gpu_facts import ACK_BASE, NAME_ROUNDING_GB


def azure_shape(
    size: str,
    aks_profile: str | None = None,
    strategy: MigStrategy | None = None,
    *,
    nodes: tuple[int, int] = (1, 1),
    sharing: SharingMode | None = None,
    replicas: int = 1,
    rename: bool = True,
) -> PoolShape:
    vm = azure_vm_size(size)
    model = gpu_model(vm.gpu_model)
    return PoolShape(
        gpu_model=model,
        gpus_per_node=vm.gpu_count,
        min_nodes=nodes[0],
        max_nodes=nodes[1],
        mig_profile=aks_mig_profile(model, aks_profile) if aks_profile else None,
        mig_strategy=strategy,
        sharing=sharing,
        replicas=replicas,
        rename_shared=rename,
    )


def ecs_shape(instance_type: str, sharing: SharingMode) -> PoolShape:
    it = ecs_instance_type(instance_type)
    return PoolShape(gpu_model(it.gpu_model), it.gpu_count, 1, 1, sharing=sharing)


@pytest.mark.parametrize(
    ("shape", "per_node"),
    [
        # No MIG: whole GPUs.
        (azure_shape("Standard_NC64as_T4_v3"), {"nvidia.com/gpu": 4}),
        (azure_shape("Standard_ND96isr_H100_v5"), {"nvidia.com/gpu": 8}),
        # MIG single: every instance is an nvidia.com/gpu (AKS doc: 56 on ND96asr_v4 + MIG1g).
        (azure_shape("Standard_ND96asr_v4", "MIG1g", "single"), {"nvidia.com/gpu": 56}),
        (azure_shape("Standard_ND96asr_v4", "MIG7g", "single"), {"nvidia.com/gpu": 8}),
        # MIG mixed: nvidia.com/mig-<profile>, GPUs × instances of the profile.
        (azure_shape("Standard_ND96asr_v4", "MIG1g", "mixed"), {"nvidia.com/mig-1g.5gb": 56}),
        (azure_shape("Standard_ND96asr_v4", "MIG2g", "mixed"), {"nvidia.com/mig-2g.10gb": 24}),
        (azure_shape("Standard_ND96asr_v4", "MIG3g", "mixed"), {"nvidia.com/mig-3g.20gb": 16}),
        (azure_shape("Standard_ND96asr_v4", "MIG4g", "mixed"), {"nvidia.com/mig-4g.20gb": 8}),
        (azure_shape("Standard_ND96asr_v4", "MIG7g", "mixed"), {"nvidia.com/mig-7g.40gb": 8}),
        (
            azure_shape("Standard_ND96amsr_A100_v4", "MIG1g", "mixed"),
            {"nvidia.com/mig-1g.10gb": 56},
        ),
        (
            azure_shape("Standard_NC96ads_A100_v4", "MIG2g", "mixed"),
            {"nvidia.com/mig-2g.20gb": 12},
        ),
        (azure_shape("Standard_NC40ads_H100_v5", "MIG1g", "mixed"), {"nvidia.com/mig-1g.12gb": 7}),
        (
            azure_shape("Standard_NC80adis_H100_v5", "MIG3g", "mixed"),
            {"nvidia.com/mig-3g.47gb": 4},
        ),
        (
            azure_shape("Standard_ND96isr_H100_v5", "MIG1g", "mixed"),
            {"nvidia.com/mig-1g.10gb": 56},
        ),
        (
            azure_shape("Standard_ND96isr_H200_v5", "MIG3g", "mixed"),
            {"nvidia.com/mig-3g.71gb": 16},
        ),
        # Time-slicing: devices × replicas, renamed .shared unless renameByDefault is off.
        (
            azure_shape("Standard_NC64as_T4_v3", sharing="timeSlicing", replicas=4),
            {"nvidia.com/gpu.shared": 16},
        ),
        (
            azure_shape("Standard_NC64as_T4_v3", sharing="timeSlicing", replicas=4, rename=False),
            {"nvidia.com/gpu": 16},
        ),
        (
            azure_shape("Standard_ND96asr_v4", "MIG1g", "mixed", sharing="timeSlicing", replicas=2),
            {"nvidia.com/mig-1g.5gb.shared": 112},
        ),
        (
            azure_shape(
                "Standard_ND96asr_v4", "MIG3g", "single", sharing="timeSlicing", replicas=3
            ),
            {"nvidia.com/gpu.shared": 48},
        ),
        # Device-plugin MPS: whole GPUs × replicas.
        (
            azure_shape("Standard_NC48ads_A100_v4", sharing="mps", replicas=3),
            {"nvidia.com/gpu.shared": 6},
        ),
        # ACK sharing: aliyun.com/gpu-mem in GiB = GiB per GPU × GPUs.
        (ecs_shape("ecs.gn7i-c8g1.2xlarge", "ackMps"), {"aliyun.com/gpu-mem": 24}),
        (ecs_shape("ecs.gn7i-c32g1.32xlarge", "ackMps"), {"aliyun.com/gpu-mem": 96}),
        (ecs_shape("ecs.gn6i-c24g1.24xlarge", "ackCgpu"), {"aliyun.com/gpu-mem": 64}),
        (ecs_shape("ecs.gn7e-c16g1.32xlarge", "ackShare"), {"aliyun.com/gpu-mem": 640}),
        (ecs_shape("ecs.gn8is-2x.8xlarge", "ackMps"), {"aliyun.com/gpu-mem": 96}),
    ],
)
def test_capacity_per_node(shape: PoolShape, per_node: dict[str, int]) -> None:
    assert pool_capacity(shape).per_node == per_node


def test_fixed_pool_output() -> None:
    capacity = pool_capacity(azure_shape("Standard_ND96asr_v4", "MIG1g", "mixed", nodes=(2, 2)))
    assert capacity.as_output() == {
        "perNode": {"nvidia.com/mig-1g.5gb": 56},
        "nodes": 2,
        "total": {"nvidia.com/mig-1g.5gb": 112},
    }


def test_autoscaled_pool_output_counts_the_most_nodes() -> None:
    capacity = pool_capacity(
        azure_shape("Standard_NC4as_T4_v3", nodes=(0, 3), sharing="timeSlicing", replicas=4)
    )
    assert capacity.as_output() == {
        "perNode": {"nvidia.com/gpu.shared": 4},
        "nodes": {"min": 0, "max": 3},
        "total": {"nvidia.com/gpu.shared": 12},
    }
    assert capacity.total_at(0) == {"nvidia.com/gpu.shared": 0}


def test_capacity_through_the_stack_config() -> None:
    platform = load_platform(copy.deepcopy(BASE))
    assert platform.pools["mig"].capacity.as_output() == {
        "perNode": {"nvidia.com/mig-1g.5gb": 56},
        "nodes": 1,
        "total": {"nvidia.com/mig-1g.5gb": 56},
    }
    assert platform.pools["t4"].capacity.as_output()["total"] == {"nvidia.com/gpu": 3}

    raw: dict[str, Any] = copy.deepcopy(ACK_BASE)
    raw["gpuPools"][0].update(instanceType="ecs.gn7i-c32g1.16xlarge", sharing={"mode": "mps"})
    raw["ackGpuSharing"] = {"aiInstallerVersion": "1.8.2", "mpsControlVersion": "1.1.0"}
    ack = load_platform(raw).pools["a10"].capacity
    assert ack.per_node == {"aliyun.com/gpu-mem": 48}


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"gpus_per_node": 0}, "gpus_per_node must be at least 1"),
        ({"min_nodes": 3, "max_nodes": 2}, "need 0 <= min_nodes <= max_nodes"),
        ({"min_nodes": -1}, "need 0 <= min_nodes <= max_nodes"),
        ({"mig_profile": "1g.5gb"}, "give a MIG profile and a MIG strategy together"),
        ({"mig_strategy": "mixed"}, "give a MIG profile and a MIG strategy together"),
        (
            {"mig_profile": "1g.12gb", "mig_strategy": "mixed"},
            "A100-40GB has no MIG profile '1g.12gb' (offered: 1g.5gb, 1g.5gb+me",
        ),
        (
            {"mig_profile": "1g.5gb", "mig_strategy": "mixed", "sharing": "mps", "replicas": 2},
            "MPS cannot share MIG devices",
        ),
        (
            {"mig_profile": "1g.5gb", "mig_strategy": "single", "sharing": "ackMps"},
            "ackMps shares whole GPUs, not MIG devices",
        ),
        ({"replicas": 4}, "replicas apply to timeSlicing and mps sharing only"),
        ({"sharing": "timeSlicing", "replicas": 0}, "replicas must be at least 1"),
    ],
)
def test_inconsistent_shapes_are_refused(changes: dict[str, Any], fragment: str) -> None:
    fields: dict[str, Any] = {
        "gpu_model": GPU_MODELS["A100-40GB"],
        "gpus_per_node": 8,
        "min_nodes": 1,
        "max_nodes": 1,
    }
    with pytest.raises(ValueError, match="invalid GPU pool shape") as err:
        PoolShape(**(fields | changes))
    assert fragment in str(err.value)


def test_no_mig_on_a_gpu_without_it() -> None:
    with pytest.raises(ValueError, match=r"T4 has no MIG profile '1g.5gb' \(offered: none\)"):
        PoolShape(GPU_MODELS["T4"], 1, 1, 1, mig_profile="1g.5gb", mig_strategy="single")


# --- Properties over every pool the catalog can describe ------------------------------------


@st.composite
def pool_shapes(draw: st.DrawFn) -> PoolShape:
    """Any consistent pool: a catalog GPU, a node range, MIG or not, any sharing it allows."""
    model = draw(st.sampled_from(sorted(GPU_MODELS.values(), key=lambda m: m.name)))
    gpus = draw(
        st.sampled_from(
            sorted(
                {s.gpu_count for s in AZURE_VM_SIZES.values()}
                | {t.gpu_count for t in ECS_INSTANCE_TYPES.values()}
            )
        )
    )
    min_nodes = draw(st.integers(0, 50))
    max_nodes = draw(st.integers(min_nodes, 100))
    profile: str | None = None
    strategy: MigStrategy | None = None
    if model.mig_capable and draw(st.booleans()):
        profile = draw(st.sampled_from([p.name for p in model.mig_profiles]))
        strategy = draw(st.sampled_from(["single", "mixed"]))
    modes: list[SharingMode | None] = [None, "timeSlicing"]
    if profile is None:
        modes += ["mps", "ackMps", "ackCgpu", "ackShare"]
    sharing = draw(st.sampled_from(modes))
    replicas = draw(st.integers(1, 64)) if sharing in DEVICE_PLUGIN_SHARING_MODES else 1
    return PoolShape(
        gpu_model=model,
        gpus_per_node=gpus,
        min_nodes=min_nodes,
        max_nodes=max_nodes,
        mig_profile=profile,
        mig_strategy=strategy,
        sharing=sharing,
        replicas=replicas,
        rename_shared=draw(st.booleans()),
    )


def _instances_per_gpu(shape: PoolShape, capacity: Capacity) -> int:
    (count,) = capacity.per_node.values()
    devices, rest = divmod(count, shape.gpus_per_node * shape.replicas)
    assert rest == 0
    return devices


@given(pool_shapes())
def test_totals_are_per_node_times_nodes(shape: PoolShape) -> None:
    capacity = pool_capacity(shape)
    assert len(capacity.per_node) == 1
    assert all(is_gpu_resource(name) and n > 0 for name, n in capacity.per_node.items())
    assert capacity.total == {r: n * shape.max_nodes for r, n in capacity.per_node.items()}
    output = capacity.as_output()
    nodes = output["nodes"]
    if shape.min_nodes == shape.max_nodes:
        assert nodes == shape.max_nodes
    else:
        assert nodes == {"min": shape.min_nodes, "max": shape.max_nodes}
    assert output["total"] == capacity.total
    assert capacity.total_at(shape.min_nodes) == {
        r: n * shape.min_nodes for r, n in capacity.per_node.items()
    }


@given(pool_shapes())
def test_mig_instances_never_exceed_seven_per_gpu(shape: PoolShape) -> None:
    capacity = pool_capacity(shape)
    if shape.sharing in ACK_SHARING_MODES:
        assert capacity.per_node == {
            "aliyun.com/gpu-mem": shape.gpu_model.memory_gib * shape.gpus_per_node
        }
        return
    per_gpu = _instances_per_gpu(shape, capacity)
    assert 1 <= per_gpu <= MIG_COMPUTE_SLICES
    if shape.mig_profile is None:
        assert per_gpu == 1
    else:
        profile = mig_profile(shape.gpu_model, shape.mig_profile)
        assert per_gpu * profile.compute_slices <= MIG_COMPUTE_SLICES


@given(pool_shapes())
def test_memory_of_instances_never_exceeds_the_gpus(shape: PoolShape) -> None:
    model: GpuModel = shape.gpu_model
    capacity = pool_capacity(shape)
    if shape.sharing in ACK_SHARING_MODES:
        # ACK hands out GPU memory itself: never more than the GPUs of the node hold.
        assert capacity.per_node["aliyun.com/gpu-mem"] <= model.memory_gib * shape.gpus_per_node
        return
    if shape.mig_profile is None:
        return
    profile = mig_profile(model, shape.mig_profile)
    per_gpu = _instances_per_gpu(shape, capacity)
    # Exact: memory slices of the instances fit in the GPU's eight.
    assert per_gpu * profile.memory_eighths <= MIG_MEMORY_SLICES
    # By name: the names round (H200 3g.71gb × 2 = 142 GB > 141 GB), by at most half a GB each.
    assert per_gpu * profile.memory_gb <= model.memory_gib + per_gpu * NAME_ROUNDING_GB
