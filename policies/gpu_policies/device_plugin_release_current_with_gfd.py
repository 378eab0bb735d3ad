"""The device plugin is 0.15.0 or newer, in its own namespace, with GFD built in, however it is
deployed: a Helm release of its chart (v3 Release or v4 Chart), or DaemonSets running its
image (the static manifests)."""

from __future__ import annotations

from pulumi_policy import (
    EnforcementLevel,
    PolicyResource,
    Severity,
    StackValidationArgs,
)

from gpu_facts.nvidia.device_plugin_chart import (
    CHART_NAME,
    GFD_CHART_NAME,
    MIN_VERSION,
    MIN_VERSION_MPS,
    MPS_NEEDS_VERSION,
    PLUGIN_IMAGE,
    at_least,
)
from gpu_policy_support.device_plugin_configs import release_configs
from gpu_policy_support.device_plugin_daemonsets import PluginDaemonSet, plugin_daemonsets
from gpu_policy_support.helm_releases import chart_version, release_label, releases
from gpu_policy_support.images import carries_version
from gpu_policy_support.policy_factory import (
    Config,
    PolicyInfo,
    Report,
    exempt_names,
    known_text,
    stack_policy,
)
from gpu_policy_support.props import is_true, mapping, path, text
from gpu_policy_support.stack_index import index_by_type

INFO = PolicyInfo(
    name="device-plugin-release-current-with-gfd",
    description=(
        f"Every Helm release of the {CHART_NAME} chart pins version {MIN_VERSION} or newer, "
        f"sets gfd.enabled true and installs into its own namespace, and every DaemonSet "
        f"running the plugin's image ({PLUGIN_IMAGE}) pins v{MIN_VERSION} or newer, runs "
        f"outside default and kube-system, beside GPU Feature Discovery from the same image; "
        f"no separate {GFD_CHART_NAME} release or image exists, since GPU Feature Discovery "
        f"ships with the plugin from {MIN_VERSION}. A release whose values.config.map shares "
        f"GPUs with MPS pins {MIN_VERSION_MPS} or newer."
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
    version = chart_version(props)
    if not version:
        problems.append(f"does not pin a chart version ({MIN_VERSION} or newer)")
    else:
        try:
            current = at_least(version, MIN_VERSION)
        except ValueError:
            current = False
        if not current:
            problems.append(f"pins version {version}, older than {MIN_VERSION}")
        elif not _at_least(version, MIN_VERSION_MPS):
            problems += _mps_problems(release, version)
    if not is_true(path(mapping(props.get("values")), "gfd", "enabled")):
        problems.append("does not set values.gfd.enabled to true")
    namespace = text(props.get("namespace")) or "default"
    if namespace in _SHARED_NAMESPACES:
        problems.append(f"installs into the shared namespace '{namespace}'")
    return problems


def _at_least(version: str, minimum: str) -> bool:
    try:
        return at_least(version, minimum)
    except ValueError:
        return False


def _current(version: str) -> bool:
    return _at_least(version, MIN_VERSION)


def _mps_problems(release: PolicyResource, version: str) -> list[str]:
    """An MPS config on a chart that does not serve it: the plan's rule, in its words
    (``MPS_NEEDS_VERSION``, which the stack config and NvidiaDevicePlugin say too)."""
    configs = release_configs(release).configs
    return [
        f"pins version {version} with the MPS config '{name}': {MPS_NEEDS_VERSION}"
        for name, config in configs.items()
        if config.sharing == "mps"
    ]


def _daemonset_problems(daemonset: PluginDaemonSet, gfd: bool) -> list[str]:
    problems = []
    if daemonset.digest is None and not carries_version(daemonset.tag):
        problems.append(f"does not pin a version (v{MIN_VERSION} or newer)")
    elif daemonset.digest is None and daemonset.tag and not _current(daemonset.tag):
        problems.append(f"runs version {daemonset.tag}, older than v{MIN_VERSION}")
    if not gfd:
        problems.append(
            "runs without GPU Feature Discovery (no DaemonSet runs gpu-feature-discovery from "
            "the plugin's image)"
        )
    namespace, known = known_text(daemonset.resource.props, "metadata", "namespace")
    namespace = namespace or "default"
    if known and namespace in _SHARED_NAMESPACES:
        problems.append(f"runs in the shared namespace '{namespace}'")
    return problems


DAEMONSET_FIX = (
    f"Install the device plugin from its Helm chart ({CHART_NAME} {MIN_VERSION} or newer, "
    f"values.gfd.enabled: true, its own namespace), or run {PLUGIN_IMAGE}:v{MIN_VERSION} or "
    "newer with a GPU Feature Discovery DaemonSet from the same image, in its own namespace."
)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
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
    daemonsets = [d for d in plugin_daemonsets(index) if d.resource.name not in skip]
    gfd = any(d.role == "gfd" for d in daemonsets)
    for daemonset in daemonsets:
        if daemonset.role == "plugin":
            for problem in _daemonset_problems(daemonset, gfd):
                report(
                    f"Device plugin DaemonSet {daemonset.label} {problem}.",
                    daemonset.resource.urn,
                    fix=DAEMONSET_FIX,
                )
        elif daemonset.role == "gfd-standalone":
            report(
                f"DaemonSet {daemonset.label} runs GPU Feature Discovery from its standalone "
                f"image; from {MIN_VERSION} it ships with the device plugin.",
                daemonset.resource.urn,
                fix=DAEMONSET_FIX,
            )


POLICY = stack_policy(INFO, validate)
