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
from gpu_facts.vendors import AMD, NVIDIA, resource_vendor
from gpu_policy_support.amd.device_configs import device_configs
from gpu_policy_support.device_plugin_configs import release_configs
from gpu_policy_support.exposed_gpu_resources import Exposure, amd_exposure, exposed_resources
from gpu_policy_support.helm_releases import releases
from gpu_policy_support.node_pools import NodePool, stack_gpu_pools
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


def judged(resource: str, vendors: frozenset[str]) -> bool:
    """Resources the pools' model decides, of the vendors whose components the stack shows."""
    vendor = resource_vendor(resource)
    return vendor is not None and vendor.name in vendors


def _summary(exposed: dict[str, list[str]]) -> str:
    if not exposed:
        return "no GPU resource"
    return ", ".join(f"{name} (pool {', '.join(pools)})" for name, pools in sorted(exposed.items()))


def check(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    pools: list[NodePool] = [pool for pool, _ in stack_gpu_pools(index)]
    plugins = [release_configs(release) for release in releases(index, CHART_NAME)]
    configs = list(device_configs(index))
    # A workload stack alone, or configs in an external ConfigMap, cannot be judged; GKE pools
    # need no release (GKE runs the plugin). A vendor's pools without its plugin in the stack
    # (installed elsewhere) leave that vendor's resources unjudged.
    if not pools or any(plugin.external for plugin in plugins):
        return
    nvidia_pools = [p for p in pools if p.vendor is NVIDIA and not p.provider_taints_gpu_nodes]
    amd_pools = [p for p in pools if p.vendor is AMD]
    vendors = {
        NVIDIA.name: bool(plugins) or not nvidia_pools,
        AMD.name: bool(configs) or not amd_pools,
    }
    exposed: dict[str, list[str]] = defaultdict(list)
    unserved: list[str] = []
    for pool in pools:
        exposure: Exposure = (
            amd_exposure(pool, configs) if pool.vendor is AMD else exposed_resources(pool, plugins)
        )
        if exposure.partitions_unknown:
            vendors[AMD.name] = False  # partition names cannot be judged at preview
        if exposure.gpu_unknown:
            vendors[pool.vendor.name] = False  # nor the names on a GPU the catalog lacks
        unserved.extend(exposure.unserved)
        for resource in sorted(exposure.resources):
            exposed[resource].append(pool.name)
    judged_vendors = frozenset(name for name, judge in vendors.items() if judge)
    why = "".join(f"; {note}" for note in unserved)
    for workload, site in stack_pods(index, config):
        asked = pod_gpu_resources(site.spec)
        missing = sorted(r for r in asked if judged(r, judged_vendors) and r not in exposed)
        if missing:
            report(
                f"{site.named(workload.name)} asks for {', '.join(missing)}, which no GPU pool "
                f"of the stack exposes; the stack exposes {_summary(exposed)}{why}.",
                workload.urn,
            )


POLICY = stack_policy(INFO, check)
