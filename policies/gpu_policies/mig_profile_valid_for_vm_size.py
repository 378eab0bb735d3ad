"""A MIG pool's gpuInstanceProfile is one its VM size's GPU offers on AKS, written against an API
version that has the field (2021-08-01 or newer: older ones drop it and the pool gets whole
GPUs)."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts import UnknownGpuFact, aks_mig_profile, gpu_model
from gpu_facts.aks.api_versions import (
    AZURE_NATIVE_DEFAULT_API_VERSION,
    MIG_MIN_API_VERSION,
    has_mig,
)
from gpu_policy_support.node_pools import node_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy

INFO = PolicyInfo(
    name="mig-profile-valid-for-vm-size",
    description=(
        "Every AKS node pool that sets gpuInstanceProfile (pulumi-azure: gpuInstance) uses a "
        "MIG-capable GPU VM size and a profile that size's GPU offers, at an API version that "
        f"has the field ({MIG_MIN_API_VERSION} or newer)."
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


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    for pool in node_pools(args.resource_type, args.name, args.props):
        if pool.mig_profile is None:
            continue
        if pool.api_version is not None and not has_mig(pool.api_version):
            report(
                f"Node pool '{pool.name}' sets gpuInstanceProfile '{pool.mig_profile}' through "
                f"API version {pool.api_version}, which has no gpuInstanceProfile (MIG needs "
                f"{MIG_MIN_API_VERSION} or newer): AKS creates the pool with whole GPUs.",
                fix=(
                    f"Declare the pool with azure-native's default containerservice module (API "
                    f"{AZURE_NATIVE_DEFAULT_API_VERSION}) or a local SDK of API "
                    f"{MIG_MIN_API_VERSION} or newer."
                ),
            )
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


POLICY = resource_policy(INFO, validate)
