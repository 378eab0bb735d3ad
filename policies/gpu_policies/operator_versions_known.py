"""The pods operators build from custom resources are judged as a known operator version builds
them; a stack that runs another version, or does not say which, is told so.

KAITO's ``Workspace`` and NVIDIA's ``NIMService`` hold no pod: the pack builds the pod as the
operator's code does (``gpu_facts.operators``), at the release those facts were read at. The
stack says which version runs through a Helm release of the operator's chart (its version), or
the team says it in this policy's config (``operatorVersions``); a custom resource at an API
version the facts do not list is read as the listed ones too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_facts.operators import OPERATORS, OperatorRelease
from gpu_policy_support.helm_releases import chart_version, releases
from gpu_policy_support.pod_specs import pod_bearing
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, exempt_names, stack_policy
from gpu_policy_support.props import mapping, text
from gpu_policy_support.stack_index import index_by_type, workload_names

OPERATOR_VERSIONS = "operatorVersions"
_HELD = ", ".join(f"{o.name} {o.version}" for o in OPERATORS)

INFO = PolicyInfo(
    name="operator-versions-known",
    description=(
        "Pods that operators build from custom resources (KAITO Workspace and InferenceSet; "
        "NVIDIA NIMService, NIMPipeline and NIMCache) are judged as the operator releases the "
        f"pack's facts were read at build them ({_HELD}); a stack whose operator is another "
        "version, or whose version it does not say, is told its pods were judged so."
    ),
    practices=("BP-04",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.LOW,
    remediation_steps=(
        "Install the operator in this stack (a Helm release of its chart, pinned), or give its "
        f"version in this policy's {OPERATOR_VERSIONS} config (e.g. "
        '{"kaito": "0.12.0", "nim-operator": "3.1.2"}); at another version, check the pods it '
        "builds against the policies by hand."
    ),
    exemptions="names",
    config={
        OPERATOR_VERSIONS: {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "default": {},
            "description": (
                "The version of each operator the cluster runs, when the stack does not install "
                "it: kaito, nim-operator."
            ),
        }
    },
)


def _custom_resources(
    index: Mapping[str, list[PolicyResource]], skip: frozenset[str]
) -> dict[OperatorRelease, list[tuple[PolicyResource, bool]]]:
    """Each operator's custom resources in the stack, with whether their API version is one
    the facts list."""
    found: dict[OperatorRelease, list[tuple[PolicyResource, bool]]] = defaultdict(list)
    for resource_type, resources in index.items():
        kind = pod_bearing(resource_type)
        if kind is None or kind.made_by is None:
            continue
        version = resource_type.split(":")[1].rpartition("/")[2]
        for resource in resources:
            if resource.name not in skip:
                found[kind.made_by].append((resource, version in kind.versions))
    return found


def _said_version(
    operator: OperatorRelease, index: Mapping[str, list[PolicyResource]], config: Config
) -> tuple[str | None, str]:
    """The operator's version as the config or the stack's release of its chart says it, and
    where it was read; (None, "") when nothing says."""
    configured = text(mapping(config.get(OPERATOR_VERSIONS)).get(operator.key))
    if configured:
        return configured, f"this policy's {OPERATOR_VERSIONS}"
    for release in releases(index, operator.chart):
        version = chart_version(release.props)
        if version:
            return version, f"the stack's release of its chart '{operator.chart}'"
    return None, ""


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    skip = exempt_names(config)
    for operator, found in _custom_resources(index, skip).items():
        resources = [resource for resource, _ in found]
        named = workload_names(resources)
        judged = f"judged as {operator.name} {operator.version} builds them"
        unlisted = [resource for resource, listed in found if not listed]
        if unlisted:
            report(
                f"{workload_names(unlisted)} use an API version the pack's {operator.name} facts "
                f"({operator.source}) do not list: their pods were {judged}.",
                unlisted[0].urn,
            )
        version, where = _said_version(operator, index, config)
        if version is None:
            report(
                f"The pods of {named} were {judged} ({operator.source}): the stack does not say "
                f"which version of {operator.name} runs the cluster.",
                resources[0].urn,
            )
        elif not operator.holds_for(version):
            report(
                f"{operator.name} runs at {version} ({where}), but the pack's facts are "
                f"{operator.name} {operator.version}'s: the pods of {named} were {judged}.",
                resources[0].urn,
            )


POLICY = stack_policy(INFO, validate)
