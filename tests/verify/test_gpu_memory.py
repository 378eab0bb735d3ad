"""verify.gpu_memory: ACK's per-GPU ``aliyun.com/gpu-mem`` books as ``kubectl inspect cgpu``
keeps them (gpushare-device-plugin ``cmd/inspect``)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_platform.verify.gpu_memory import gpu_memory, ledger, pod_gpu_index, pod_gpu_mem
from gpu_platform.verify.seed_expectations import SeedPool

TWO_A10 = SeedPool("a10x2", gpus=2, gpu_mem_ledger=True)


def node(gpu_mem: str | None = "44", count: str | None = "2") -> dict[str, Any]:
    allocatable = {"cpu": "32"}
    if gpu_mem is not None:
        allocatable["aliyun.com/gpu-mem"] = gpu_mem
    if count is not None:
        allocatable["aliyun.com/gpu-count"] = count
    return {"metadata": {"name": "cn-hangzhou.10.1.0.7"}, "status": {"allocatable": allocatable}}


def pod(name: str, *gib: int, index: object = "0", phase: str = "Running") -> dict[str, Any]:
    annotations = {} if index is None else {"ALIYUN_COM_GPU_MEM_IDX": index}
    containers = [
        {"name": f"c{i}", "resources": {"limits": {"aliyun.com/gpu-mem": str(g)}}}
        for i, g in enumerate(gib)
    ]
    return {
        "metadata": {"name": name, "annotations": annotations},
        "spec": {"containers": containers},
        "status": {"phase": phase},
    }


def test_containers_add_up_and_the_index_picks_the_gpu() -> None:
    assert pod_gpu_mem(pod("p", 4, 6)) == 10
    assert pod_gpu_mem({"spec": {"containers": [{"resources": {"limits": {"cpu": "1"}}}]}}) == 0
    assert pod_gpu_index(pod("p", 1, index="1")) == 1


@pytest.mark.parametrize("index", [None, "", "0,1", "-1", 1.5])
def test_no_whole_index_is_pending(index: object) -> None:
    assert pod_gpu_index(pod("p", 1, index=index)) is None


def test_the_books_of_a_two_gpu_node() -> None:
    pods = [
        pod("a", 8, index="0"),
        pod("b", 6, index="1"),
        pod("c", 4, index=None),
        pod("done", 22, index="0", phase="Succeeded"),
        pod("failed", 22, index="1", phase="Failed"),
        pod("cpu-only", 0, index=None),
    ]
    book = ledger(node(), pods, 2)
    assert [(g.index, g.allocated, g.total, g.pods) for g in book.gpus] == [
        (0, 8, 22, ["a 8"]),
        (1, 6, 22, ["b 6"]),
    ]
    assert (book.pending.allocated, book.pending.pods) == (4, ["c 4"])
    row = gpu_memory(node(), pods, TWO_A10)
    assert (row.status, row.found) == (
        "pass",
        "GPU0 8/22, GPU1 6/22, pending 4 (c 4); node 18/44 GiB",
    )


def test_a_gpu_the_node_does_not_have_fails() -> None:
    row = gpu_memory(node(), [pod("lost", 4, index="3")], TWO_A10)
    assert row.status == "fail"
    assert row.found == (
        "GPU0 0/22, GPU1 0/22, GPU3 4/0; node 4/44 GiB (GPU3 over by 4 (lost 4): no such GPU on "
        "the node)"
    )


def test_pending_over_the_node_fails() -> None:
    row = gpu_memory(node(), [pod("a", 20, index="0"), pod("q", 30, index=None)], TWO_A10)
    assert row.status == "fail"
    assert row.found.endswith("; node 50/44 GiB (node over by 6)")


def test_a_gpu_count_other_than_the_instance_types_fails() -> None:
    row = gpu_memory(node(count="1"), [], TWO_A10)
    assert (row.status, row.found) == (
        "fail",
        "GPU0 0/44; node 0/44 GiB (aliyun.com/gpu-count 1, the instance type has 2)",
    )


def test_a_gpu_count_above_the_instance_types_splits_as_the_tool_does() -> None:
    """4 GPUs advertised on a 2-GPU type: ``kubectl inspect cgpu`` splits 44 GiB four ways."""
    row = gpu_memory(node(count="4"), [pod("b", 10, index="3")], TWO_A10)
    assert (row.status, row.found) == (
        "fail",
        "GPU0 0/11, GPU1 0/11, GPU3 10/11; node 10/44 GiB "
        "(aliyun.com/gpu-count 4, the instance type has 2)",
    )


def test_a_nonsense_gpu_count_fails_without_building_its_books() -> None:
    row = gpu_memory(node(count=str(10**12)), [pod("a", 4, index="1")], TWO_A10)
    assert (row.status, row.found) == (
        "fail",
        "GPU0 0/0, GPU1 4/0; node 4/44 GiB (GPU1 over by 4 (a 4); "
        "aliyun.com/gpu-count 1000000000000, the instance type has 2)",
    )


def test_a_node_without_gpu_memory_fails() -> None:
    row = gpu_memory(node(gpu_mem=None), [], TWO_A10)
    assert (row.status, row.found) == (
        "fail",
        "the node advertises no aliyun.com/gpu-mem: ACK's GPU sharing does not serve it",
    )
