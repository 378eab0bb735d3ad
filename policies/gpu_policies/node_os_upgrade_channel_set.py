"""AKS clusters keep node images current through an automatic node OS channel."""

from __future__ import annotations

from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import path, text
from gpu_policy_support.resource_types import AKS_MANAGED_CLUSTER
from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

ALLOWED_CHANNELS = "allowedChannels"

INFO = PolicyInfo(
    name="node-os-upgrade-channel-set",
    description=(
        "Every AKS ManagedCluster sets autoUpgradeProfile.nodeOSUpgradeChannel to an automatic "
        "channel, so GPU nodes stay on the newest node OS image."
    ),
    practices=("BP-06",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Set autoUpgradeProfile.nodeOSUpgradeChannel to NodeImage (or SecurityPatch); with a "
        "documented manual path, add Unmanaged to this policy's allowedChannels."
    ),
    exemptions="names",
    config={
        ALLOWED_CHANNELS: {
            "type": "array",
            "items": {"type": "string"},
            "default": ["NodeImage", "SecurityPatch"],
            "description": "nodeOSUpgradeChannel values that count as kept up to date.",
        }
    },
)


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    if args.resource_type != AKS_MANAGED_CLUSTER:
        return
    allowed = [str(c) for c in config.get(ALLOWED_CHANNELS) or ()]
    channel = text(path(args.props, "autoUpgradeProfile", "nodeOSUpgradeChannel"))
    if channel not in allowed:
        report(
            f"AKS cluster '{args.name}' has nodeOSUpgradeChannel '{channel or 'unset'}'; "
            f"use one of {', '.join(allowed)}."
        )


POLICY = resource_policy(INFO, check)
