"""System namespaces and pinned Helm releases (components/helm_release.py)."""

from __future__ import annotations

import pulumi

from gpu_platform.components.helm_release import PSA_ENFORCE, pinned_release, system_namespace
from tests.conftest import one, run


class _Parent(pulumi.ComponentResource):
    def __init__(self) -> None:
        super().__init__("test:index:Parent", "parent")


def test_a_pinned_release_in_its_own_privileged_namespace() -> None:
    def program() -> None:
        parent = _Parent()
        namespace = system_namespace("plugin-ns", "gpu-plugin", parent)
        pinned_release(
            "plugin",
            chart="nvidia-device-plugin",
            repo="https://nvidia.github.io/k8s-device-plugin",
            version="0.20.0",
            namespace="gpu-plugin",
            after=namespace,
            values={"gfd": {"enabled": True}},
            parent=parent,
        )

    result = run(program)
    namespace = one(result, "kubernetes:core/v1:Namespace")
    assert namespace.inputs["metadata"]["labels"][PSA_ENFORCE] == "privileged"
    release = one(result, "kubernetes:helm.sh/v3:Release")
    assert (release.inputs["chart"], release.inputs["version"]) == (
        "nvidia-device-plugin",
        "0.20.0",
    )
    assert release.inputs["namespace"] == "gpu-plugin" and not release.inputs["createNamespace"]
    assert namespace.urn in release.dependencies
    assert release.parent == namespace.parent


def test_a_system_namespace_can_be_restricted() -> None:
    result = run(lambda: system_namespace("checks", "gpu-checks", _Parent(), "restricted"))
    labels = one(result, "kubernetes:core/v1:Namespace").inputs["metadata"]["labels"]
    assert labels[PSA_ENFORCE] == "restricted"
