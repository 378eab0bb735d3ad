"""Only ACK MPS pods (they ask aliyun.com/gpu-mem) share the host's IPC."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.scheduling import ALIYUN_GPU_MEM

from .building import Config, PolicyInfo, Report, resource_policy
from .pod_specs import pod_gpu_resources, pod_spec
from .props import is_true

INFO = PolicyInfo(
    name="host-ipc-only-for-gpu-mem-pods",
    description=(
        f"A pod sets hostIPC: true only when it asks for {ALIYUN_GPU_MEM}: ACK MPS clients need "
        f"the host IPC namespace to reach the MPS daemon; any other pod must not share it."
    ),
    practices=("BP-16", "BP-17"),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"Remove hostIPC, or ask for {ALIYUN_GPU_MEM} if the pod is an MPS client; the MPS "
        f"control daemon's namespace is exempt by default (exemptNamespaces)."
    ),
)


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    spec = pod_spec(args.resource_type, args.props)
    if spec is None or not is_true(spec.get("hostIPC")):
        return
    if ALIYUN_GPU_MEM not in pod_gpu_resources(spec):
        report(f"'{args.name}' sets hostIPC: true without asking for {ALIYUN_GPU_MEM}.")


POLICY = resource_policy(INFO, check)
