"""The AMD checks of ``make verify`` that need no cluster: the driver label, GPU health and the
exporter's GPU series (verify.amd.checks)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_facts.amd.metrics_exporter import unhealthy_gpus
from gpu_platform.verify.amd.checks import (
    READ_METRICS,
    amd_gpu_series,
    driver_version,
    gpu_health,
)
from gpu_platform.verify.exporter import Page, parse_page


def _node(labels: dict[str, str]) -> dict[str, Any]:
    return {"metadata": {"name": "n0", "labels": labels}}


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
    return parse_page("\n".join(lines) + "\n", READ_METRICS)


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
