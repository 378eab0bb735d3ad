"""Every GPU node pool has a GPU metrics exporter of its vendor that runs on its nodes.

Without one, a pool's GPU utilization, memory, temperature and XID errors are never collected:
a pool can lose GPUs or idle for weeks unnoticed, and no namespace's GPU use can be told apart.
The exporters and how one reaches a pool are in
``metrics_exporters``: NVIDIA's dcgm-exporter as a Helm release, a DaemonSet or the GPU
Operator's, whose tolerations and node selection admit the pool; or ACK's or GKE's managed one;
on AMD pools AMD's device-metrics-exporter from a DeviceConfig of AMD's GPU Operator.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_facts.ack.addons import ARMS_PROMETHEUS_ADDON
from gpu_facts.gke.machine_types import GKE_DCGM_COMPONENT
from gpu_facts.nvidia.dcgm_exporter_chart import CHART_NAME
from gpu_facts.scheduling import GPU_TAINT_EFFECT, GPU_TAINT_KEY
from gpu_facts.vendors import AMD
from gpu_policy_support.metrics_exporters import (
    Exporter,
    amd_exporters,
    exporters,
    managed_exporters,
    pool_taints,
)
from gpu_policy_support.node_pools import NodePool, stack_gpu_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, exempt_names, stack_policy
from gpu_policy_support.stack_index import index_by_type
from gpu_policy_support.tolerations import HARD_EFFECTS

GPU_TOLERATION = f"{{key: {GPU_TAINT_KEY}, operator: Exists, effect: {GPU_TAINT_EFFECT}}}"

INFO = PolicyInfo(
    name="gpu-pools-have-metrics-exporter",
    description=(
        f"Every GPU node pool has a GPU metrics exporter on its nodes: NVIDIA's {CHART_NAME} (a "
        "Helm release of its chart, a DaemonSet running its image, or the GPU Operator's) whose "
        "tolerations tolerate the pool's taints and whose nodeSelector / required node affinity "
        f"admit the pool's labels; on ACK also ACK's GPU exporter of the {ARMS_PROMETHEUS_ADDON} "
        "add-on, on pools without custom taints (it tolerates none), on GKE the managed DCGM "
        f"metrics ({GKE_DCGM_COMPONENT})."
    ),
    practices=("BP-05", "BP-09"),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        f"Run NVIDIA's {CHART_NAME} on the pool (our DcgmExporter, or the {CHART_NAME} chart) with "
        f"tolerations: [{GPU_TOLERATION}] and a node selection the pool's nodes match; or exempt "
        "the pool by name when an exporter outside the stack watches it."
    ),
    exemptions="names",
)


def fix(pool: NodePool) -> str:
    """What puts an exporter on the pool: its taints tolerated, or the cloud's managed one."""
    taints = [t for t in pool_taints(pool) if t.effect in HARD_EFFECTS]
    tolerate = (
        ", ".join(f"{{key: {t.key}, operator: Exists, effect: {t.effect}}}" for t in taints)
        or GPU_TOLERATION
    )
    if pool.vendor is AMD:
        return (
            "Turn on AMD's metrics exporter in a DeviceConfig of AMD's GPU Operator "
            "(metricsExporter.enable: true; our AmdGpuOperator does) whose selector the pool's "
            f"labels match and whose metricsExporter.tolerations are [{tolerate}]; or exempt "
            "the pool by name when an exporter outside the stack watches it."
        )
    managed = f"; {pool.on.managed_exporter}" if pool.on.managed_exporter else ""
    return (
        f"Run NVIDIA's {CHART_NAME} on the pool (our DcgmExporter, or the {CHART_NAME} chart) with "
        f"tolerations: [{tolerate}] and a nodeSelector / node affinity the pool's labels match"
        f"{managed}; or exempt the pool by name when an exporter outside the stack watches it."
    )


def problem(pool: NodePool, found: list[Exporter]) -> str | None:
    """Why no exporter watches the pool, None when one does."""
    reasons = []
    for exporter in found:
        if exporter.cloud not in (None, pool.cloud) or exporter.vendor != pool.vendor.name:
            continue
        why = exporter.misses(pool)
        if why is None:
            return None
        reasons.append(why)
    if not reasons:
        if pool.vendor is AMD:
            return "no DeviceConfig of AMD's GPU Operator runs its metrics exporter"
        return "the stack runs no dcgm-exporter (Helm release, DaemonSet or the GPU Operator's)"
    return "; ".join(reasons)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    pools: list[tuple[NodePool, PolicyResource]] = list(stack_gpu_pools(index))
    if not pools:
        return
    found = [*exporters(index), *managed_exporters(index), *amd_exporters(index)]
    skip = exempt_names(config)
    for pool, resource in pools:
        if pool.name in skip or resource.name in skip:
            continue
        why = problem(pool, found)
        if why is not None:
            report(
                f"GPU node pool '{pool.name}' ({pool.describe}) has no GPU metrics exporter: "
                f"{why}. Its GPUs' utilization, memory and errors are not collected, and no "
                "namespace's GPU use on it can be seen.",
                resource.urn,
                fix=fix(pool),
            )


POLICY = stack_policy(INFO, validate)
