"""GPU node pools carry their vendor's GPU taint (``nvidia.com/gpu``; ``amd.com/gpu`` on AMD GPUs)
with effect ``NoSchedule``."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.scheduling import (
    AMD_TAINT_KEY,
    GPU_TAINT,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
    GPU_TAINT_VALUE,
)
from gpu_policy_support.node_pools import NodePool, gpu_node_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy

REQUIRED_VALUE = "requiredTaintValue"

INFO = PolicyInfo(
    name="gpu-node-pools-tainted",
    description=(
        f"Every GPU node pool (AKS AgentPool or agentPoolProfiles entry at any API version, "
        f"pulumi-azure KubernetesClusterNodePool or defaultNodePool, ACK NodePool, EKS node "
        f"group, Karpenter NodePool) carries its vendor's GPU taint, {GPU_TAINT_KEY} "
        f"({AMD_TAINT_KEY} on AMD GPUs), with effect {GPU_TAINT_EFFECT}, so only pods that "
        f"tolerate it land on GPU nodes; GKE taints its GPU nodes itself."
    ),
    practices=("BP-01",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"AKS: add '{GPU_TAINT}' (AMD sizes: '{AMD_TAINT_KEY}={GPU_TAINT_VALUE}:"
        f"{GPU_TAINT_EFFECT}') to nodeTaints. ACK: add a taint "
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


def add_taint(pool: NodePool, value: str, key: str = GPU_TAINT_KEY) -> str:
    """How to add the vendor's GPU taint where the pool is declared."""
    taint = f"{key}={value}:{GPU_TAINT_EFFECT}"
    if pool.origin == "karpenter":
        return (
            f"Add {{key: {key}, value: {value}, effect: {GPU_TAINT_EFFECT}}} to the NodePool's "
            "spec.template.spec.taints."
        )
    if pool.origin == "aks-default-pool":
        return (
            "pulumi-azure's default_node_pool takes no taints: give it a CPU VM size and put "
            f"the GPUs in a KubernetesClusterNodePool with node_taints ['{taint}']."
        )
    return pool.on.add_taint(key, value, GPU_TAINT_EFFECT)


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    required_value = str(config.get(REQUIRED_VALUE) or "")
    for pool in gpu_node_pools(args.resource_type, args.name, args.props):
        if pool.provider_taints_gpu_nodes:
            continue
        key = pool.vendor.taint_key
        gpu_taints = [t for t in pool.taints if t.key == key and t.effect == GPU_TAINT_EFFECT]
        if not gpu_taints:
            found = ", ".join(str(t) for t in pool.taints) or "none"
            whose = "" if key == GPU_TAINT_KEY else f" ({pool.vendor.name} GPUs)"
            report(
                f"GPU node pool '{pool.name}' ({pool.describe}){whose} lacks the taint "
                f"{key}:{GPU_TAINT_EFFECT} (taints: {found}).",
                fix=add_taint(pool, required_value or GPU_TAINT_VALUE, key),
            )
        elif required_value and all(t.value != required_value for t in gpu_taints):
            report(
                f"GPU node pool '{pool.name}' taints {key} with value "
                f"'{gpu_taints[0].value}', not '{required_value}': the device plugin's "
                f"feature discovery only tolerates '{required_value}'.",
                fix=(
                    f"Taint with value '{required_value}'; or, when the pool's value is the "
                    f"team's convention and the chart's nfd.worker.tolerations match it, set "
                    f"{REQUIRED_VALUE} to it here and in gpu-workloads-tolerate-gpu-taint."
                ),
            )


POLICY = resource_policy(INFO, validate)
