"""No pod picks GPUs itself through NVIDIA_VISIBLE_DEVICES, bypassing the scheduler."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.scheduling import NVIDIA_VISIBLE_DEVICES_ENV, exposes_no_gpu
from gpu_policy_support.pod_specs import containers, pod_sites
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import mappings, text

ENV_VAR = NVIDIA_VISIBLE_DEVICES_ENV

INFO = PolicyInfo(
    name="no-nvidia-visible-devices-env",
    description=(
        f"No container of a pod-bearing resource sets {ENV_VAR} in its env to GPUs: the NVIDIA "
        f"runtime would expose GPUs the scheduler never gave the pod (on shared-GPU nodes it "
        f"breaks the device ledger). Values that expose no GPU (void, none, empty, or a list "
        f"with void) are allowed: NVIDIA's own components set void."
    ),
    practices=("BP-17",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.CRITICAL,
    remediation_steps=(
        f"Remove {ENV_VAR} from the env (or set it to void) and ask for GPUs through "
        f"resources.limits or a ResourceClaim; the device plugin or DRA driver hands over the "
        f"GPUs it allocates."
    ),
)


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    for site in pod_sites(args.resource_type, args.props):
        for container in containers(site.spec):
            for env in mappings(container.spec.get("env")):
                if env.get("name") != ENV_VAR:
                    continue
                value = text(env.get("value"))
                if "valueFrom" not in env and exposes_no_gpu(value or ""):
                    continue  # no GPU exposed: void, none, empty
                shown = "from a reference" if "valueFrom" in env else repr(value)
                report(
                    f"{site.named(args.name)} {container.label} sets {ENV_VAR} in its env "
                    f"({shown})."
                )


POLICY = resource_policy(INFO, validate)
