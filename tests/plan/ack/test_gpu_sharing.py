"""ACK's sharing charts pinned when the pools need them (plan.ack.gpu_sharing)."""

from __future__ import annotations

from gpu_facts.ack.addons import needs_ack_pro
from gpu_platform.plan.ack.gpu_sharing import (
    AI_INSTALLER_UNPINNED,
    MPS_CONTROL_UNPINNED,
    ack_pro_problems,
    needs_ai_installer,
    needs_mps_control,
    pin_problems,
)
from gpu_platform.settings import AckGpuSharingSettings


def test_what_the_pools_need() -> None:
    assert needs_ai_installer(["ackCgpu", None]) and not needs_mps_control(["ackCgpu"])
    assert needs_mps_control(["ackMps"])
    assert not needs_ai_installer(["timeSlicing", None])


def test_pins() -> None:
    none = AckGpuSharingSettings()
    assert list(pin_problems(none, ["timeSlicing"])) == []
    assert list(pin_problems(none, ["ackMps"])) == [
        ("aiInstallerVersion", AI_INSTALLER_UNPINNED),
        ("mpsControlVersion", MPS_CONTROL_UNPINNED),
    ]
    bad = AckGpuSharingSettings(ai_installer_version="latest", mps_control_version="1.2.3")
    assert list(pin_problems(bad, ["ackMps"])) == [
        ("aiInstallerVersion", "not a chart version (x.y.z): 'latest'")
    ]


def test_acks_own_sharing_needs_ack_pro_once_per_mode() -> None:
    modes = ["ackMps", "ackMps", "ackCgpu", "timeSlicing", None]
    assert list(ack_pro_problems("ack.standard", modes)) == [
        ("clusterSpec", needs_ack_pro("cgpu")),
        ("clusterSpec", needs_ack_pro("mps")),
    ]
    assert list(ack_pro_problems("ack.pro.small", modes)) == []
    assert list(ack_pro_problems("ack.standard", ["timeSlicing"])) == []
