"""Apply the CrossGuard policy pack to a recorded program run, as ``pulumi preview`` would.

Resource policies see each resource's inputs; stack policies see every resource's outputs
(here: inputs plus the mock's computed outputs), each wrapped in the same unknown-checking
proxies the real analyzer uses. A remote component's outputs are its plugin's, which does not
run offline: stack policies see what the program gave it (its inputs) where its outputs are
missing, as they see a custom resource's (``stack_props``).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pulumi_policy import (
    EnforcementLevel,
    PolicyCustomTimeouts,
    PolicyResource,
    PolicyResourceOptions,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)
from pulumi_policy.proxy import UnknownValueError, unknown_checking_proxy

from .engine import RecordedResource, reveal
from .kubernetes_types import BUILT_OFFLINE
from .policy_config import LEVEL_KEY, policy_properties

Policy = ResourceValidationPolicy | StackValidationPolicy


class PolicyError(Exception):
    """A policy raised instead of judging (as under ``pulumi preview``, the run fails)."""

    def __init__(self, policy: str, urn: str | None, err: Exception | str) -> None:
        where = f" on {urn}" if urn else ""
        said = err if isinstance(err, str) else f"{type(err).__name__}: {err}"
        super().__init__(f"policy {policy} failed{where}: {said}")
        self.policy, self.urn, self.said = policy, urn, said


@dataclass(frozen=True)
class Violation:
    policy: str
    enforcement: str
    """``mandatory`` or ``advisory``."""
    urn: str | None
    message: str


def _options(res: RecordedResource) -> PolicyResourceOptions:
    return PolicyResourceOptions(
        res.protect,
        res.ignore_changes,
        res.delete_before_replace,
        res.aliases,
        PolicyCustomTimeouts(0, 0, 0),
        [],
        res.parent,
    )


def _settings(
    policy: Policy, pack_config: Mapping[str, Any], default_level: EnforcementLevel
) -> tuple[EnforcementLevel, dict[str, Any]]:
    """Enforcement level and config of one policy: schema defaults, then the pack config."""
    level = policy.enforcement_level or default_level
    config = policy_properties(policy, {})
    for key in ("all", policy.name):
        entry = pack_config.get(key)
        if isinstance(entry, str):
            level = EnforcementLevel(entry)
        elif isinstance(entry, Mapping):
            if LEVEL_KEY in entry:
                level = EnforcementLevel(entry[LEVEL_KEY])
            if key == policy.name:
                config = policy_properties(policy, entry)
    return level, config


def _run(validate: Any, args: Any, report: Any) -> None:
    result = validate(args, report)
    if inspect.isawaitable(result):
        asyncio.run(result)  # type: ignore[arg-type]


def run_policies(
    resources: Iterable[RecordedResource],
    policies: Iterable[Policy],
    pack_config: Mapping[str, Any] | None = None,
    default_level: EnforcementLevel = EnforcementLevel.ADVISORY,
    stack_tags: Mapping[str, str] | None = None,
) -> list[Violation]:
    """Every violation the pack reports for ``resources``.

    The props proxies, options and the stack view are built once per run and shared by every
    policy: they are read-only, and rebuilding them per policy was most of the pack's cost.
    Secrets reach policies unwrapped, as pulumi_policy's deserializer hands them over.
    """
    pack_config = pack_config or {}
    resources = list(resources)
    tags = dict(stack_tags or {})
    violations: list[Violation] = []
    inputs = [(res, unknown_checking_proxy(reveal(res.inputs)), _options(res)) for res in resources]
    stack_view: list[PolicyResource] | None = None

    def unknown(policy: Policy, urn: str | None, err: UnknownValueError) -> Violation:
        return Violation(
            policy.name, "advisory", urn, f"can't run policy during preview: {err.message}"
        )

    for policy in policies:
        level, config = _settings(policy, pack_config, default_level)
        if level == EnforcementLevel.DISABLED:
            continue
        enforcement = (
            "mandatory"
            if level in (EnforcementLevel.MANDATORY, EnforcementLevel.REMEDIATE)
            else "advisory"
        )

        def report(
            message: str, urn: str | None, _p: Policy = policy, _e: str = enforcement
        ) -> None:
            violations.append(Violation(_p.name, _e, urn, message))

        if isinstance(policy, ResourceValidationPolicy):
            for res, props, options in inputs:
                args = ResourceValidationArgs(
                    res.type,
                    props,
                    res.urn,
                    res.name,
                    options,
                    None,
                    config=config,
                    stack_tags=tags,
                )

                def report_res(message: str, urn: str | None = None, _urn: str = res.urn) -> None:
                    report(message, urn or _urn)

                try:
                    _run(policy.validate, args, report_res)
                except UnknownValueError as err:
                    violations.append(unknown(policy, res.urn, err))
                except Exception as err:
                    raise PolicyError(policy.name, res.urn, err) from err
        else:
            if stack_view is None:
                stack_view = _stack_view(resources)

            def report_stack(message: str, urn: str | None = None) -> None:
                report(message, urn)

            try:
                _run(
                    policy.validate,
                    StackValidationArgs(stack_view, config=config, stack_tags=tags),
                    report_stack,
                )
            except UnknownValueError as err:
                violations.append(unknown(policy, None, err))
            except Exception as err:
                raise PolicyError(policy.name, None, err) from err
    return violations


def stack_props(res: RecordedResource) -> dict[str, Any]:
    """A resource's props as stack policies see them: its outputs; for a remote component,
    whose plugin computes its outputs and does not run offline, its inputs overlaid with the
    outputs it has (``--mocks``).

    A real preview runs the plugin: a pulumi-eks ``ManagedNodeGroup`` registers an
    ``aws:eks/nodeGroup:NodeGroup`` child carrying the same taints and instance types, a Helm
    chart the objects its values render. The inputs are what the program decided; offline they
    are the one place that knowledge is, so stack policies judge a component with them rather
    than with an empty view (an untainted-looking node group).

    The Kubernetes provider's components (Helm v4 ``Chart``, yaml/v2 ``ConfigFile`` and
    ``ConfigGroup``) are built offline as the provider builds them (``kubernetes_components``):
    their children are what a real preview shows, so they keep their outputs, as there.
    """
    if not res.remote or res.type in BUILT_OFFLINE:
        return res.outputs
    return {**res.inputs, **res.outputs}


def _stack_view(resources: list[RecordedResource]) -> list[PolicyResource]:
    """What stack policies see: every resource's outputs, with parents and dependencies."""
    by_urn: dict[str, PolicyResource] = {}
    view = []
    for res in resources:
        pr = PolicyResource(
            res.type,
            unknown_checking_proxy(reveal(stack_props(res))),
            res.urn,
            res.name,
            _options(res),
            None,
            by_urn.get(res.parent or ""),
            [by_urn[d] for d in res.dependencies if d in by_urn],
            {},
        )
        by_urn[res.urn] = pr
        view.append(pr)
    return view
