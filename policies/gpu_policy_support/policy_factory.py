"""The policy factory: makes every policy of the pack in one shape (BP-ID tags, exemptions,
config defaults).

Each policy module states what it checks; this module adds what every policy shares: the
exemption config (by namespace and by name), schema defaults that also apply when a policy
is called without them (unit tests, old CLIs), and tags that carry the BP-IDs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pulumi_policy import (
    EnforcementLevel,
    PolicyConfigSchema,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    Severity,
    StackValidationArgs,
    StackValidationPolicy,
)
from pulumi_policy.proxy import UnknownValueError

from gpu_facts.ack.addons import ACK_SYSTEM_NAMESPACE
from gpu_facts.nvidia.device_plugin_chart import DEFAULT_NAMESPACE, GPU_OPERATOR_DEFAULT_NAMESPACE

from .props import items, path, per_props, text

EXEMPT_NAMESPACES = "exemptNamespaces"
EXEMPT_NAMES = "exemptNames"
# The device plugin's, the GPU Operator's and ACK's MPS control daemon's own pods run
# privileged with host namespaces by design.
DEFAULT_EXEMPT_NAMESPACES: tuple[str, ...] = (
    DEFAULT_NAMESPACE,
    GPU_OPERATOR_DEFAULT_NAMESPACE,
    ACK_SYSTEM_NAMESPACE,
)

Exemptions = Literal["namespaces-and-names", "names"]
Config = Mapping[str, Any]


class Report(Protocol):
    """Reports one violation; the URN defaults to the resource being checked. The message
    says what is wrong; ``fix`` what to change, else the policy's remediation steps; ``note``
    what follows (a stack policy's ``unknown_namespace_note`` for the resource it blames)."""

    def __call__(
        self, message: str, urn: str | None = None, *, fix: str | None = None, note: str = ""
    ) -> None: ...


FIX_PREFIX = " Fix: "
"""Every violation message ends with what to change, after this marker."""


ResourceValidator = Callable[[ResourceValidationArgs, Config, Report], None]
StackValidator = Callable[[StackValidationArgs, Config, Report], None]


def _reporter(
    info: PolicyInfo, report_violation: ReportViolation, note_for_all: str = ""
) -> Report:
    """A Report that ends every message with its remediation (then ``note_for_all``, if any)."""

    def report(
        message: str, urn: str | None = None, *, fix: str | None = None, note: str = ""
    ) -> None:
        fixed = f"{message}{FIX_PREFIX}{fix or info.remediation_steps}"
        report_violation(f"{fixed}{note}{note_for_all}", urn)

    return report


@dataclass(frozen=True, slots=True)
class PolicyInfo:
    """What a policy is: its name, the practices it enforces and how it reports."""

    name: str
    description: str
    practices: tuple[str, ...]
    enforcement_level: EnforcementLevel
    severity: Severity
    remediation_steps: str
    exemptions: Exemptions = "namespaces-and-names"
    config: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Extra config properties (JSON schema, each with a ``default``)."""


def _schema(info: PolicyInfo) -> dict[str, dict[str, Any]]:
    names = {
        EXEMPT_NAMES: {
            "type": "array",
            "items": {"type": "string"},
            "default": [],
            "description": "Resource names (Pulumi name or metadata.name) this policy skips.",
        }
    }
    if info.exemptions == "names":
        return {**names, **info.config}
    namespaces = {
        EXEMPT_NAMESPACES: {
            "type": "array",
            "items": {"type": "string"},
            "default": list(DEFAULT_EXEMPT_NAMESPACES),
            "description": "Namespaces this policy skips.",
        }
    }
    return {**namespaces, **names, **info.config}


def _with_defaults(schema: Mapping[str, Mapping[str, Any]], config: Config) -> dict[str, Any]:
    merged = {key: prop["default"] for key, prop in schema.items() if "default" in prop}
    merged.update(config)
    return merged


def exempt_names(config: Config) -> frozenset[str]:
    return frozenset(str(n) for n in items(config.get(EXEMPT_NAMES)))


def exempt_namespaces(config: Config) -> frozenset[str]:
    return frozenset(str(n) for n in items(config.get(EXEMPT_NAMESPACES)))


def known_text(props: Mapping[str, Any], *keys: str) -> tuple[str | None, bool]:
    """The string at ``keys`` (None if absent), and False when it is unknown at preview."""
    try:
        return text(path(props, *keys)), True
    except UnknownValueError:
        return None, False


def _identity(props: Mapping[str, Any]) -> tuple[str | None, str | None, bool]:
    """metadata.name, metadata.namespace and whether the namespace is known at preview."""
    object_name, _ = known_text(props, "metadata", "name")
    namespace, known = known_text(props, "metadata", "namespace")
    return object_name, namespace, known


def is_exempt(name: str, props: Mapping[str, Any], config: Config) -> bool:
    """Whether a resource is exempt by its Pulumi name, metadata.name or namespace.

    Never raises for values unknown at preview: an unknown metadata.name or namespace matches
    no exemption, so the resource is judged (one resource's unknown namespace must not turn a
    whole stack policy into the analyzer's advisory "can't run policy").
    """
    names = exempt_names(config)
    object_name, namespace, _ = per_props(props, "identity", _identity)
    if name in names or object_name in names:
        return True
    return namespace is not None and namespace in exempt_namespaces(config)


UNKNOWN_NAMESPACE_NOTE = (
    " (metadata.namespace is not known during preview, so the namespace exemptions could not "
    "apply; pass the namespace as a plain string, with depends_on on the Namespace)"
)


def unknown_namespace_note(props: Mapping[str, Any], config: Config) -> str:
    """What a violation adds when the resource's namespace is unknown and namespace
    exemptions exist: the verdict might change once the namespace is known."""
    _, _, known = per_props(props, "identity", _identity)
    return "" if known or not exempt_namespaces(config) else UNKNOWN_NAMESPACE_NOTE


def _tags(info: PolicyInfo) -> list[str]:
    return [*info.practices, "gpu"]


def resource_policy(info: PolicyInfo, validator: ResourceValidator) -> ResourceValidationPolicy:
    """A resource policy that skips exempt resources and sees its config with defaults."""
    schema = _schema(info)

    def validate(args: ResourceValidationArgs, report: ReportViolation) -> None:
        config = _with_defaults(schema, args.get_config())
        if is_exempt(args.name, args.props, config):
            return
        note = unknown_namespace_note(args.props, config)
        validator(args, config, _reporter(info, report, note))

    return ResourceValidationPolicy(
        name=info.name,
        description=info.description,
        validate=validate,
        enforcement_level=info.enforcement_level,
        config_schema=PolicyConfigSchema(properties=schema),
        severity=info.severity,
        tags=_tags(info),
        remediation_steps=info.remediation_steps,
    )


def stack_policy(info: PolicyInfo, validator: StackValidator) -> StackValidationPolicy:
    """A stack policy that sees its config with defaults; it applies exemptions itself."""
    schema = _schema(info)

    def validate(args: StackValidationArgs, report: ReportViolation) -> None:
        validator(args, _with_defaults(schema, args.get_config()), _reporter(info, report))

    return StackValidationPolicy(
        name=info.name,
        description=info.description,
        validate=validate,
        enforcement_level=info.enforcement_level,
        config_schema=PolicyConfigSchema(properties=schema),
        severity=info.severity,
        tags=_tags(info),
        remediation_steps=info.remediation_steps,
    )
