"""amd-smi in AMD's device plugin pod, the node label where it cannot run (verify.amd.smi)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_platform.verify.amd.smi import AmdSmiError, amd_smi_driver, parse_driver
from gpu_platform.verify.driver import ExecError, ExecTarget

SMI = Path(__file__).resolve().parents[2] / "data" / "amd_smi"
NODE = {"metadata": {"name": "mi-0", "labels": {"amd.com/gpu.driver-version": "6.12.12"}}}
TARGET = ExecTarget("mi-0", "amd-gpu-operator", "plugin-x", None)


def test_the_driver_amd_smi_reports() -> None:
    assert parse_driver((SMI / "static_driver.txt").read_text()) == "6.12.12"
    with pytest.raises(AmdSmiError, match="reports no version"):
        parse_driver((SMI / "static_driver_no_version.txt").read_text())
    with pytest.raises(AmdSmiError, match="the driver is radeon, not amdgpu"):
        parse_driver((SMI / "static_driver_other.txt").read_text())
    with pytest.raises(AmdSmiError, match="no DRIVER section"):
        parse_driver("amd-smi: command failed")


def test_the_label_where_amd_smi_cannot_run() -> None:
    def missing(target: ExecTarget) -> str:
        raise ExecError('exec: "amd-smi": executable file not found in $PATH')

    def refused(target: ExecTarget) -> str:
        raise ExecError("exec into amd-gpu-operator/plugin-x failed: 403 Forbidden")

    assert amd_smi_driver(NODE, TARGET, None).found == "amdgpu 6.12.12"
    assert amd_smi_driver(NODE, TARGET, missing).found == (
        "amdgpu 6.12.12 (amd-smi is not in plugin-x's image: read from the node label)"
    )
    row = amd_smi_driver(NODE, TARGET, refused)
    assert row.status == "pass" and "amd-smi in plugin-x failed: exec into" in row.found
    read = lambda target: (SMI / "static_driver.txt").read_text()  # noqa: E731
    assert amd_smi_driver(NODE, TARGET, read).found == (
        "amdgpu 6.12.12 (amd-smi static --driver in plugin-x)"
    )
