"""device-plugin-release-current-with-gfd: plugin chart >= 0.15.0, GFD on, own namespace."""

from __future__ import annotations

import pytest

from .harness import Case, Res, assert_case
from .stack_fixtures import (
    CHART,
    RELEASE,
    many_namespaces_stack,
    plugin,
    release,
    walks_once,
)

PLUGIN = "device-plugin-release-current-with-gfd"

CASES: list[Case] = [
    Case(PLUGIN, "current", (plugin(),)),
    Case(PLUGIN, "minimum", (plugin("0.15.0"),)),
    Case(PLUGIN, "v-prefix", (plugin("v0.17.1"),)),
    Case(
        PLUGIN,
        "repo-prefixed",
        (Res(RELEASE, "p", {**plugin().props, "chart": "nvdp/nvidia-device-plugin"}),),
    ),
    Case(PLUGIN, "no-plugin", (release("other", "ingress-nginx"),)),
    Case(PLUGIN, "old", (plugin("0.14.5"),), ("older than 0.15.0",)),
    Case(PLUGIN, "unpinned", (plugin(None),), ("does not pin a chart version",)),
    Case(PLUGIN, "not-a-version", (plugin("stable"),), ("older than 0.15.0",)),
    Case(PLUGIN, "gfd-off", (plugin(gfd=False),), ("gfd.enabled",)),
    Case(
        PLUGIN,
        "gfd-unset",
        (Res(RELEASE, "p", {**plugin().props, "values": {}}),),
        ("gfd.enabled",),
    ),
    Case(PLUGIN, "default-namespace", (plugin(ns=None),), ("shared namespace 'default'",)),
    Case(
        PLUGIN, "v4-chart-old", (Res(CHART, "p", plugin("0.14.0").props),), ("older than 0.15.0",)
    ),
    Case(
        PLUGIN,
        "separate-gfd",
        (plugin(), release("gfd", "gpu-feature-discovery")),
        ("installs GPU Feature Discovery separately",),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_walks_the_resources_once() -> None:
    walks_once(PLUGIN, many_namespaces_stack())
