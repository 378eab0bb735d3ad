"""Runs policies the way the analyzer does, without a server: args built directly.

Props are wrapped in ``unknown_checking_proxy`` (Mapping/Sequence proxies, not dicts), and
``config`` is exactly what ``get_config()`` returns, as under ``pulumi preview``.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pulumi_policy import (
    PolicyCustomTimeouts,
    PolicyResource,
    PolicyResourceOptions,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
)
from pulumi_policy.proxy import unknown_checking_proxy

from gpu_policies.registry import REGISTERED, Policy


def policy_named(name: str) -> Policy:
    for entry in REGISTERED:
        if entry.policy.name == name:
            return entry.policy
    raise KeyError(name)


@dataclass(frozen=True)
class Res:
    """One resource of a case: type token, Pulumi name, props, names of its dependencies and
    its deleteBeforeReplace option."""

    type: str
    name: str
    props: dict[str, Any]
    depends_on: tuple[str, ...] = ()
    delete_before_replace: bool = False
    parent: str | None = None
    """Pulumi name of the parent resource (e.g. the Helm chart that rendered it)."""

    @property
    def urn(self) -> str:
        return f"urn:pulumi:test::policies::{self.type}::{self.name}"


@dataclass(frozen=True)
class Case:
    """A policy run on some resources, and the message fragments it must report (none: pass)."""

    policy: str
    id: str
    resources: tuple[Res, ...]
    expect: tuple[str, ...] = ()
    config: Mapping[str, Any] | None = field(default=None)

    @property
    def passes(self) -> bool:
        return not self.expect


def opts(parent: str | None = None, delete_before_replace: bool = False) -> PolicyResourceOptions:
    return PolicyResourceOptions(
        False, [], delete_before_replace, [], PolicyCustomTimeouts(0, 0, 0), [], parent
    )


def _run(validate: Callable[..., Any], args: Any, report: Callable[..., None]) -> None:
    result = validate(args, report)
    if inspect.isawaitable(result):
        asyncio.run(result)  # type: ignore[arg-type]


def violations(
    policy: Policy, resources: tuple[Res, ...] | list[Res], config: Mapping[str, Any] | None = None
) -> list[tuple[str, str | None]]:
    """(message, urn) of every violation ``policy`` reports on ``resources``."""
    found: list[tuple[str, str | None]] = []
    config = dict(config or {})
    if isinstance(policy, ResourceValidationPolicy):
        for res in resources:
            args = ResourceValidationArgs(
                res.type,
                unknown_checking_proxy(copy.deepcopy(res.props)),
                res.urn,
                res.name,
                opts(delete_before_replace=res.delete_before_replace),
                None,
                config=config,
                stack_tags={},
            )

            def report(message: str, urn: str | None = None, _urn: str = res.urn) -> None:
                found.append((message, urn or _urn))

            _run(policy.validate, args, report)
        return found
    by_name: dict[str, PolicyResource] = {}
    for res in resources:
        by_name[res.name] = PolicyResource(
            res.type,
            unknown_checking_proxy(copy.deepcopy(res.props)),
            res.urn,
            res.name,
            opts(delete_before_replace=res.delete_before_replace),
            None,
            by_name.get(res.parent) if res.parent else None,
            [by_name[d] for d in res.depends_on if d in by_name],
            {},
        )
    stack_args = StackValidationArgs(list(by_name.values()), config=config, stack_tags={})
    _run(policy.validate, stack_args, lambda message, urn=None: found.append((message, urn)))
    return found


def messages(case: Case) -> list[str]:
    return [m for m, _ in violations(policy_named(case.policy), case.resources, case.config)]


def assert_case(case: Case) -> None:
    """The case passes with no violation, or fails with one message per expected fragment."""
    found = messages(case)
    if case.passes:
        assert found == [], f"{case.policy}/{case.id}: unexpected {found}"
        return
    assert len(found) == len(case.expect), f"{case.policy}/{case.id}: got {found}"
    for fragment, message in zip(case.expect, found, strict=True):
        assert fragment in message, f"{case.policy}/{case.id}: {fragment!r} not in {message!r}"
