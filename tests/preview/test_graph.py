"""The plan's dependency graph: ``dependsOn`` in the JSON plan, and what waits for what."""

from __future__ import annotations

import pulumi
import pulumi_kubernetes as k8s

from gpu_platform.offline_preview import run_callable
from gpu_platform.offline_preview.engine import ProgramRun
from gpu_platform.offline_preview.graph import downstream, provider_urn, waits_for
from gpu_platform.offline_preview.render import as_document


def _plan() -> ProgramRun:
    def build() -> None:
        base = k8s.core.v1.Namespace("base", metadata=k8s.meta.v1.ObjectMetaArgs(name="base"))
        provider = k8s.Provider("k8s", kubeconfig=base.metadata.apply(lambda m: m.name or ""))
        group = pulumi.ComponentResource(
            "test:index:Group", "group", opts=pulumi.ResourceOptions(depends_on=[base])
        )
        k8s.core.v1.ConfigMap(
            "child",
            metadata=k8s.meta.v1.ObjectMetaArgs(name="child"),
            opts=pulumi.ResourceOptions(parent=group, provider=provider),
        )
        other = k8s.core.v1.Namespace("other", metadata=k8s.meta.v1.ObjectMetaArgs(name="o"))
        k8s.core.v1.ConfigMap(
            "explicit",
            metadata=k8s.meta.v1.ObjectMetaArgs(name="explicit"),
            opts=pulumi.ResourceOptions(depends_on=[other]),
        )

    return run_callable(build)


def _by_name(document: dict) -> dict[str, dict]:
    return {r["name"]: r for r in document["resources"]}


def test_depends_on_holds_explicit_input_and_provider_dependencies() -> None:
    resources = _by_name(as_document(_plan(), []))
    urn = {name: r["urn"] for name, r in resources.items()}
    # Through an input: the provider's kubeconfig is the namespace's output.
    assert resources["k8s"]["dependsOn"] == [urn["base"]]
    # Explicit depends_on, on a component and on a custom resource.
    assert resources["group"]["dependsOn"] == [urn["base"]]
    assert resources["explicit"]["dependsOn"] == [urn["other"]]
    # The child names its provider; its parent stays in `parent`.
    assert resources["child"]["dependsOn"] == [urn["k8s"]]
    assert resources["child"]["parent"] == urn["group"]
    assert resources["base"]["dependsOn"] == []


def test_waits_for_adds_the_parent_and_downstream_follows_every_edge() -> None:
    resources = _by_name(as_document(_plan(), []))
    urn = {name: r["urn"] for name, r in resources.items()}
    graph = waits_for(resources.values())
    assert graph[urn["child"]] == {urn["k8s"], urn["group"]}
    # The child waits for `base` twice over: through its provider and its parent's depends_on.
    assert downstream(graph, urn["base"]) == {urn["k8s"], urn["group"], urn["child"]}
    assert downstream(graph, urn["other"]) == {urn["explicit"]}
    assert downstream(graph, urn["explicit"]) == set()


def test_waits_for_ignores_resources_outside_the_plan() -> None:
    graph = waits_for(
        [
            {"urn": "a", "parent": "stack", "dependsOn": ["gone"]},
            {"urn": "b", "parent": "a", "dependsOn": ["a"]},
        ]
    )
    assert graph == {"a": frozenset(), "b": frozenset({"a"})}


def test_provider_urn() -> None:
    assert provider_urn("urn:pulumi:s::p::pulumi:providers:kubernetes::k8s::k8s-id") == (
        "urn:pulumi:s::p::pulumi:providers:kubernetes::k8s"
    )
    assert provider_urn("") == ""
