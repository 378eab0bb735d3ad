"""ACK's GPU-sharing charts a config needs pinned: ``ack-ai-installer`` with any pool shared the
ACK way, ``ack-mps-control`` with MPS pools (an unpinned chart upgrades itself, and with it
crashes running MPS clients). The stack config's rules (under ``ackGpuSharing``) and the
AckGpuSharing component ask the same questions here."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from gpu_facts.ack.addons import ACK_PRO_PREFIX, needs_ack_pro
from gpu_facts.capacity import ACK_SHARING_MODES
from gpu_facts.scheduling import ACK_GPU_SCHEDULE_VALUES
from gpu_platform.settings import AckGpuSharingSettings

from ..problems import Problem
from .pools import ACK_MPS_MODE

CHART_VERSION = re.compile(r"^\d+\.\d+\.\d+$")
"""A chart version as ACK's app catalog names it: x.y.z."""
AI_INSTALLER_UNPINNED = "required with ACK GPU sharing: pin the chart"
MPS_CONTROL_UNPINNED = (
    "required with MPS pools: pin the chart (an upgrade crashes running GPU apps)"
)


def needs_ai_installer(modes: Iterable[str | None]) -> bool:
    """Any pool shared the ACK way (MPS, cGPU or share) needs ACK's shared-GPU scheduling."""
    return any(mode in ACK_SHARING_MODES for mode in modes)


def needs_mps_control(modes: Iterable[str | None]) -> bool:
    """Only MPS pools need the MPS control daemon."""
    return any(mode == ACK_MPS_MODE for mode in modes)


def pin_problems(pins: AckGpuSharingSettings, modes: Iterable[str | None]) -> Iterator[Problem]:
    """The charts the pools' sharing modes need, pinned, and every pin a chart version;
    relative to the pins (``ackGpuSharing``)."""
    modes = list(modes)
    if needs_ai_installer(modes) and pins.ai_installer_version is None:
        yield "aiInstallerVersion", AI_INSTALLER_UNPINNED
    if needs_mps_control(modes) and pins.mps_control_version is None:
        yield "mpsControlVersion", MPS_CONTROL_UNPINNED
    for key, version in (
        ("aiInstallerVersion", pins.ai_installer_version),
        ("mpsControlVersion", pins.mps_control_version),
    ):
        if version is not None and not CHART_VERSION.match(version):
            yield key, f"not a chart version (x.y.z): {version!r}"


def ack_pro_problems(cluster_spec: str, modes: Iterable[str | None]) -> Iterator[Problem]:
    """ACK's own sharing (MPS, cGPU, share) needs ACK Pro: once per mode the pools use, relative
    to the cluster (``clusterSpec``)."""
    if cluster_spec.startswith(ACK_PRO_PREFIX):
        return
    for mode in sorted({m for m in modes if m in ACK_SHARING_MODES}):
        yield "clusterSpec", needs_ack_pro(ACK_GPU_SCHEDULE_VALUES[mode])
