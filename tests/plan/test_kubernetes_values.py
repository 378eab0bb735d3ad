"""plan.kubernetes_values: label and annotation keys and values as apimachinery validates them,
with the exact messages, at both sides of each length limit."""

from __future__ import annotations

import pytest

from gpu_facts.kubernetes_syntax import ANNOTATIONS_MAX_BYTES
from gpu_platform.plan.kubernetes_values import (
    annotation_problems,
    in_domain,
    kubernetes_label_problems,
    label_value_problem,
    qualified_name_problem,
)

NAME_RULE = (
    "1-63 characters: letters, digits, '-', '_' and '.', starting and ending with a letter or "
    "digit (keys are [prefix/]name: an optional DNS subdomain prefix and one '/')"
)
PREFIX_RULE = (
    "a DNS subdomain (RFC 1123): 1-253 characters, lowercase letters, digits, '-' and '.', "
    "each dot-separated part starting and ending with a letter or digit"
)
VALUE_RULE = (
    "Kubernetes label values are at most 63 characters: letters, digits, '-', '_' and '.', "
    "starting and ending with a letter or digit (or empty)"
)
PREFIX_253 = ".".join(["a" * 63] * 4)[:253]  # 63+1+63+1+63+1+61 characters


@pytest.mark.parametrize(
    "key",
    [
        "team",
        "Team_Name.v2",
        "example.com/team",
        "a.b-c.example/x",
        "k" * 63,
        f"{PREFIX_253}/k",
        "9",
    ],
)
def test_keys_accepted(key: str) -> None:
    assert len(PREFIX_253) == 253
    assert qualified_name_problem(key) is None


@pytest.mark.parametrize(
    ("key", "detail"),
    [
        ("team name!", f"its name 'team name!' must be {NAME_RULE}"),
        ("role/", "the name after the prefix is empty"),
        ("/role", "the prefix before '/' is empty"),
        ("", "the name after the prefix is empty"),
        ("a/b/c", "keys are [prefix/]name: an optional DNS subdomain prefix and one '/', not 2"),
        ("Example.com/x", f"its prefix 'Example.com' must be {PREFIX_RULE}"),
        (f"{PREFIX_253}a/k", f"its prefix '{PREFIX_253}a' must be {PREFIX_RULE}"),
        ("k" * 64, f"its name '{'k' * 64}' (64 characters) must be {NAME_RULE}"),
        ("-team", f"its name '-team' must be {NAME_RULE}"),
        ("team.", f"its name 'team.' must be {NAME_RULE}"),
    ],
)
def test_keys_refused(key: str, detail: str) -> None:
    assert qualified_name_problem(key) == f"{key!r} is not a Kubernetes label key: {detail}"


@pytest.mark.parametrize("value", ["", "a", "v" * 63, "A-b_c.9", "true"])
def test_values_accepted(value: str) -> None:
    assert label_value_problem(value) is None


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("v" * 64, f"'{'v' * 64}' (64 characters)"),
        ("a b", "'a b'"),
        ("-a", "'-a'"),
        ("a/b", "'a/b'"),
    ],
)
def test_values_refused(value: str, shown: str) -> None:
    assert label_value_problem(value) == f"{shown}: {VALUE_RULE}"


def test_label_maps_name_each_bad_label_by_key() -> None:
    labels = {
        "team": "ml",
        "team name!": "x",
        "role/": "x",
        "size": "v" * 64,
        "node.kubernetes.io/role": "gpu",
        "k8s.io/x": "y",
        "example.com/ok": "",
    }
    reserved = (
        "label domain is reserved for Kubernetes' own components (and the kubelet refuses it "
        "on nodes); choose another prefix"
    )
    assert kubernetes_label_problems(labels) == [
        (
            "team name!",
            f"'team name!' is not a Kubernetes label key: its name 'team name!' "
            f"must be {NAME_RULE}",
        ),
        ("role/", "'role/' is not a Kubernetes label key: the name after the prefix is empty"),
        ("size", f"'{'v' * 64}' (64 characters): {VALUE_RULE}"),
        ("node.kubernetes.io/role", f"the kubernetes.io {reserved}"),
        ("k8s.io/x", f"the k8s.io {reserved}"),
    ]
    # Without reserved domains (an existing cluster's hand-set labels), syntax only.
    assert [key for key, _ in kubernetes_label_problems(labels, ())] == [
        "team name!",
        "role/",
        "size",
    ]


def test_in_domain_matches_the_domain_and_its_subdomains_only() -> None:
    assert in_domain("kubernetes.io/x", ("kubernetes.io",)) == "kubernetes.io"
    assert in_domain("a.kubernetes.io/x", ("kubernetes.io",)) == "kubernetes.io"
    assert in_domain("notkubernetes.io/x", ("kubernetes.io",)) is None
    assert in_domain("kubernetes.io", ("kubernetes.io",)) is None  # a name, no prefix


def test_annotation_keys_are_judged_lower_cased() -> None:
    assert annotation_problems({"Example.COM/Note": "x", "note": "y" * 100_000}) == []
    assert annotation_problems({"bad key": "x"}) == [
        (
            "bad key",
            f"'bad key' is not a Kubernetes annotation key: its name 'bad key' must be {NAME_RULE}",
        )
    ]


def test_annotations_together_fit_256_kib() -> None:
    # "a" (1 byte) + value: exactly at the limit, then one byte over.
    at_limit = {"a": "x" * (ANNOTATIONS_MAX_BYTES - 1)}
    assert annotation_problems(at_limit) == []
    over = {"a": "x" * ANNOTATIONS_MAX_BYTES}
    assert annotation_problems(over) == [
        (
            "",
            f"{ANNOTATIONS_MAX_BYTES + 1} bytes of keys and values; Kubernetes takes at most "
            f"{ANNOTATIONS_MAX_BYTES} (256 KiB) of annotations on one object",
        )
    ]
