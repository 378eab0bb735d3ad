"""single-device-plugin-owner: the plugin chart or the GPU Operator, not both."""

from __future__ import annotations

import pytest

from .harness import Case, Res, assert_case, messages
from .stack_fixtures import (
    CHART,
    RELEASE,
    gfd_daemonset,
    many_namespaces_stack,
    plugin,
    plugin_daemonset,
    release,
    walks_once,
)

OWNER = "single-device-plugin-owner"

CASES: list[Case] = [
    Case(OWNER, "plugin-only", (plugin(),)),
    Case(OWNER, "operator-only", (release("gpu-operator", "gpu-operator"),)),
    Case(
        OWNER,
        "operator-without-plugin",
        (plugin(), release("gpu-operator", "gpu-operator", {"devicePlugin": {"enabled": False}})),
    ),
    Case(
        OWNER,
        "plugin-disabled",
        (plugin(devicePlugin={"enabled": False}), release("gpu-operator", "gpu-operator")),
    ),
    Case(OWNER, "both", (plugin(), release("gpu-operator", "gpu-operator")), ("2 owners",)),
    Case(
        OWNER,
        "operator-plugin-on",
        (plugin(), release("op", "nvidia/gpu-operator", {"devicePlugin": {"enabled": True}})),
        ("'op' (gpu-operator)",),
    ),
    Case(OWNER, "two-plugins", (plugin(), Res(RELEASE, "p2", plugin().props)), ("2 owners",)),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_walks_the_resources_once() -> None:
    walks_once(OWNER, many_namespaces_stack())


DAEMONSET_CASES = [
    Case(OWNER, "daemonset-only", (plugin_daemonset(), gfd_daemonset())),
    Case(
        OWNER,
        "chart-and-its-rendered-daemonset",
        (Res(CHART, "dp", plugin().props), plugin_daemonset(parent="dp")),
    ),
    Case(
        OWNER,
        "chart-seen-as-a-preview-sees-it-and-a-release",
        (
            Res(CHART, "dp", {"resources": ["dp:nvidia-device-plugin/nvidia-device-plugin"]}),
            plugin_daemonset(parent="dp"),
            plugin(),
        ),
        ("2 owners", "(DaemonSet)"),
    ),
    Case(
        OWNER,
        "release-and-daemonset",
        (plugin(), plugin_daemonset()),
        (
            "2 owners",
            "'nvidia-device-plugin-daemonset' (nvcr.io/nvidia/k8s-device-plugin:v0.17.0) "
            "(DaemonSet)",
        ),
    ),
]


@pytest.mark.parametrize("case", DAEMONSET_CASES, ids=lambda c: c.id)
def test_a_plugin_daemonset_is_an_owner(case: Case) -> None:
    found = messages(case)
    if case.passes:
        assert found == []
        return
    assert len(found) == 1
    assert all(fragment in found[0] for fragment in case.expect)
