"""GPUs are whole-number limits; a request, if any, equals the limit."""

from __future__ import annotations

import re
from typing import Any

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_policy_support.pod_specs import Container, containers, gpu_resources, pod_sites
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import mapping

_WHOLE = re.compile(r"^\+?[0-9]+$")

INFO = PolicyInfo(
    name="gpu-limits-whole-numbers",
    description=(
        "Every container that asks for a GPU resource (nvidia.com/gpu, nvidia.com/mig-*, "
        "aliyun.com/gpu-mem...) sets it as a whole-number limit; a request, if given, equals "
        "the limit. Extended resources cannot be overcommitted or split."
    ),
    practices=("BP-03", "BP-04"),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        "Set resources.limits['nvidia.com/gpu'] (or the MIG / gpu-mem resource) to a whole "
        "number such as 1, and drop the request or make it equal to the limit."
    ),
)


def whole_number(value: Any) -> int | None:
    """The quantity as an int when it is a whole number (1, 1.0, "1"), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str) and _WHOLE.match(value.strip()):
        return int(value.strip())
    return None


def _validate_container(where: str, container: Container, report: Report) -> None:
    resources = mapping(container.spec.get("resources"))
    limits, requests = mapping(resources.get("limits")), mapping(resources.get("requests"))
    for resource in sorted(gpu_resources(container)):
        if resource not in limits:
            report(f"{where} requests {resource} without a limit; set it as a limit.")
            continue
        limit = whole_number(limits[resource])
        if limit is None:
            report(f"{where} limits {resource} to {limits[resource]!r}, not a whole number.")
            continue
        if resource in requests and whole_number(requests[resource]) != limit:
            report(
                f"{where} requests {resource}: {requests[resource]!r}, which differs from "
                f"its limit {limits[resource]!r}."
            )


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    for site in pod_sites(args.resource_type, args.props):
        for container in containers(site.spec):
            _validate_container(f"{site.named(args.name)} {container.label}", container, report)


POLICY = resource_policy(INFO, validate)
