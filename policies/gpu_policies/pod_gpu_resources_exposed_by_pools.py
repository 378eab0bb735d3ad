"""The GPU resources pods ask for are ones the stack's GPU pools actually advertise.

Cross-layer: the pools' machine types and MIG profiles, the device plugin's per-pool configs
(MIG strategy, sharing and renaming) and ACK's sharing labels decide the names the scheduler
sees; a pod asking for any other name stays Pending for ever. AMD pools advertise what AMD's
device plugin, run by a DeviceConfig of AMD's GPU Operator that selects them, advertises
(``amd.com/gpu``; partition names under ``mixed`` naming are not judged).
"""

from __future__ import annotations

from collections import defaultdict

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.nvidia.device_plugin_chart import CHART_NAME
from gpu_facts.scheduling import (
    ALIYUN_GPU_MEM,
    AMD_GPU,
    NVIDIA_GPU,
    NVIDIA_MIG_PREFIX,
    SHARED_SUFFIX,
)
from gpu_policy_support.exposed_gpu_resources import stack_exposure
from gpu_policy_support.pod_specs import (
    pod_gpu_resources,
)
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, stack_policy
from gpu_policy_support.stack_index import index_by_type, stack_pods

INFO = PolicyInfo(
    name="pod-gpu-resources-exposed-by-pools",
    description=(
        "Every GPU resource a pod asks for is one the stack's GPU pools advertise, given each "
        f"pool's VM size, MIG profile and the {CHART_NAME} config its nodes select (MIG "
        f"strategy single: {NVIDIA_GPU}, mixed: {NVIDIA_MIG_PREFIX}<profile>; shared and "
        f"renamed: <resource>{SHARED_SUFFIX}) or ACK's GPU sharing ({ALIYUN_GPU_MEM}); GKE pools "
        f"advertise {NVIDIA_GPU}; AMD pools what AMD's device plugin advertises ({AMD_GPU}) "
        "where a DeviceConfig of AMD's GPU Operator runs it."
    ),
    practices=("BP-13",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "Ask for a resource the message lists as exposed (e.g. the MIG profile the pool really "
        f"has, or {NVIDIA_GPU}{SHARED_SUFFIX} on a renamed shared pool), or change the pool's "
        "MIG profile / the device plugin config so the pool advertises what the pod needs."
    ),
)


def _summary(exposed: dict[str, list[str]]) -> str:
    if not exposed:
        return "no GPU resource"
    return ", ".join(f"{name} (pool {', '.join(pools)})" for name, pools in sorted(exposed.items()))


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    # A workload stack alone, or configs in an external ConfigMap, cannot be judged; a vendor's
    # pools without its plugin in the stack (installed elsewhere) leave its resources unjudged.
    stack = stack_exposure(index)
    if stack is None:
        return
    exposed: dict[str, list[str]] = defaultdict(list)
    unserved: list[str] = []
    for pool, exposure in stack.pools:
        unserved.extend(exposure.unserved)
        for resource in sorted(exposure.resources):
            exposed[resource].append(pool.name)
    why = "".join(f"; {note}" for note in unserved)
    for workload, site in stack_pods(index, config):
        asked = pod_gpu_resources(site.spec)
        missing = sorted(r for r in asked if stack.judged(r) and r not in exposed)
        if missing:
            report(
                f"{site.named(workload.name)} asks for {', '.join(missing)}, which no GPU pool "
                f"of the stack exposes; the stack exposes {_summary(exposed)}{why}.",
                workload.urn,
            )


POLICY = stack_policy(INFO, validate)
