"""No pod picks GPUs itself through NVIDIA_VISIBLE_DEVICES, bypassing the scheduler."""

from __future__ import annotations

from gpu_policy_support.pod_specs import containers, pod_spec
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import mappings
from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.scheduling import NVIDIA_VISIBLE_DEVICES_ENV

ENV_VAR = NVIDIA_VISIBLE_DEVICES_ENV

INFO = PolicyInfo(
    name="no-nvidia-visible-devices-env",
    description=(
        f"No container of a pod-bearing resource sets {ENV_VAR} in its env: the NVIDIA runtime "
        f"would expose GPUs the scheduler never gave the pod (on shared-GPU nodes it breaks the "
        f"device ledger)."
    ),
    practices=("BP-17",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.CRITICAL,
    remediation_steps=(
        f"Remove {ENV_VAR} from the env and ask for GPUs through resources.limits; the device "
        f"plugin sets the variable for the GPUs it allocates."
    ),
)


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    spec = pod_spec(args.resource_type, args.props)
    if spec is None:
        return
    for container in containers(spec):
        for env in mappings(container.spec.get("env")):
            if env.get("name") == ENV_VAR:
                report(f"'{args.name}' {container.label} sets {ENV_VAR} in its env.")


POLICY = resource_policy(INFO, check)
