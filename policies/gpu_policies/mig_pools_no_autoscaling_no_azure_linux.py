"""MIG pools run without the cluster autoscaler and not on Azure Linux."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.aks.mig import MIG_NO_AUTOSCALER, MIG_NOT_ON_AZURE_LINUX
from gpu_facts.aks.nodes import is_azure_linux
from gpu_policy_support.node_pools import node_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.resource_types import AZURE_CLUSTER, AZURE_NODE_POOL, canonical_type

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


PULUMI_AZURE_FIX = (
    "Set autoScalingEnabled to false with a fixed nodeCount, and osSku to Ubuntu (or leave it "
    "unset), on every pool that sets gpuInstance (pulumi-azure: auto_scaling_enabled, "
    "node_count, os_sku, gpu_instance)."
)
"""The fix in pulumi-azure's own fields (KubernetesClusterNodePool, a default node pool)."""


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    classic = canonical_type(args.resource_type) in (AZURE_NODE_POOL, AZURE_CLUSTER)
    fix = PULUMI_AZURE_FIX if classic else None
    for pool in node_pools(args.resource_type, args.name, args.props):
        if pool.mig_profile is None:
            continue
        # The same messages as the stack config and the pool components (plan.gpu_pools).
        if pool.autoscaling:
            report(
                f"MIG node pool '{pool.name}' ({pool.mig_profile}) enables the cluster "
                f"autoscaler: {MIG_NO_AUTOSCALER}.",
                fix=fix,
            )
        if pool.os_sku is not None and is_azure_linux(pool.os_sku):
            report(
                f"MIG node pool '{pool.name}' ({pool.mig_profile}) uses osSKU "
                f"'{pool.os_sku}': {MIG_NOT_ON_AZURE_LINUX}.",
                fix=fix,
            )


POLICY = resource_policy(INFO, validate)
