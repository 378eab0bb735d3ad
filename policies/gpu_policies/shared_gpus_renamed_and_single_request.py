"""Device plugin sharing configs make shared GPUs visible as such.

Time-slicing and MPS put every pod of a GPU in one trust domain (no fault isolation; for
time-slicing no memory isolation either). Advertised as ``<resource>.shared``, a shared GPU is
asked for knowingly; under the plain name any pod asking a whole GPU lands on a shared one.
``failRequestsGreaterThanOne`` refuses a container asking several time-sliced replicas, which
would get no more GPU than one (chart README, "With CUDA Time-Slicing").
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.nvidia.device_plugin_chart import CHART_NAME
from gpu_facts.scheduling import SHARED_SUFFIX
from gpu_policy_support.device_plugin_configs import PluginConfig, release_configs
from gpu_policy_support.helm_releases import release_label, releases
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, exempt_names, stack_policy
from gpu_policy_support.stack_index import index_by_type

INFO = PolicyInfo(
    name="shared-gpus-renamed-and-single-request",
    description=(
        f"Every {CHART_NAME} sharing config (sharing.timeSlicing or sharing.mps in "
        f"values.config.map) sets renameByDefault true, so shared GPUs are advertised as "
        f"<resource>{SHARED_SUFFIX} and pods opt in to a shared trust domain knowingly; "
        "time-slicing configs also set failRequestsGreaterThanOne true."
    ),
    practices=("BP-15",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "In the sharing section of the config set renameByDefault: true (or give every "
        "resource its own rename) and, for timeSlicing, failRequestsGreaterThanOne: true; "
        "put only workloads that trust each other on the shared pool."
    ),
    exemptions="names",
)


def problems(config: PluginConfig) -> list[str]:
    """What a sharing config leaves out; nothing for configs that do not share."""
    if config.sharing is None:
        return []
    found = []
    renamed = config.resources and all(r.rename and r.rename != r.name for r in config.resources)
    if not config.rename_by_default and not renamed:
        found.append(
            f"advertises shared GPUs under their exclusive name: set renameByDefault: true "
            f"(<resource>{SHARED_SUFFIX})"
        )
    if config.sharing == "timeSlicing" and not config.fail_requests_greater_than_one:
        found.append(
            "lets a container ask several time-sliced replicas of a GPU (no more GPU time "
            "than one): set failRequestsGreaterThanOne: true"
        )
    return found


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    skip = exempt_names(config)
    for release in releases(index, CHART_NAME):
        if release.name in skip:
            continue
        for name, plugin_config in release_configs(release).configs.items():
            if name in skip:
                continue
            for problem in problems(plugin_config):
                report(
                    f"Device plugin release {release_label(release)} config '{name}' "
                    f"({plugin_config.sharing}) {problem}; every pod on a shared GPU is in one "
                    "trust domain.",
                    release.urn,
                )


POLICY = stack_policy(INFO, validate)
