"""ACK GPU sharing: ``ack-ai-installer`` (shared-GPU scheduling and device plugin) and
``ack-mps-control`` (the MPS control daemon), Helm charts of ACK's app catalog.

ACK installs both from its Marketplace (app catalog) as Helm releases in ``kube-system``; the
cluster add-on API does not know them, so they are Helm releases here too (docs/ack.md says
where this comes from). Restarting the MPS control daemon crashes every MPS client on the
node, so unless the config allows changing it the ``ack-mps-control`` release is protected
(no delete, no replace) and Pulumi ignores changes to its chart, version and values (no
in-place upgrade): set ``allowMpsControlChanges`` for a planned, off-peak change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

import pulumi
import pulumi_kubernetes as k8s

from gpu_facts.ack_components import (
    ACK_CHART_REPO,
    ACK_SYSTEM_NAMESPACE,
    AI_INSTALLER_CHART,
    MPS_CONTROL_CHART,
)
from gpu_facts.scheduling import ACK_GPU_SCHEDULE_VALUES
from plan.pools import PoolFacts
from settings import AckGpuSharingSettings

FROZEN_INPUTS = ["chart", "version", "values", "repositoryOpts"]
"""Inputs of a frozen release whose changes Pulumi ignores (an upgrade restarts its pods)."""


class AckGpuSharingArgs(TypedDict):
    components: AckGpuSharingSettings
    """Pinned chart versions and the switch that allows changing ack-mps-control."""
    pools: Sequence[PoolFacts]
    """The cluster's GPU pools: their sharing modes decide what is installed."""


def needs_ai_installer(pools: Sequence[PoolFacts]) -> bool:
    """Any pool shared the ACK way (MPS, cGPU or share) needs ACK's shared-GPU scheduling."""
    return any(pf.sharing in ACK_GPU_SCHEDULE_VALUES for pf in pools)


def needs_mps_control(pools: Sequence[PoolFacts]) -> bool:
    """Only MPS pools need the MPS control daemon."""
    return any(pf.is_ack_mps for pf in pools)


class AckGpuSharing(pulumi.ComponentResource):
    """The ACK GPU-sharing components the cluster's pools need, at pinned versions."""

    releases: list[k8s.helm.v3.Release]
    """The Helm releases installed (none when no pool shares GPUs the ACK way)."""
    versions: pulumi.Output[dict[str, str]]
    """Chart name -> pinned version of every installed component."""

    def __init__(
        self, name: str, args: AckGpuSharingArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        components, pools = args["components"], args["pools"]
        wanted: list[tuple[str, str | None, bool]] = []
        if needs_ai_installer(pools):
            wanted.append((AI_INSTALLER_CHART, components.ai_installer_version, False))
        if needs_mps_control(pools):
            frozen = not components.allow_mps_control_changes
            wanted.append((MPS_CONTROL_CHART, components.mps_control_version, frozen))
        # Refuse before registering anything: an unpinned chart must change nothing.
        missing = [chart for chart, version, _ in wanted if version is None]
        if missing:
            raise ValueError(f"pin the chart version of {', '.join(missing)} (ackGpuSharing)")
        super().__init__("gpu-platform:alicloud:AckGpuSharing", name, None, opts)

        self.releases = [
            k8s.helm.v3.Release(
                f"{name}-{chart}",
                chart=chart,
                version=version,
                repository_opts=k8s.helm.v3.RepositoryOptsArgs(repo=ACK_CHART_REPO),
                # The console's release names, so `helm ls` reads the same either way.
                name=chart,
                namespace=ACK_SYSTEM_NAMESPACE,
                opts=pulumi.ResourceOptions(
                    parent=self, protect=frozen, ignore_changes=FROZEN_INPUTS if frozen else None
                ),
            )
            for chart, version, frozen in wanted
        ]
        self.versions = pulumi.Output.from_input(
            {chart: version for chart, version, _ in wanted if version is not None}
        )
        self.register_outputs({"versions": self.versions})
