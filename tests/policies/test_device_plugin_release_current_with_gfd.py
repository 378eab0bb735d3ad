"""device-plugin-release-current-with-gfd: plugin chart >= 0.15.0, GFD on, own namespace."""

from __future__ import annotations

import pytest

from gpu_facts.nvidia.device_plugin_chart import MPS_NEEDS_VERSION

from .harness import Case, Res, assert_case, messages
from .platform_fixtures import plugin_release, shared
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

PLUGIN = "device-plugin-release-current-with-gfd"


def _mps_release(version: str) -> Res:
    """A release serving MPS (and time-slicing) configs, pinned at ``version``."""
    configs = {"mps": shared("mps"), "ts": shared()}
    release = plugin_release(configs, default="ts")
    return Res(release.type, release.name, {**release.props, "version": version})


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
        "mps-on-an-older-chart",
        (_mps_release("0.15.0"),),
        (f"pins version 0.15.0 with the MPS config 'mps': {MPS_NEEDS_VERSION}",),
    ),
    Case(PLUGIN, "mps-on-its-first-chart", (_mps_release("0.16.0"),)),
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


# --- The plugin as DaemonSets (static manifests, or a program's own) --------------------------

OLD = "nvcr.io/nvidia/k8s-device-plugin:v0.14.1"
DAEMONSET_CASES = [
    Case(PLUGIN, "daemonset-current-with-gfd", (plugin_daemonset(), gfd_daemonset())),
    Case(
        PLUGIN,
        "daemonset-by-digest",
        (
            plugin_daemonset(image="nvcr.io/nvidia/k8s-device-plugin@sha256:" + "a" * 64),
            gfd_daemonset(),
        ),
    ),
    Case(
        PLUGIN,
        "rendered-by-a-v4-chart-is-the-charts",
        (
            Res(CHART, "dp", plugin().props),
            plugin_daemonset(image=OLD, namespace="kube-system", parent="dp"),
        ),
    ),
    # Under `pulumi preview` a v4 Chart's outputs hold only what it made: no chart to judge
    # by its values, so its DaemonSets are judged themselves.
    Case(
        PLUGIN,
        "rendered-by-a-v4-chart-seen-as-a-preview-sees-it",
        (
            Res(CHART, "dp", {"resources": ["dp:kube-system/nvidia-device-plugin"]}),
            plugin_daemonset(image=OLD, namespace="kube-system", parent="dp"),
        ),
        ("older than v0.15.0", "without GPU Feature Discovery", "shared namespace 'kube-system'"),
    ),
    Case(
        PLUGIN,
        "rendered-by-another-chart-is-judged",
        (
            Res(CHART, "dp", {"chart": "./charts/gpu-device-plugin", "namespace": "kube-system"}),
            plugin_daemonset(image=OLD, namespace="kube-system", parent="dp"),
        ),
        ("older than v0.15.0", "without GPU Feature Discovery", "shared namespace 'kube-system'"),
    ),
    Case(
        PLUGIN,
        "config-manager-sidecar-is-no-plugin",
        (plugin_daemonset(image=OLD, command=["config-manager"]),),
    ),
    Case(
        PLUGIN,
        "daemonset-old",
        (plugin_daemonset(image=OLD), gfd_daemonset()),
        (
            "Device plugin DaemonSet 'nvidia-device-plugin-daemonset' "
            "(nvcr.io/nvidia/k8s-device-plugin:v0.14.1) runs version v0.14.1, older than v0.15.0",
        ),
    ),
    Case(
        PLUGIN,
        "daemonset-latest",
        (plugin_daemonset(image="nvcr.io/nvidia/k8s-device-plugin:latest"), gfd_daemonset()),
        ("does not pin a version",),
    ),
    Case(
        PLUGIN,
        "daemonset-without-gfd",
        (plugin_daemonset(),),
        ("runs without GPU Feature Discovery",),
    ),
    Case(
        PLUGIN,
        "static-manifest-in-kube-system",
        (plugin_daemonset(image=OLD, namespace="kube-system"),),
        ("older than v0.15.0", "without GPU Feature Discovery", "shared namespace 'kube-system'"),
    ),
    Case(
        PLUGIN,
        "standalone-gfd-image",
        (
            plugin_daemonset(),
            gfd_daemonset(),
            plugin_daemonset("gfd-old", "nvcr.io/nvidia/gpu-feature-discovery:v0.8.2"),
        ),
        ("runs GPU Feature Discovery from its standalone image",),
    ),
]


@pytest.mark.parametrize("case", DAEMONSET_CASES, ids=lambda c: c.id)
def test_the_plugin_as_daemonsets(case: Case) -> None:
    assert_case(case)


def test_daemonset_messages_end_with_the_chart_to_install() -> None:
    (message,) = messages(Case(PLUGIN, "m", (plugin_daemonset(),)))
    assert message.endswith(
        "Fix: Install the device plugin from its Helm chart (nvidia-device-plugin 0.15.0 or "
        "newer, values.gfd.enabled: true, its own namespace), or run "
        "nvcr.io/nvidia/k8s-device-plugin:v0.15.0 or newer with a GPU Feature Discovery "
        "DaemonSet from the same image, in its own namespace."
    )


PACKAGE_URL = "https://nvidia.github.io/k8s-device-plugin/stable/nvidia-device-plugin-{}.tgz"


@pytest.mark.parametrize(
    ("version", "expected"),
    [("0.17.1", []), ("0.14.1", ["pins version 0.14.1, older than 0.15.0"])],
)
def test_a_chart_from_its_package_url_is_the_plugins(version: str, expected: list[str]) -> None:
    props = {**plugin(None).props, "chart": PACKAGE_URL.format(version)}
    found = messages(Case(PLUGIN, "url", (Res(RELEASE, "dp", props),)))
    assert len(found) == len(expected)
    assert all(e in m for e, m in zip(expected, found, strict=True))
