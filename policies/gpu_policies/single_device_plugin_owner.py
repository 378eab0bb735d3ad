"""One owner of the device plugin, never both its chart and the GPU Operator."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_policy_support.device_plugin_daemonsets import plugin_daemonsets
from gpu_policy_support.helm_releases import GPU_OPERATOR_CHART, device_plugin_owners, release_label
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, exempt_names, stack_policy
from gpu_policy_support.stack_index import index_by_type

INFO = PolicyInfo(
    name="single-device-plugin-owner",
    description=(
        "At most one owner deploys the NVIDIA device plugin: a release of the "
        f"nvidia-device-plugin chart, the {GPU_OPERATOR_CHART} chart with devicePlugin enabled, "
        "or a DaemonSet running the plugin's image, not two; two plugins advertise the same "
        "GPUs twice."
    ),
    practices=("BP-14", "BP-20"),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"Keep one owner: remove the nvidia-device-plugin release or DaemonSet, or set "
        f"values.devicePlugin.enabled to false in the {GPU_OPERATOR_CHART} release."
    ),
    exemptions="names",
)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    skip = exempt_names(config)
    index = index_by_type(args.resources)
    owners = [(release_label(r), r) for r in device_plugin_owners(index) if r.name not in skip]
    owners += [
        (f"{d.label} (DaemonSet)", d.resource)
        for d in plugin_daemonsets(index)
        if d.role == "plugin" and d.resource.name not in skip
    ]
    if len(owners) > 1:
        labels = ", ".join(label for label, _ in owners)
        report(f"The device plugin has {len(owners)} owners: {labels}; keep one.", owners[1][1].urn)


POLICY = stack_policy(INFO, validate)
