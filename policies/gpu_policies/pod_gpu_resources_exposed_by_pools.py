"""The GPU resources pods ask for are ones the stack's GPU pools actually advertise.

Cross-layer: the pools' machine types and MIG profiles, the device plugin's per-pool configs
(MIG strategy, sharing and renaming) and ACK's sharing labels decide the names the scheduler
sees; a pod asking for any other name stays Pending for ever.
"""

from __future__ import annotations

from collections import defaultdict

from gpu_policy_support.device_plugin_configs import release_configs
from gpu_policy_support.exposed_gpu_resources import exposed_resources
from gpu_policy_support.helm_releases import releases
from gpu_policy_support.node_pools import NodePool, stack_gpu_pools
from gpu_policy_support.pod_specs import (
    POD_SPEC_PATHS,
    kubernetes_kind,
    pod_gpu_resources,
    pod_spec,
)
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, is_exempt, stack_policy
from gpu_policy_support.stack_index import index_by_type
from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.device_plugin_chart import CHART_NAME
from gpu_facts.scheduling import (
    ALIYUN_GPU_MEM,
    NVIDIA_GPU,
    NVIDIA_MIG_PREFIX,
    SHARED_SUFFIX,
    is_gpu_resource,
)

INFO = PolicyInfo(
    name="pod-gpu-resources-exposed-by-pools",
    description=(
        "Every GPU resource a pod asks for is one the stack's GPU pools advertise, given each "
        f"pool's VM size, MIG profile and the {CHART_NAME} config its nodes select (MIG "
        f"strategy single: {NVIDIA_GPU}, mixed: {NVIDIA_MIG_PREFIX}<profile>; shared and "
        f"renamed: <resource>{SHARED_SUFFIX}) or ACK's GPU sharing ({ALIYUN_GPU_MEM}); GKE pools "
        f"advertise {NVIDIA_GPU}."
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


def judged(resource: str) -> bool:
    """Resources the pools' model decides: NVIDIA's and ACK's (other vendors' plugins are
    not modelled, so their resources are not judged)."""
    return is_gpu_resource(resource) and (resource.startswith(("nvidia.com/", ALIYUN_GPU_MEM)))


def _summary(exposed: dict[str, list[str]]) -> str:
    if not exposed:
        return "no GPU resource"
    return ", ".join(f"{name} (pool {', '.join(pools)})" for name, pools in sorted(exposed.items()))


def check(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    pools: list[NodePool] = [pool for pool, _ in stack_gpu_pools(index)]
    plugins = [release_configs(release) for release in releases(index, CHART_NAME)]
    # A workload stack alone, or configs in an external ConfigMap, cannot be judged; GKE pools
    # need no release (GKE runs the plugin).
    plugin_pools = [pool for pool in pools if not pool.provider_taints_gpu_nodes]
    if not pools or any(plugin.external for plugin in plugins):
        return
    if plugin_pools and not plugins:
        return
    exposed: dict[str, list[str]] = defaultdict(list)
    unserved: list[str] = []
    for pool in pools:
        exposure = exposed_resources(pool, plugins)
        unserved.extend(exposure.unserved)
        for resource in sorted(exposure.resources):
            exposed[resource].append(pool.name)
    why = "".join(f"; {note}" for note in unserved)
    for resource_type, resources in index.items():
        if kubernetes_kind(resource_type) not in POD_SPEC_PATHS:
            continue
        for workload in resources:
            spec = pod_spec(resource_type, workload.props)
            if spec is None or is_exempt(workload.name, workload.props, config):
                continue
            missing = sorted(r for r in pod_gpu_resources(spec) if judged(r) and r not in exposed)
            if missing:
                report(
                    f"'{workload.name}' asks for {', '.join(missing)}, which no GPU pool of "
                    f"the stack exposes; the stack exposes {_summary(exposed)}{why}.",
                    workload.urn,
                )


POLICY = stack_policy(INFO, check)
