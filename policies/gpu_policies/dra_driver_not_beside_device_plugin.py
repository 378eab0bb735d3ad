"""NVIDIA's DRA driver never runs its GPU kubelet plugin on a node a device plugin serves.

Two allocators of one node's GPUs hand the same GPU out twice: the DRA driver's chart refuses to
install its GPU side unless ``gpuResourcesEnabledOverride`` promises that no device plugin runs
beside it (its ``templates/validation.yaml``: the plugin "cannot be deployed alongside the
standard GPU device plugin on the same node"). The pack holds the promise to the stack's GPU
pools: no pool may be served both by a DRA driver release's kubelet plugin
(``gpu_policy_support.dra_drivers``) and by a device plugin release (the
``nvidia-device-plugin`` chart's placement; the GPU Operator's plugin runs on every GPU node).
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.vendors import NVIDIA
from gpu_policy_support.device_plugin_configs import release_configs
from gpu_policy_support.dra_drivers import dra_driver_releases
from gpu_policy_support.helm_releases import (
    CHART_NAME,
    chart_name,
    device_plugin_owners,
    release_label,
)
from gpu_policy_support.node_pools import stack_gpu_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, exempt_names, stack_policy
from gpu_policy_support.stack_index import index_by_type

INFO = PolicyInfo(
    name="dra-driver-not-beside-device-plugin",
    description=(
        "No GPU pool is served both by NVIDIA's DRA driver (its GPU kubelet plugin, placed by "
        "values.kubeletPlugin) and by a device plugin (the nvidia-device-plugin chart's "
        "placement, or the GPU Operator's plugin): two allocators hand the same GPUs out twice."
    ),
    practices=("BP-14", "BP-20"),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "Keep the two on disjoint pools: give the DRA driver's values.kubeletPlugin.affinity the "
        "DRA pools only, and the device plugin's values.affinity a label the DRA pools do not "
        "carry (the platform's pools: nvidia.com/device-plugin.config)."
    ),
    exemptions="names",
)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    skip = exempt_names(config)
    drivers = [d for d in dra_driver_releases(index) if d.resource.name not in skip]
    if not drivers:
        return
    plugins = [r for r in device_plugin_owners(index) if r.name not in skip]
    for pool, resource in stack_gpu_pools(index):
        if pool.vendor is not NVIDIA or resource.name in skip:
            continue
        dra = [d.resource for d in drivers if d.serves(pool)]
        # The plugin chart where its placement admits the pool; the GPU Operator everywhere.
        beside = [
            r
            for r in plugins
            if chart_name(r.props) != CHART_NAME or release_configs(r).placement.admits(pool.labels)
        ]
        if dra and beside:
            report(
                f"GPU node pool '{pool.name}' is served by NVIDIA's DRA driver "
                f"({', '.join(release_label(r) for r in dra)}) and by a device plugin "
                f"({', '.join(release_label(r) for r in beside)}): both would hand out its GPUs.",
                resource.urn,
            )


POLICY = stack_policy(INFO, validate)
