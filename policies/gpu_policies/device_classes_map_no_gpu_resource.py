"""No DeviceClass maps a GPU resource (``extendedResourceName``) but the platform's own.

A DeviceClass with ``extendedResourceName: nvidia.com/gpu`` makes the scheduler serve plain
``nvidia.com/gpu`` requests from its devices on every node no device plugin serves, and of two
classes naming one resource the newer wins: a team's class would take every such request over,
past the namespace quotas on claims and the device plugin's sharing configs. Only the class
NVIDIA's DRA driver ships for the platform is allowed to (``gpu_facts.dra``).
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.dra import DEVICE_CLASS, PLATFORM_EXTENDED_RESOURCE_CLASSES
from gpu_facts.scheduling import is_gpu_resource
from gpu_policy_support.claims import resource_kind
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import path, text

INFO = PolicyInfo(
    name="device-classes-map-no-gpu-resource",
    description=(
        "No DeviceClass sets spec.extendedResourceName to a GPU resource (nvidia.com/gpu, "
        "nvidia.com/mig-*, amd.com/gpu...) but the platform's own (gpu.nvidia.com -> "
        "nvidia.com/gpu, from NVIDIA's DRA driver): the newest class naming a resource serves "
        "every plain request for it from its devices, past claim quotas and sharing configs."
    ),
    practices=("BP-13", "BP-17"),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "Remove spec.extendedResourceName and ask for these devices through ResourceClaims; "
        "the platform's DRA driver already maps nvidia.com/gpu on its DRA pools."
    ),
    exemptions="names",
)


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    if resource_kind(args.resource_type) != DEVICE_CLASS:
        return
    mapped = text(path(args.props, "spec", "extendedResourceName"))
    if mapped is None or not is_gpu_resource(mapped):
        return
    name = text(path(args.props, "metadata", "name")) or args.name
    if PLATFORM_EXTENDED_RESOURCE_CLASSES.get(name) == mapped:
        return
    report(
        f"DeviceClass '{name}' maps the GPU resource {mapped} (spec.extendedResourceName): "
        f"the newest class naming it would serve every plain {mapped} request from its devices."
    )


POLICY = resource_policy(INFO, validate)
