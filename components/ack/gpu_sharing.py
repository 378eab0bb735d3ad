"""ACK GPU sharing: ``ack-ai-installer`` (shared-GPU scheduling and device plugin) and
``ack-mps-control`` (the MPS control daemon), Helm charts of ACK's app catalog.

ACK installs both from its Marketplace (app catalog) as Helm releases in ``kube-system``; the
cluster add-on API does not know them, so they are Helm releases here too (docs/ack.md says
where this comes from). Restarting the MPS control daemon crashes every MPS client on the
node, so unless the config allows changing it the ``ack-mps-control`` release is protected
(no delete, no replace) and Pulumi ignores changes to its chart, version and values (no
in-place upgrade): set ``allowMpsControlChanges`` for a planned, off-peak change.
"""

from typing import NotRequired, TypedDict, cast

import pulumi
import pulumi_kubernetes as k8s
from pydantic import ValidationError

from gpu_facts.ack.addons import (
    ACK_CHART_REPO,
    ACK_SYSTEM_NAMESPACE,
    AI_INSTALLER_CHART,
    MPS_CONTROL_CHART,
)
from gpu_platform.plan.ack.gpu_sharing import (
    ack_pro_problems,
    needs_ai_installer,
    needs_mps_control,
    pin_problems,
)
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.settings import AckGpuSharingSettings

from ..errors import Problem, raise_if_any, shape_problems, validation_problems
from ..pool_args import GpuPoolArgs, validate_gpu_pools_args
from ..type_tokens import formerly, type_token

# No ``from __future__ import annotations``: Pulumi's component analyzer reads these
# annotations at run time.

FROZEN_INPUTS = ["chart", "version", "values", "repositoryOpts"]
"""Inputs of a frozen release whose changes Pulumi ignores (an upgrade restarts its pods)."""


class AckGpuSharingArgs(TypedDict):
    """ACK's GPU-sharing components at pinned chart versions, for the cluster's pools."""

    pools: list[GpuPoolArgs]
    """The cluster's GPU pools: their sharing modes decide what is installed."""
    ai_installer_version: NotRequired[str]
    """Chart version (x.y.z) of ``ack-ai-installer``; required when a pool uses ACK GPU
    sharing (``mps``, ``cgpu`` or ``share``)."""
    mps_control_version: NotRequired[str]
    """Chart version (x.y.z) of ``ack-mps-control``; required when a pool uses ACK MPS (an
    unpinned chart would upgrade itself, and with it crash the running MPS clients)."""
    allow_mps_control_changes: NotRequired[bool]
    """Allow upgrading or removing ack-mps-control (disrupts running GPU apps: off-peak only)."""
    cluster_spec: NotRequired[str]
    """The cluster's edition (``clusterSpec``, e.g. ``ack.pro.small``) when known: ACK's own
    sharing needs ACK Pro."""


def ack_gpu_sharing_args(
    settings: AckGpuSharingSettings, pools: list[GpuPoolArgs], cluster_spec: str
) -> AckGpuSharingArgs:
    """The stack's ``ackGpuSharing`` settings, pools and cluster edition as component args."""
    pins = settings.model_dump(exclude_none=True)
    return cast(AckGpuSharingArgs, {"pools": pools, **pins, "cluster_spec": cluster_spec})


def validate_ack_gpu_sharing_args(
    args: AckGpuSharingArgs,
) -> tuple[AckGpuSharingSettings | None, list[PoolFacts], list[Problem]]:
    """The args checked against the settings schema and the pins the pools need
    (``plan.ack.gpu_sharing``, which the stack config asks too), the pools resolved: the pins,
    the pools' facts and the problems with property paths."""
    pools, problems = validate_gpu_pools_args("ack", args["pools"], "pools")
    modes = [pf.sharing for pf in pools]
    if "cluster_spec" in args:  # the plan's rule, which the stack config asks too
        problems += ack_pro_problems(args["cluster_spec"], modes)
    pins = {k: v for k, v in args.items() if k not in ("pools", "cluster_spec")}
    try:
        components = AckGpuSharingSettings.model_validate(pins)
    except ValidationError as err:
        return None, pools, problems + validation_problems(err)
    problems += pin_problems(components, modes)
    return components, pools, problems


class AckGpuSharing(pulumi.ComponentResource):
    """The ACK GPU-sharing components the cluster's pools need, at pinned versions."""

    releases: list[k8s.helm.v3.Release]
    """The Helm releases installed (none when no pool shares GPUs the ACK way)."""
    versions: pulumi.Output[dict[str, str]]
    """Chart name -> pinned version of every installed component."""

    def __init__(
        self, name: str, args: AckGpuSharingArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("AckGpuSharing", name, shape_problems(args, AckGpuSharingArgs))
        components, pools, problems = validate_ack_gpu_sharing_args(args)
        wanted: list[tuple[str, str | None, bool]] = []
        modes = [pf.sharing for pf in pools]
        if components is not None:
            if needs_ai_installer(modes):
                wanted.append((AI_INSTALLER_CHART, components.ai_installer_version, False))
            if needs_mps_control(modes):
                frozen = not components.allow_mps_control_changes
                wanted.append((MPS_CONTROL_CHART, components.mps_control_version, frozen))
        # Refuse before registering anything: an unpinned chart must change nothing.
        raise_if_any("AckGpuSharing", name, problems)
        super().__init__(
            type_token("AckGpuSharing"),
            name,
            None,
            formerly("gpu-platform:alicloud:AckGpuSharing", opts),
        )

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
