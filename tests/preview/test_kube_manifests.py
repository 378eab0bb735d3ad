"""Manifests turned into registrations by the Kubernetes provider's rules (yaml/v2)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_platform.offline_preview.kube_manifests import (
    DEPENDS_ON,
    ManifestError,
    decode,
    dependencies,
    expand_lists,
    normalize,
    resource_name,
    type_token,
    with_skip_await,
)


def obj(api: str, kind: str, name: str, namespace: str | None = None, **extra: Any) -> dict:
    metadata: dict[str, Any] = {"name": name}
    if namespace:
        metadata["namespace"] = namespace
    return {"apiVersion": api, "kind": kind, "metadata": metadata, **extra}


def test_a_stream_decodes_to_its_objects_without_empty_documents() -> None:
    text = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\n---\n{}\n---\n" + (
        '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b"}}\n'
    )
    assert [o["metadata"]["name"] for o in decode(text)] == ["a", "b"]
    assert decode("") == []


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("a: [unclosed", "decoding YAML"), ("- a list\n", "a document is not an object")],
)
def test_what_does_not_decode_is_refused(text: str, fragment: str) -> None:
    with pytest.raises(ManifestError, match=fragment):
        decode(text)


def test_lists_become_their_items_recursively() -> None:
    inner = {"apiVersion": "v1", "kind": "ConfigMapList", "items": [obj("v1", "ConfigMap", "c")]}
    listed = {"apiVersion": "v1", "kind": "List", "items": [obj("v1", "Pod", "p"), inner]}
    assert [o["kind"] for o in expand_lists([listed, obj("v1", "Service", "s")])] == [
        "Pod",
        "ConfigMap",
        "Service",
    ]


def test_namespaced_objects_get_the_default_namespace_and_cluster_ones_do_not() -> None:
    crd = obj(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        "policies.example.org",
        spec={"group": "example.org", "scope": "Cluster", "names": {"kind": "Policy"}},
    )
    objects = normalize(
        [
            obj("core/v1", "Pod", "p"),
            obj("apps/v1", "DaemonSet", "d", "kube-system"),
            obj("v1", "Namespace", "team"),
            obj("rbac.authorization.k8s.io/v1", "ClusterRole", "r"),
            crd,
            obj("example.org/v1", "Policy", "cluster-wide"),
            obj("ray.io/v1", "RayCluster", "ray"),
        ],
        "team",
    )
    assert [(o["apiVersion"], o["metadata"].get("namespace")) for o in objects] == [
        ("v1", "team"),  # the core group is written without its name
        ("apps/v1", "kube-system"),
        ("v1", None),
        ("rbac.authorization.k8s.io/v1", None),
        ("apiextensions.k8s.io/v1", None),
        ("example.org/v1", None),  # cluster-scoped by its CRD in the same set
        ("ray.io/v1", "team"),  # unknown custom kinds are taken as namespaced
    ]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"kind": "Pod", "metadata": {"name": "p"}}, "require a kind and apiVersion"),
        ({"apiVersion": "v1", "metadata": {"name": "p"}}, "require a kind and apiVersion"),
        ({"apiVersion": "v1", "kind": "Pod", "metadata": {}}, "require a .metadata.name"),
        ({"apiVersion": "v1", "kind": "Pod"}, "require a .metadata.name"),
    ],
)
def test_objects_the_provider_refuses_are_refused_with_its_reason(
    bad: dict[str, Any], message: str
) -> None:
    with pytest.raises(ManifestError, match=message):
        normalize([bad], "default")


def test_type_tokens_and_names_are_the_providers() -> None:
    pod = obj("v1", "Pod", "p", "ns")
    role = obj("rbac.authorization.k8s.io/v1", "ClusterRole", "r")
    assert type_token(pod) == "kubernetes:core/v1:Pod"
    assert type_token(role) == "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole"
    assert type_token(obj("ray.io/v1", "RayService", "s")) == "kubernetes:ray.io/v1:RayService"
    assert resource_name(pod, "chart") == "chart:ns/p"
    assert resource_name(role, "chart") == "chart:r"
    assert resource_name(pod, "") == "ns/p"


def test_each_object_waits_for_its_crd_its_namespace_and_what_it_names() -> None:
    objects = [
        obj("v1", "Namespace", "gpu"),
        obj(
            "apiextensions.k8s.io/v1",
            "CustomResourceDefinition",
            "configs.example.org",
            spec={"group": "example.org", "names": {"kind": "Config"}},
        ),
        obj("example.org/v1", "Config", "c", "gpu"),
        obj("v1", "ServiceAccount", "sa", "gpu"),
        obj("apps/v1", "DaemonSet", "d", "gpu"),
        obj("v1", "Pod", "elsewhere", "other"),
    ]
    objects[4]["metadata"]["annotations"] = {
        DEPENDS_ON: "/namespaces/gpu/ServiceAccount/sa, example.org/namespaces/gpu/Config/c,"
        " apiextensions.k8s.io/CustomResourceDefinition/configs.example.org, bad/ref"
    }
    assert dependencies(objects) == [[], [], [0, 1], [0], [0, 1, 2, 3], []]


def test_skip_await_annotates_every_object() -> None:
    annotated = with_skip_await(obj("v1", "Pod", "p") | {"metadata": {"name": "p"}})
    assert annotated["metadata"]["annotations"] == {"pulumi.com/skipAwait": "true"}
