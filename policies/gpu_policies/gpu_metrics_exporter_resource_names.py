"""The dcgm-exporter knows every GPU resource name the pools it watches expose.

The exporter maps a GPU to the pod holding it through the kubelet's pod-resources API, for
``nvidia.com/gpu`` and ``nvidia.com/mig-*`` by itself and for any other name only when told it
(``NVIDIA_RESOURCE_NAMES`` / ``--nvidia-resource-names``). A time-sliced or MPS pool renamed to
``nvidia.com/gpu.shared`` is otherwise invisible per pod: its GPUs' series carry no pod or
namespace, and the per-namespace GPU use leaves those namespaces out. Only ``nvidia.com/``
names are owed: ACK's ``aliyun.com/gpu-mem`` cannot be attributed whatever the exporter is told
(its device IDs are not the GPUs':
``gpu_facts.nvidia.dcgm_exporter_chart.UNATTRIBUTABLE_RESOURCES``), so an exporter on an
ACK-shared pool owes nothing for it.

What a pool exposes comes from the capacity model through ``exposed_gpu_resources`` (its
machine type, MIG profile and the device-plugin config its nodes select: the
``nvidia-device-plugin`` release's, or the GPU Operator's ``devicePlugin.config``). A stack that
declares no GPU pool (an existing cluster) is judged on every config of its plugin: any node may
select one. Configs in an external ConfigMap cannot be read at preview: nothing is judged then.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_facts.nvidia.dcgm_exporter_chart import (
    CHART_NAME,
    NATIVE_RESOURCE,
    NATIVE_RESOURCE_PREFIX,
    RESOURCE_NAMES_ENV,
)
from gpu_facts.nvidia.device_plugin_chart import CHART_NAME as PLUGIN_CHART
from gpu_facts.nvidia.device_plugin_chart import GPU_OPERATOR_CHART_NAME
from gpu_facts.scheduling import NVIDIA_RESOURCE_DOMAIN
from gpu_policy_support.device_plugin_configs import (
    ReleaseConfigs,
    operator_configs,
    release_configs,
)
from gpu_policy_support.exposed_gpu_resources import exposed_resources, shared_names
from gpu_policy_support.helm_releases import deploys_device_plugin, releases
from gpu_policy_support.metrics_exporters import Exporter, exporters
from gpu_policy_support.node_pools import NodePool, stack_gpu_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, exempt_names, stack_policy
from gpu_policy_support.props import text
from gpu_policy_support.stack_index import index_by_type, object_name

INFO = PolicyInfo(
    name="gpu-metrics-exporter-resource-names",
    description=(
        f"Every {CHART_NAME} of the stack (a release of its chart, a DaemonSet of its image, the "
        f"GPU Operator's) is told, in {RESOURCE_NAMES_ENV}, every GPU resource the pools it runs "
        f"on expose beyond {NATIVE_RESOURCE} and {NATIVE_RESOURCE_PREFIX}* (e.g. "
        f"{NATIVE_RESOURCE}.shared of time-sliced pools); else pods on those GPUs get no pod or "
        "namespace label."
    ),
    practices=("BP-09",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        f"Set {RESOURCE_NAMES_ENV} on the exporter to the pools' resource names, comma-separated "
        "(chart: values.extraEnv; GPU Operator: values.dcgmExporter.env); our DcgmExporter sets "
        "it from the pools."
    ),
    exemptions="names",
)


def plugin_configs(index: Mapping[str, list[PolicyResource]]) -> list[ReleaseConfigs]:
    """The device-plugin configs of the stack: the plugin chart's and the GPU Operator's."""
    found = [release_configs(release) for release in releases(index, PLUGIN_CHART)]
    found += [
        operator_configs(release)
        for release in releases(index, GPU_OPERATOR_CHART_NAME)
        if deploys_device_plugin(release)
    ]
    return found


def exporter_names(resource: PolicyResource) -> set[str]:
    """The names an exemption may give an exporter: Pulumi's, the release's, metadata.name."""
    return {resource.name, object_name(resource), text(resource.props.get("name")) or ""}


def needed(
    exporter: Exporter, pools: list[NodePool], plugins: list[ReleaseConfigs]
) -> dict[str, list[str]]:
    """NVIDIA resources the exporter must be told but is not, each with where it is exposed."""
    missing: dict[str, list[str]] = defaultdict(list)
    if pools:
        for pool in pools:
            if exporter.misses(pool) is not None:
                continue  # not on this pool: gpu-pools-have-metrics-exporter says so
            for name in sorted(exposed_resources(pool, plugins).resources):
                if name.startswith(NVIDIA_RESOURCE_DOMAIN) and not exporter.attributes(name):
                    missing[name].append(f"pool {pool.name}")
        return missing
    for plugin in plugins:
        for config in plugin.configs.values():
            for name in sorted(shared_names(config)):
                if name.startswith(NVIDIA_RESOURCE_DOMAIN) and not exporter.attributes(name):
                    missing[name].append(f"config '{config.name}' of '{plugin.release}'")
    return missing


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    skip = exempt_names(config)
    found = [e for e in exporters(index) if not skip & exporter_names(e.resource)]
    if not found:
        return
    plugins = plugin_configs(index)
    if any(plugin.external for plugin in plugins):
        return
    pools = [pool for pool, _ in stack_gpu_pools(index)]
    for exporter in found:
        if exporter.declared is None:
            continue  # its names are not known at preview
        missing = needed(exporter, pools, plugins)
        if not missing:
            continue
        told = ", ".join(sorted(exporter.declared)) or "nothing"
        where = "; ".join(f"{name} ({', '.join(at)})" for name, at in sorted(missing.items()))
        names = ",".join(sorted(exporter.declared | set(missing)))
        report(
            f"{exporter.label} does not know {where}: {exporter.names_via} tells it {told}, and "
            f"it attributes only {NATIVE_RESOURCE} and {NATIVE_RESOURCE_PREFIX}* by itself, so "
            "pods on those GPUs get no pod or namespace label and their namespaces' GPU use is "
            "not seen.",
            exporter.resource.urn,
            fix=f"Set {exporter.names_via}={names} in {exporter.names_at}.",
        )


POLICY = stack_policy(INFO, validate)
