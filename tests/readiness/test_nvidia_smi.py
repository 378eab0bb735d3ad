"""readiness.nvidia_smi against recorded nvidia-smi output (tests/data/nvidia_smi/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpu_platform.verify.nvidia_smi import (
    DriverInfo,
    GpuDevice,
    MigDevice,
    NvidiaSmiError,
    parse_driver_version,
    parse_gpu_list,
)

DATA = Path(__file__).parents[1] / "data" / "nvidia_smi"


def sample(name: str) -> str:
    return (DATA / name).read_text()


def test_h100_default_table() -> None:
    assert parse_driver_version(sample("h100_table.txt")) == DriverInfo("550.54.15", 550, "12.4")


def test_old_t4_table() -> None:
    info = parse_driver_version(sample("t4_old_driver_table.txt"))
    assert info == DriverInfo("470.82.01", 470, "11.4")
    assert not info.at_least(535)
    assert info.at_least(470)


def test_csv_query_one_line_per_gpu() -> None:
    assert parse_driver_version(sample("query_driver_version.csv")) == DriverInfo(
        "550.54.15", 550, None
    )


def test_version_flag_output() -> None:
    assert parse_driver_version(sample("version_flag.txt")) == DriverInfo("550.54.15", 550, "12.4")


def test_cuda_not_available_is_none() -> None:
    text = "| NVIDIA-SMI 560.35.03   Driver Version: 560.35.03   CUDA Version: N/A |"
    assert parse_driver_version(text) == DriverInfo("560.35.03", 560, None)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("failure_no_driver.txt", "couldn't communicate with the NVIDIA driver"),
        ("failure_version_mismatch.txt", "Driver/library version mismatch"),
    ],
)
def test_failure_output_raises_with_the_tools_message(name: str, message: str) -> None:
    with pytest.raises(NvidiaSmiError, match=message):
        parse_driver_version(sample(name))
    with pytest.raises(NvidiaSmiError, match=message):
        parse_gpu_list(sample(name))


@pytest.mark.parametrize("text", ["", "  \n", "hello\n", "550.54.15\nnot-a-version\n"])
def test_unrecognised_driver_output_raises(text: str) -> None:
    with pytest.raises(NvidiaSmiError):
        parse_driver_version(text)


def test_mixed_driver_versions_on_one_node_raise() -> None:
    with pytest.raises(NvidiaSmiError, match="different driver versions"):
        parse_driver_version("550.54.15\n535.104.05\n")


def test_a100_mig_list() -> None:
    gpus = parse_gpu_list(sample("a100_mig_list.txt"))
    assert [(g.index, g.model, g.uuid) for g in gpus] == [
        (0, "NVIDIA A100-SXM4-40GB", "GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77"),
        (1, "NVIDIA A100-SXM4-40GB", "GPU-86d3b4f0-2e2c-8d67-1a0f-3b7a5c9e1d24"),
    ]
    assert [m.profile for m in gpus[0].mig_devices] == ["3g.20gb", "2g.10gb", "1g.5gb", "1g.5gb"]
    assert gpus[0].mig_devices[0] == MigDevice(
        0, "3g.20gb", "MIG-c6d4f1ef-42e4-5de3-91c7-45d71c87eb3f"
    )
    assert gpus[1].mig_devices == (
        MigDevice(0, "7g.40gb", "MIG-3e4f5a6b-7c8d-5e9f-a0b1-c2d3e4f5a6b7"),
    )
    assert all(g.mig_enabled for g in gpus)


def test_gpu_list_without_mig_and_r450_mig_uuids() -> None:
    text = (
        "GPU 0: Tesla T4 (UUID: GPU-1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e)\n"
        "GPU 1: NVIDIA A100-PCIE-40GB (UUID: GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee)\n"
        "  MIG 1g.5gb Device 0: (UUID: MIG-GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/7/0)\n"
    )
    gpus = parse_gpu_list(text)
    assert gpus[0] == GpuDevice(0, "Tesla T4", "GPU-1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e")
    assert not gpus[0].mig_enabled
    assert gpus[1].mig_devices == (
        MigDevice(0, "1g.5gb", "MIG-GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/7/0"),
    )


def test_empty_gpu_list_is_empty() -> None:
    assert parse_gpu_list("") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("No devices were found\n", "No devices were found"),
        ("  MIG 1g.5gb      Device  0: (UUID: MIG-x)\n", "before any GPU"),
        ("GPU 0: Tesla T4\n", "unrecognised"),
    ],
)
def test_bad_gpu_list_raises(text: str, message: str) -> None:
    with pytest.raises(NvidiaSmiError, match=message):
        parse_gpu_list(text)


@given(
    major=st.integers(min_value=10, max_value=9999),
    minor=st.integers(min_value=0, max_value=999),
    patch=st.integers(min_value=0, max_value=99),
)
def test_any_csv_version_round_trips(major: int, minor: int, patch: int) -> None:
    version = f"{major}.{minor}.{patch:02d}"
    info = parse_driver_version(version + "\n")
    assert (info.version, info.major) == (version, major)
