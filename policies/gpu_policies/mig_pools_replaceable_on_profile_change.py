"""A MIG AgentPool can be replaced when its gpuInstanceProfile changes.

AKS cannot change a pool's profile: a new profile means a new pool. Pulumi replaces a resource
create-first by default, and an AgentPool is addressed by its name: a replacement under the
same ``agentPoolName`` would PUT over the pool it is meant to replace, then delete it.
pulumi-azure's ``KubernetesClusterNodePool`` is the same (its ``gpu_instance`` forces a new pool,
under its ``name``). So the pool either sets ``deleteBeforeReplace`` or carries its profile in
its name (a new profile is then a new name, and a new pool). What a policy cannot see is
``replaceOnChanges`` (PolicyResourceOptions has no such field): the component and its test
guarantee that part.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import text
from gpu_policy_support.resource_types import AKS_AGENT_POOL, AZURE_NODE_POOL, canonical_type

PROFILE_AND_NAME: dict[str, tuple[str, str]] = {
    AKS_AGENT_POOL: ("gpuInstanceProfile", "agentPoolName"),
    AZURE_NODE_POOL: ("gpuInstance", "name"),
}
"""Per pool type (azure-native at any API version; pulumi-azure, whose ``gpu_instance`` also
forces a new pool): the profile's field and the field that names the pool in AKS."""

INFO = PolicyInfo(
    name="mig-pools-replaceable-on-profile-change",
    description=(
        "Every AKS AgentPool with a gpuInstanceProfile (pulumi-azure KubernetesClusterNodePool "
        "with a gpuInstance) sets the deleteBeforeReplace resource option, or has a pool name "
        "that contains its profile (MIG1g...), so that a profile change, which AKS can only do "
        "with a new pool, replaces the pool cleanly."
    ),
    practices=("BP-11",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "Give the AgentPool the options delete_before_replace=True and "
        "replace_on_changes=['gpuInstanceProfile'], or name the pool after its profile "
        "(e.g. 'a100mig1g') so a new profile is a new pool."
    ),
    exemptions="names",
)


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    fields = PROFILE_AND_NAME.get(canonical_type(args.resource_type))
    if fields is None:
        return
    profile = text(args.props.get(fields[0]))
    if not profile or args.opts.delete_before_replace:
        return
    pool_name = text(args.props.get(fields[1]))
    if pool_name and profile.lower() in pool_name.lower():
        return
    shown = f"'{pool_name}'" if pool_name else f"without {fields[1]}"
    classic = canonical_type(args.resource_type) == AZURE_NODE_POOL
    report(
        f"MIG node pool {shown} ({profile}) neither sets deleteBeforeReplace nor carries its "
        "profile in its name: a profile change would create the new pool under the name of "
        "the one it replaces.",
        fix=(
            "Give the KubernetesClusterNodePool the option delete_before_replace=True (its "
            "gpu_instance already forces a new pool), or a name that contains its profile "
            f"('{profile.lower()}') so a new profile is a new pool."
            if classic
            else None
        ),
    )


POLICY = resource_policy(INFO, validate)
