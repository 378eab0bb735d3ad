"""gpu-pods-not-in-default-namespace: GPU pods not in default, on every pod-bearing kind."""

from __future__ import annotations

import pytest

from .claim_fixtures import claim_policy_cases, every_claim_workload
from .crd_fixtures import CLUSTER_SCOPED, GPU_FREE
from .harness import Case, assert_case
from .pod_fixtures import (
    KINDS,
    Change,
    mutated,
    pod_policy_cases,
    without_gpus,
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
