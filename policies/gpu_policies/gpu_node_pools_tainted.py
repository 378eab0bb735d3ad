"""GPU node pools carry the ``nvidia.com/gpu`` taint with effect ``NoSchedule``."""

from __future__ import annotations

from gpu_policy_support.node_pools import gpu_node_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.scheduling import GPU_TAINT, GPU_TAINT_EFFECT, GPU_TAINT_KEY, GPU_TAINT_VALUE

REQUIRED_VALUE = "requiredTaintValue"

INFO = PolicyInfo(
    name="gpu-node-pools-tainted",
    description=(
        f"Every GPU node pool (AKS AgentPool or agentPoolProfiles entry, ACK NodePool, EKS node "
        f"group) carries the taint {GPU_TAINT_KEY} with effect {GPU_TAINT_EFFECT}, so only pods "
        f"that tolerate it land on GPU nodes; GKE taints its GPU nodes itself."
    ),
    practices=("BP-01",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"AKS: add '{GPU_TAINT}' to nodeTaints. ACK: add a taint "
        f"{{key: {GPU_TAINT_KEY}, value: {GPU_TAINT_VALUE}, effect: {GPU_TAINT_EFFECT}}}. EKS: "
        f"add a taint {{key: {GPU_TAINT_KEY}, value: {GPU_TAINT_VALUE}, effect: NO_SCHEDULE}}."
    ),
    exemptions="names",
    config={
        REQUIRED_VALUE: {
            "type": "string",
            "default": GPU_TAINT_VALUE,
            "description": (
                "Taint value to require (the device plugin chart's NFD worker tolerates only "
                "this one); empty: any value."
            ),
        }
    },
)


def add_taint(cloud: str, value: str) -> str:
    """How to add the GPU taint on the pool's cloud."""
    if cloud == "azure":
        return f"Add '{GPU_TAINT_KEY}={value}:{GPU_TAINT_EFFECT}' to the pool's nodeTaints."
    effect = "NO_SCHEDULE" if cloud == "aws" else GPU_TAINT_EFFECT
    return f"Add a taint {{key: {GPU_TAINT_KEY}, value: {value}, effect: {effect}}} to the pool."


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    required_value = str(config.get(REQUIRED_VALUE) or "")
    for pool in gpu_node_pools(args.resource_type, args.name, args.props):
        if pool.provider_taints_gpu_nodes:
            continue
        gpu_taints = [
            t for t in pool.taints if t.key == GPU_TAINT_KEY and t.effect == GPU_TAINT_EFFECT
        ]
        if not gpu_taints:
            found = ", ".join(str(t) for t in pool.taints) or "none"
            report(
                f"GPU node pool '{pool.name}' ({pool.describe}) lacks the taint "
                f"{GPU_TAINT_KEY}:{GPU_TAINT_EFFECT} (taints: {found}).",
                fix=add_taint(pool.cloud, required_value or GPU_TAINT_VALUE),
            )
        elif required_value and all(t.value != required_value for t in gpu_taints):
            report(
                f"GPU node pool '{pool.name}' taints {GPU_TAINT_KEY} with value "
                f"'{gpu_taints[0].value}', not '{required_value}': the device plugin's "
                f"feature discovery only tolerates '{required_value}'.",
                fix=(
                    f"Taint with value '{required_value}'; or, when the pool's value is the "
                    f"team's convention and the chart's nfd.worker.tolerations match it, set "
                    f"{REQUIRED_VALUE} to it here and in gpu-workloads-tolerate-gpu-taint."
                ),
            )


POLICY = resource_policy(INFO, check)
