"""readiness.mig_devices: ``nvidia-smi -L`` of one node against the pool's MIG layout."""

from __future__ import annotations

from pathlib import Path

from gpu_platform.verify.mig_devices import mig_devices
from gpu_platform.verify.seed_expectations import MigLayout

DATA = Path(__file__).parents[1] / "data"
MIG1G = MigLayout("1g.5gb", 7, 8)


def test_the_recorded_nd96asr_v4_list_matches_mig1g() -> None:
    row = mig_devices("n", MIG1G, (DATA / "verify" / "exec" / "a100_mig_list.txt").read_text())
    assert (row.status, row.expected, row.found) == (
        "pass",
        "8 GPUs × 7 MIG 1g.5gb on each",
        "8 GPUs, 56 MIG 1g.5gb devices",
    )


def test_a_mixed_layout_is_shown_per_gpu() -> None:
    """tests/data/nvidia_smi/a100_mig_list.txt: GPU 0 mixed by hand, GPU 1 one 7g.40gb."""
    row = mig_devices(
        "n", MigLayout("3g.20gb", 2, 2), (DATA / "nvidia_smi" / "a100_mig_list.txt").read_text()
    )
    assert row.status == "fail"
    assert row.found == (
        "2 GPUs, 1 MIG 3g.20gb device of 4: GPU 0: 2 1g.5gb, 1 2g.10gb, 1 3g.20gb; GPU 1: 1 7g.40gb"
    )


def test_a_missing_gpu_fails() -> None:
    listing = "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-0000aaaa-1111-2222-3333-444455556666)\n"
    listing += "".join(
        f"  MIG 1g.5gb      Device  {d}: (UUID: MIG-0000000{d}-aaaa-5bbb-cccc-dddddddddddd)\n"
        for d in range(7)
    )
    row = mig_devices("n", MIG1G, listing)
    assert (row.status, row.found) == (
        "fail",
        "1 GPU, 7 MIG 1g.5gb devices of 56: 1 GPU listed, the VM size has 8",
    )


def test_nothing_listed_or_failure_text_fails() -> None:
    assert mig_devices("n", MIG1G, "").found == "nvidia-smi -L listed no GPU"
    row = mig_devices("n", MIG1G, "No devices were found\n")
    assert (row.status, row.found) == ("fail", "nvidia-smi failed: No devices were found")
