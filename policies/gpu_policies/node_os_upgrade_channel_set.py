"""AKS clusters keep node images current through an automatic node OS channel.

A cluster that sets no channel gets its API version's default: ``NodeImage`` from API
2023-06-01 (the version its azure-native token names; the default module's is 2025-09-01), and
``NodeImage`` on pulumi-azure's ``KubernetesCluster`` (``gpu_facts.aks.api_versions``).
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.aks.api_versions import (
    CLASSIC_NODE_OS_CHANNEL_DEFAULT,
    NODE_IMAGE_DEFAULT_FROM_API_VERSION,
    default_node_os_channel,
)
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import path, text
from gpu_policy_support.resource_types import (
    AKS_MANAGED_CLUSTER,
    AZURE_CLUSTER,
    aks_api_version,
    canonical_type,
)

ALLOWED_CHANNELS = "allowedChannels"

INFO = PolicyInfo(
    name="node-os-upgrade-channel-set",
    description=(
        "Every AKS ManagedCluster's autoUpgradeProfile.nodeOSUpgradeChannel (pulumi-azure "
        "KubernetesCluster: nodeOsUpgradeChannel) is an automatic channel, so GPU nodes stay on "
        "the newest node OS image; unset, it is its API version's default (NodeImage from "
        f"{NODE_IMAGE_DEFAULT_FROM_API_VERSION}; pulumi-azure: {CLASSIC_NODE_OS_CHANNEL_DEFAULT})."
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


def _channel(args: ResourceValidationArgs) -> tuple[str | None, str]:
    """The cluster's node OS channel, set or by default (None: neither), and how it came."""
    if canonical_type(args.resource_type) == AZURE_CLUSTER:
        channel = text(args.props.get("nodeOsUpgradeChannel"))
        return channel or CLASSIC_NODE_OS_CHANNEL_DEFAULT, "" if channel else " (the default)"
    channel = text(path(args.props, "autoUpgradeProfile", "nodeOSUpgradeChannel"))
    if channel:
        return channel, ""
    api_version = aks_api_version(args.resource_type) or ""
    default = default_node_os_channel(api_version)
    return default, f" (API version {api_version}'s default)"


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    if canonical_type(args.resource_type) not in (AKS_MANAGED_CLUSTER, AZURE_CLUSTER):
        return
    allowed = [str(c) for c in config.get(ALLOWED_CHANNELS) or ()]
    channel, how = _channel(args)
    if channel is None:
        report(
            f"AKS cluster '{args.name}' sets no nodeOSUpgradeChannel, and API version "
            f"{aks_api_version(args.resource_type)} has no default (NodeImage is the default "
            f"from {NODE_IMAGE_DEFAULT_FROM_API_VERSION}); use one of {', '.join(allowed)}."
        )
    elif channel not in allowed:
        report(
            f"AKS cluster '{args.name}' has nodeOSUpgradeChannel '{channel}'{how}; "
            f"use one of {', '.join(allowed)}."
        )


POLICY = resource_policy(INFO, validate)
