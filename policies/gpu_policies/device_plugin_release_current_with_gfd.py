"""The device plugin chart is 0.15.0 or newer, in its own namespace, with GFD built in."""

from __future__ import annotations

from pulumi_policy import (
    EnforcementLevel,
    PolicyResource,
    Severity,
    StackValidationArgs,
)

from gpu_facts.device_plugin_chart import CHART_NAME, GFD_CHART_NAME, MIN_VERSION, at_least

from .building import Config, PolicyInfo, Report, exempt_names, stack_policy
from .helm_releases import release_label, releases
from .props import is_true, mapping, path, text
from .stack_index import index_by_type

INFO = PolicyInfo(
    name="device-plugin-release-current-with-gfd",
    description=(
        f"Every Helm release of the {CHART_NAME} chart pins version {MIN_VERSION} or newer, "
        f"sets gfd.enabled true and installs into its own namespace; no separate "
        f"{GFD_CHART_NAME} release exists, since GPU Feature Discovery ships in the plugin's "
        f"chart from {MIN_VERSION}."
    ),
    practices=("BP-14",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"Pin the {CHART_NAME} release to {MIN_VERSION} or newer, set values.gfd.enabled to "
        f"true and a dedicated namespace, and remove any {GFD_CHART_NAME} release."
    ),
    exemptions="names",
)

_SHARED_NAMESPACES = frozenset({"default", "kube-system"})


def _problems(release: PolicyResource) -> list[str]:
    props = release.props
    problems = []
    version = text(props.get("version"))
    if not version:
        problems.append(f"does not pin a chart version ({MIN_VERSION} or newer)")
    else:
        try:
            current = at_least(version, MIN_VERSION)
        except ValueError:
            current = False
        if not current:
            problems.append(f"pins version {version}, older than {MIN_VERSION}")
    if not is_true(path(mapping(props.get("values")), "gfd", "enabled")):
        problems.append("does not set values.gfd.enabled to true")
    namespace = text(props.get("namespace")) or "default"
    if namespace in _SHARED_NAMESPACES:
        problems.append(f"installs into the shared namespace '{namespace}'")
    return problems


def check(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    skip = exempt_names(config)
    for release in releases(index, CHART_NAME):
        if release.name in skip:
            continue
        for problem in _problems(release):
            report(f"Device plugin release {release_label(release)} {problem}.", release.urn)
    for release in releases(index, GFD_CHART_NAME):
        if release.name in skip:
            continue
        report(
            f"Release {release_label(release)} installs GPU Feature Discovery separately; "
            f"enable gfd in the {CHART_NAME} release instead.",
            release.urn,
        )


POLICY = stack_policy(INFO, check)
