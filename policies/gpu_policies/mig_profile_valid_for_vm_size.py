"""A MIG pool's gpuInstanceProfile is one its VM size's GPU offers on AKS."""

from __future__ import annotations

from gpu_policy_support.node_pools import node_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts import UnknownGpuFact, aks_mig_profile, gpu_model

INFO = PolicyInfo(
    name="mig-profile-valid-for-vm-size",
    description=(
        "Every AKS node pool that sets gpuInstanceProfile uses a MIG-capable GPU VM size and a "
        "profile that size's GPU offers."
    ),
    practices=("BP-10",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "Use an A100, H100 or H200 VM size (e.g. Standard_ND96asr_v4) with one of MIG1g, "
        "MIG2g, MIG3g, MIG4g or MIG7g; changing the profile means creating a new pool."
    ),
    exemptions="names",
)


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    for pool in node_pools(args.resource_type, args.name, args.props):
        if pool.mig_profile is None:
            continue
        size = pool.azure_size
        vm_size = pool.machine_types[0] if pool.machine_types else "no vmSize"
        if size is None or not size.mig:
            report(
                f"Node pool '{pool.name}' sets gpuInstanceProfile '{pool.mig_profile}' on "
                f"'{vm_size}', which is not a MIG-capable GPU VM size."
            )
            continue
        try:
            aks_mig_profile(gpu_model(size.gpu_model), pool.mig_profile)
        except UnknownGpuFact as err:
            report(f"Node pool '{pool.name}' ({size.name}): {err}.")


POLICY = resource_policy(INFO, check)
