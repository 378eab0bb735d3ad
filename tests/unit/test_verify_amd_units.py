"""The AMD pieces of ``make verify`` that need no cluster: expectations from the stack config
(readiness/amd_expectations.py), the pure checks (readiness/amd_checks.py) and the exporter's
port (readiness/amd_verify.py). The fake-API-server scenarios: tests/stacks/test_verify_amd.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gpu_facts.amd_metrics_exporter import unhealthy_gpus
from gpu_facts.scheduling import GPU_PRESENT_LABEL, WORKLOAD_LABEL_PREFIX
from gpu_platform.verify.amd_checks import (
    amd_gpu_series,
    driver_version,
    gpu_health,
    parse_amd_page,
)
from gpu_platform.verify.amd_expectations import amd_expectation
from gpu_platform.verify.amd_verify import exporter_port
from gpu_platform.verify.cli import load_stack
from gpu_platform.verify.expectations import GpuDaemon, expectations
from gpu_platform.verify.exporter import Page

ROOT = Path(__file__).resolve().parents[2]


def _node(labels: dict[str, str]) -> dict[str, Any]:
    return {"metadata": {"name": "n0", "labels": labels}}


# --- expectations ---------------------------------------------------------------------------


def test_amd_dev_stack_expects_the_amd_pool_from_what_the_stack_builds() -> None:
    platform = load_stack(ROOT, "amd-dev", None)
    amd = amd_expectation(platform)
    assert amd is not None
    assert amd.namespace == "amd-gpu-operator"
    assert amd.workload_namespaces == ["gpu-training"]
    (pool,) = amd.pools
    assert (pool.device_config, pool.gpus) == ("mi300x", 8)
    assert pool.operands() == [
        ("mi300x-device-plugin", "AMD device plugin"),
        ("mi300x-node-labeller", "AMD node labeller"),
        ("mi300x-metrics-exporter", "AMD metrics exporter"),
    ]
    assert str(pool.pool.taint) == "amd.com/gpu=present:NoSchedule"
    assert pool.pool.allocatable == {"amd.com/gpu": 8}
    assert pool.pool.daemon is GpuDaemon.AMD_DEVICE_PLUGIN
    assert pool.pool.gfd is False
    # Our labels (the training namespace may use it), none of NVIDIA's plugin labels.
    assert pool.pool.labels == {f"{WORKLOAD_LABEL_PREFIX}training": "true"}
    assert GPU_PRESENT_LABEL not in pool.pool.labels
    # NVIDIA's checks get the T4 pool only, and dcgm-exporter watches it only.
    exp = expectations(platform)
    assert [p.name for p in exp.pools] == ["t4"]
    assert exp.exporter is not None
    assert list(exp.exporter.pools) == ["t4"]
    # The training namespace runs on the AMD pool only: AMD's attribution row, not dcgm's.
    assert {ns.name: ns.amd_only for ns in exp.namespaces} == {
        "gpu-training": True,
        "gpu-inference": False,
    }


@pytest.mark.parametrize("stack", ["dev", "prod", "ack-dev", "byo", "amd-dev"])
def test_every_pool_is_checked_once_by_its_vendor(stack: str) -> None:
    platform = load_stack(ROOT, stack, None)
    amd = amd_expectation(platform)
    amd_names = [p.pool.name for p in amd.pools] if amd else []
    nvidia_names = [p.name for p in expectations(platform).pools]
    assert sorted(amd_names + nvidia_names) == sorted(platform.pools)
    assert set(amd_names) == {name for name, pf in platform.pools.items() if pf.is_amd}


def test_a_stack_without_amd_pools_has_no_amd_expectation() -> None:
    assert amd_expectation(load_stack(ROOT, "dev", None)) is None


# --- the checks -----------------------------------------------------------------------------


def test_driver_version_from_the_labeller_label() -> None:
    assert driver_version(_node({"amd.com/gpu.driver-version": "6.12.12"})).status == "pass"
    missing = driver_version(_node({}))
    assert missing.status == "fail"
    assert missing.found.startswith("no amd.com/gpu.driver-version label")
    empty = driver_version(_node({"amd.com/gpu.driver-version": ""}))
    assert empty.status == "fail"
    assert "no amdgpu driver loaded" in empty.found


def test_unhealthy_gpus_are_read_from_the_exporters_node_labels() -> None:
    labels = {
        "metricsexporter.amd.com.gpu.5.state": "unhealthy",
        "metricsexporter.amd.com.gpu.1.state": "unhealthy",
        "metricsexporter.amd.com.gpu.2.state": "healthy",  # not the exporter's: ignored
        "amd.com/gpu.driver-version": "6.12.12",
    }
    assert unhealthy_gpus(labels) == ["5", "1"]
    row = gpu_health(_node(labels))
    assert row.status == "fail"
    assert row.found.startswith("GPU 5, 1 unhealthy (metricsexporter.amd.com.gpu.5.state=")
    assert gpu_health(_node({})).status == "pass"


def _page(gpus: int, health: dict[int, int] | None = None) -> Page:
    lines = [f'gpu_gfx_activity{{gpu_id="{g}",pod="",namespace=""}} 0' for g in range(gpus)]
    lines += [f'gpu_health{{gpu_id="{g}"}} {v}' for g, v in (health or {}).items()]
    lines.append('gpu_junction_temperature{gpu_id="0"} 40')  # not read
    return parse_amd_page("\n".join(lines) + "\n")


def test_the_page_keeps_only_the_series_the_checks_read() -> None:
    assert {s.name for s in _page(2, {0: 1}).samples} == {"gpu_gfx_activity", "gpu_health"}


@pytest.mark.parametrize(
    ("page", "status", "found"),
    [
        (_page(8), "pass", "8 GPUs"),
        (_page(8, {3: 1}), "pass", "8 GPUs"),
        (_page(8, {3: 0}), "fail", "8 GPUs; gpu_health 0 (unhealthy) on GPU 3"),
        (
            _page(64),
            "fail",
            "64 GPUs (56 more than the 8 the stack config promises: the GPUs are partitioned, "
            "or the VM size is not the pool's)",
        ),
        (_page(0), "fail", "no gpu_gfx_activity series: the exporter's config leaves it out"),
        (Page(error="boom"), "fail", "boom"),
        (None, "fail", "unknown: no ready AMD metrics exporter pod on the node"),
    ],
)
def test_gpu_series(page: Page | None, status: str, found: str) -> None:
    row = amd_gpu_series("n0", 8, page, "")
    assert (row.expected, row.status, row.found) == ("8 GPUs in gpu_gfx_activity", status, found)


def test_gpu_series_skipped() -> None:
    row = amd_gpu_series("n0", 8, None, "not checked (--skip-metrics)")
    assert (row.status, row.found) == ("skip", "not checked (--skip-metrics)")


def test_exporter_port_is_the_named_container_port() -> None:
    pod = {
        "spec": {
            "containers": [
                {"ports": [{"name": "grpc", "containerPort": 50061}]},
                {"ports": [{"name": "exporter-port", "containerPort": 5001}]},
            ]
        }
    }
    assert exporter_port(pod, 5000) == 5001
    assert exporter_port({"spec": {"containers": [{}]}}, 5000) == 5000
