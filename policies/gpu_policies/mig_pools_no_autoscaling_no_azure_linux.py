"""MIG pools run without the cluster autoscaler and not on Azure Linux."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.aks.mig import MIG_NO_AUTOSCALER, MIG_NOT_ON_AZURE_LINUX
from gpu_facts.aks.nodes import is_azure_linux
from gpu_policy_support.node_pools import node_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy

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


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    for pool in node_pools(args.resource_type, args.name, args.props):
        if pool.mig_profile is None:
            continue
        # The same messages as the stack config and the pool components (plan.gpu_pools).
        if pool.autoscaling:
            report(
                f"MIG node pool '{pool.name}' ({pool.mig_profile}) enables the cluster "
                f"autoscaler: {MIG_NO_AUTOSCALER}."
            )
        if pool.os_sku is not None and is_azure_linux(pool.os_sku):
            report(
                f"MIG node pool '{pool.name}' ({pool.mig_profile}) uses osSKU "
                f"'{pool.os_sku}': {MIG_NOT_ON_AZURE_LINUX}."
            )


POLICY = resource_policy(INFO, validate)
