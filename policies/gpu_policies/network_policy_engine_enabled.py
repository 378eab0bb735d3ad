"""BP-08: AKS clusters run a network policy engine, without which NetworkPolicies do nothing."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from .building import Config, PolicyInfo, Report, resource_policy
from .props import path, text
from .resource_types import AKS_MANAGED_CLUSTER

INFO = PolicyInfo(
    name="network-policy-engine-enabled",
    description=(
        "Every AKS ManagedCluster sets networkProfile.networkPolicy to an engine (azure, calico "
        "or cilium): without one the GPU namespaces' deny-all NetworkPolicies are ignored."
    ),
    practices=("BP-08",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "Set networkProfile.networkPolicy to cilium (with networkDataplane cilium), azure or "
        "calico when creating the cluster."
    ),
    exemptions="names",
)


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    if args.resource_type != AKS_MANAGED_CLUSTER:
        return
    engine = text(path(args.props, "networkProfile", "networkPolicy"))
    if engine is None or engine.lower() == "none":
        report(
            f"AKS cluster '{args.name}' has no network policy engine "
            f"(networkProfile.networkPolicy is {engine or 'unset'})."
        )


POLICY = resource_policy(INFO, check)
