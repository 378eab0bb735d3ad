"""gpu-pods-not-in-default-namespace: GPU pods not in default, on every pod-bearing kind."""

from __future__ import annotations

import pytest
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE

from gpu_platform.offline_preview import RecordedResource, run_policies

from .claim_fixtures import claim_policy_cases, claim_workload, every_claim_workload
from .crd_fixtures import CLUSTER_SCOPED, GPU_FREE
from .harness import Case, assert_case, policy_named
from .pod_fixtures import (
    KINDS,
    Change,
    gpu_pod_spec,
    mutated,
    pod_policy_cases,
    without_gpus,
    wrap,
)

POLICY = "gpu-pods-not-in-default-namespace"

# (id, change to the compliant pod spec, expected message fragment)
VIOLATIONS: list[tuple[str, Change, str]] = []


def _namespace_cases() -> list[Case]:
    return [
        Case(
            POLICY,
            f"{kind}-namespace-{namespace}",
            (mutated(kind, without_gpus, namespace=namespace),),
        )
        if kind in GPU_FREE  # no GPU workload: any namespace will do
        else Case(
            POLICY,
            f"{kind}-namespace-{namespace}",
            (mutated(kind, lambda s: None, namespace=namespace),),
            ("'default' namespace",),
        )
        for kind in KINDS
        for namespace in (None, "default")
        if kind not in CLUSTER_SCOPED  # their pods run in the namespace of what uses them
    ]


def _claim_cases() -> list[Case]:
    """Claim pods in ``default`` (the claim there too), inline, by template, by name."""
    return [
        *claim_policy_cases(POLICY, VIOLATIONS),
        *(
            Case(POLICY, f"{kind}-claim-{shape}-default", resources, ("'default' namespace",))
            for kind, shape, resources in every_claim_workload("default")
        ),
    ]


CASES: list[Case] = [
    *pod_policy_cases(POLICY, VIOLATIONS),
    *_namespace_cases(),
    *_claim_cases(),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_a_workload_whose_namespace_is_unknown_is_not_passed() -> None:
    """Namespaces unknown at preview (a Namespace's output) cannot be judged: the policy judges
    the rest of the stack, then leaves the workload to the analyzer's "can't run policy"
    (advisory), naming it, as it did as a resource policy; a claim pod too."""
    in_default = wrap("Deployment", gpu_pod_spec(), "default")
    for kind, resources in (
        ("resource", (wrap("Job", gpu_pod_spec(), UNKNOWN_STRING_VALUE),)),
        ("claim", claim_workload("Job", namespace=UNKNOWN_STRING_VALUE)),
    ):
        recorded = [
            RecordedResource(r.urn, r.type, r.name, True, None, r.props, dict(r.props))
            for r in (in_default, *resources)
        ]
        found = run_policies(recorded, [policy_named(POLICY)])
        assert [(v.enforcement, v.urn) for v in found] == [
            ("advisory", in_default.urn),
            ("advisory", None),
        ], kind
        assert found[1].message.startswith("can't run policy during preview"), kind
        assert f"'{resources[0].name}'" in found[1].message, kind
