"""What makes a CPU pool, asked by the stack config and the CPU pool components alike
(plan.cpu_pools)."""

from __future__ import annotations

from typing import Any

from gpu_platform.plan.cpu_pools import (
    azure_size_problem,
    cpu_node_labels,
    cpu_pool_problems,
    ecs_type_problem,
    machine_problems,
)
from gpu_platform.settings import CpuPoolSettings


def pool(**fields: Any) -> CpuPoolSettings:
    return CpuPoolSettings.model_validate({"name": "general", "count": 1, **fields})


def test_sizes_and_types_without_gpus() -> None:
    assert azure_size_problem("Standard_D4ds_v5") is None
    assert azure_size_problem("Standard_NC4as_T4_v3") == (
        "Standard_NC4as_T4_v3 is a GPU (N-series) size; GPU nodes belong in a GPU pool"
    )
    assert "not an Azure VM size" in (azure_size_problem("D4ds_v5") or "")
    assert ecs_type_problem("ecs.g7.xlarge") is None
    assert "GPU instance type" in (ecs_type_problem("ecs.gn7i-c8g1.2xlarge") or "")


def test_the_clouds_kind_of_machine_type_first() -> None:
    assert [p for p, _ in machine_problems("aks", pool(instanceType="ecs.g7.xlarge"))] == [
        "vmSize",
        "instanceType",
    ]
    assert [p for p, _ in machine_problems("ack", pool(vmSize="Standard_D4ds_v5"))] == [
        "instanceType",
        "vmSize",
    ]


def test_every_rule_of_a_cpu_pool() -> None:
    bad = pool(
        name="system",
        vmSize="Standard_NC4as_T4_v3",
        autoscale={"min": 0, "max": 2},
        labels={"nvidia.com/gpu.present": "true"},
        zones=["4"],
    )
    assert [path for path, _ in cpu_pool_problems("aks", bad)] == [
        "name",
        "vmSize",
        "",
        "labels.nvidia.com/gpu.present",
    ]
    # Zones are judged where the region or the vSwitches are known (plan.zones), not here.
    ack = pool(instanceType="ecs.g7.xlarge", zones=["cn-hangzhou-x"])
    assert cpu_pool_problems("ack", ack) == []


def test_a_cpu_pools_nodes_carry_its_name() -> None:
    assert cpu_node_labels("general", {"team": "a"}) == {
        "team": "a",
        "gpu-platform.io/pool": "general",
    }
