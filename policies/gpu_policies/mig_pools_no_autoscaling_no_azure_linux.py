"""MIG pools run without the cluster autoscaler and not on Azure Linux."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from .node_pools import node_pools
from .policy_factory import Config, PolicyInfo, Report, resource_policy

# AKS OS SKUs of the Azure Linux family (CBLMariner is its former name).
AZURE_LINUX_SKUS: frozenset[str] = frozenset({"azurelinux", "azurelinux3", "cblmariner", "mariner"})

INFO = PolicyInfo(
    name="mig-pools-no-autoscaling-no-azure-linux",
    description=(
        "Every AKS node pool with a MIG gpuInstanceProfile has the cluster autoscaler off and "
        "runs Ubuntu: AKS supports neither autoscaling nor Azure Linux on MIG pools."
    ),
    practices=("BP-12",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "Set enableAutoScaling to false with a fixed count, and osSKU to Ubuntu (or leave it "
        "unset), on every pool that sets gpuInstanceProfile."
    ),
    exemptions="names",
)


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    for pool in node_pools(args.resource_type, args.name, args.props):
        if pool.mig_profile is None:
            continue
        if pool.autoscaling:
            report(
                f"MIG node pool '{pool.name}' ({pool.mig_profile}) enables the cluster "
                f"autoscaler; MIG pools must have a fixed size."
            )
        if pool.os_sku is not None and pool.os_sku.lower() in AZURE_LINUX_SKUS:
            report(
                f"MIG node pool '{pool.name}' ({pool.mig_profile}) uses osSKU "
                f"'{pool.os_sku}'; MIG is not supported on Azure Linux, use Ubuntu."
            )


POLICY = resource_policy(INFO, check)
