"""shared-gpus-renamed-and-single-request: shared GPUs renamed, one per container."""

from __future__ import annotations

import pytest
from gpu_policy_support.device_plugin_configs import parse_config

from .harness import Case, Res, assert_case, policy_named, violations
from .platform_fixtures import (
    T4_POOL,
    many_workloads_stack,
    plain,
    plugin_release,
    shared,
    t4_stack,
)
from .stack_fixtures import walks_once

SHARED = "shared-gpus-renamed-and-single-request"

CASES: list[Case] = [
    Case(SHARED, "renamed-single-request", t4_stack(shared())),
    Case(SHARED, "mps-renamed", t4_stack(shared("mps", fail=None))),
    Case(SHARED, "no-sharing", t4_stack(plain())),
    Case(
        SHARED,
        "every-resource-renamed",
        t4_stack(shared(rename=None, resource_rename="nvidia.com/t4-slice")),
    ),
    Case(SHARED, "exempt-config", t4_stack(shared(rename=False)), config={"exemptNames": ["t4"]}),
    Case(SHARED, "not-renamed", t4_stack(shared(rename=False)), ("config 't4' (timeSlicing)",)),
    Case(SHARED, "rename-unset", t4_stack(shared(rename=None)), ("renameByDefault: true",)),
    Case(
        SHARED, "many-per-container", t4_stack(shared(fail=False)), ("failRequestsGreaterThanOne",)
    ),
    Case(
        SHARED,
        "neither",
        t4_stack(shared(rename=False, fail=None)),
        ("renameByDefault", "failRequestsGreaterThanOne"),
    ),
    Case(SHARED, "mps-not-renamed", t4_stack(shared("mps", rename=False)), ("(mps)",)),
    Case(
        SHARED,
        "v4-chart",
        (
            Res(
                "kubernetes:helm.sh/v4:Chart",
                "p",
                plugin_release({"t4": shared(rename=False)}).props,
            ),
        ),
        ("renameByDefault",),
    ),
    Case(
        SHARED,
        "exempt-release",
        t4_stack(shared(rename=False)),
        config={"exemptNames": ["device-plugin"]},
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_violations_point_at_the_release() -> None:
    release = plugin_release({"t4": shared(rename=False)})
    assert [urn for _, urn in violations(policy_named(SHARED), (T4_POOL, release))] == [release.urn]


@pytest.mark.parametrize(
    "document",
    ["", "[1, 2]", "version: v1\nsharing:\n  timeSlicing: {}\n  mps: {}\n", "{", 7],
)
def test_configs_the_plugin_cannot_use_are_marked_not_raised(document: object) -> None:
    config = parse_config("x", document)
    assert config.error is not None


def test_walks_the_resources_once() -> None:
    walks_once(SHARED, many_workloads_stack())
