"""readiness.mps_server: an MPS node's ``nvidia-smi`` table (process list, compute modes) and the
GPU pods running on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_platform.verify.mps_server import is_mps_server, mps_server
from gpu_platform.verify.nvidia_smi import GpuProcess

SMI = Path(__file__).parents[1] / "data" / "nvidia_smi"


def table(name: str) -> str:
    return (SMI / name).read_text()


@pytest.mark.parametrize(
    ("name", "server"),
    [
        ("nvidia-cuda-mps-server", True),
        ("/usr/bin/nvidia-cuda-mps-server", True),
        ("...a-mps-server", True),  # a long path cut to its end
        ("...", False),
        ("nvidia-cuda-mps-control", False),
        ("python", False),
    ],
)
def test_the_server_is_told_by_its_executable(name: str, server: bool) -> None:
    assert is_mps_server(GpuProcess(0, 1, "C", name, "30MiB")) is server


def test_server_and_client_pass() -> None:
    row = mps_server("n", table("a10_mps_table.txt"), ["trainer-0"])
    assert (row.status, row.found) == (
        "pass",
        "nvidia-cuda-mps-server running (PID 214077 on GPU 0), 1 MPS client; GPU 0 in E. Process",
    )


def test_a_gpu_left_out_of_mps_fails_even_with_a_server() -> None:
    row = mps_server("n", table("v100x2_r470_processes.txt"), [])
    assert row.status == "fail"
    assert row.found == (
        "nvidia-cuda-mps-server running (PID 48211 on GPU 0), 1 MPS client; GPU 0 in E. Process; "
        "GPU 1 in Default compute mode, not E. Process: the MPS control daemon has not taken it "
        "(see its log)"
    )


def test_clients_seen_by_nvidia_smi_without_a_server_fail() -> None:
    """No GPU pod known to the API (say, a container started beside Kubernetes), yet an M+C."""
    text = table("a10_mps_table.txt").replace("nvidia-cuda-mps-server", "some-other-process    ")
    row = mps_server("n", text, [])
    assert row.status == "fail"
    assert row.found.startswith(
        "no nvidia-cuda-mps-server while GPU pods run on the node (1 M+C process)"
    )


def test_an_idle_node_needs_no_server() -> None:
    row = mps_server("n", table("a10_mps_idle_table.txt"), [])
    assert row.status == "pass"


def test_output_that_is_not_the_table_fails() -> None:
    row = mps_server("n", table("a100_mig_list.txt"), [])
    assert (row.status, row.found) == (
        "fail",
        "no process list in the nvidia-smi output (not the default table?)",
    )
