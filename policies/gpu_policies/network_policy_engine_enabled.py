"""Clusters run a network policy engine, without which NetworkPolicies do nothing."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import is_true, mappings, path, text
from gpu_policy_support.resource_types import (
    ACK_MANAGED_CLUSTER,
    AKS_MANAGED_CLUSTER,
    AZURE_CLUSTER,
    canonical_type,
)

# ACK: Terway enforces NetworkPolicies when its addon config says so; Flannel never does.
TERWAY_PREFIX = "terway"
TERWAY_NETWORK_POLICY = "NetworkPolicy"

INFO = PolicyInfo(
    name="network-policy-engine-enabled",
    description=(
        "Every AKS ManagedCluster (any API version; pulumi-azure KubernetesCluster) sets "
        "networkProfile.networkPolicy to an engine (azure, calico or cilium), and every ACK "
        "ManagedKubernetes installs Terway with NetworkPolicy on: "
        "without an engine the GPU namespaces' deny-all NetworkPolicies are ignored."
    ),
    practices=("BP-08",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "AKS: set networkProfile.networkPolicy to cilium (with networkDataplane cilium), azure "
        'or calico. ACK: add the terway-eniip addon with config {"NetworkPolicy": "true"}. '
        "Both only at cluster creation."
    ),
    exemptions="names",
)


def _terway_enforces(addon: Mapping[str, Any]) -> bool:
    try:
        config = json.loads(text(addon.get("config")) or "{}")
    except ValueError:
        return False
    return isinstance(config, dict) and is_true(config.get(TERWAY_NETWORK_POLICY))


def _validate_aks(args: ResourceValidationArgs, report: Report) -> None:
    engine = text(path(args.props, "networkProfile", "networkPolicy"))
    if engine is None or engine.lower() == "none":
        report(
            f"AKS cluster '{args.name}' has no network policy engine "
            f"(networkProfile.networkPolicy is {engine or 'unset'})."
        )


def _validate_ack(args: ResourceValidationArgs, report: Report) -> None:
    terway = [
        addon
        for addon in mappings(args.props.get("addons"))
        if (text(addon.get("name")) or "").startswith(TERWAY_PREFIX)
        and not is_true(addon.get("disabled"))
    ]
    if not any(_terway_enforces(addon) for addon in terway):
        found = "Terway without NetworkPolicy" if terway else "no Terway addon"
        report(f"ACK cluster '{args.name}' has no network policy engine ({found}).")


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    resource_type = canonical_type(args.resource_type)
    if resource_type in (AKS_MANAGED_CLUSTER, AZURE_CLUSTER):
        _validate_aks(args, report)
    elif resource_type == ACK_MANAGED_CLUSTER:
        _validate_ack(args, report)


POLICY = resource_policy(INFO, validate)
