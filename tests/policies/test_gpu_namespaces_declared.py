"""gpu-namespaces-declared: namespaces that run GPU workloads are declared, on every kind."""

from __future__ import annotations

import pytest
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE

from .claim_fixtures import claim_workload, every_claim_workload, run_recorded, unknown_claim_name
from .crd_fixtures import CLUSTER_SCOPED, GPU_FREE
from .harness import Case, assert_case
from .platform_fixtures import driver_check, many_workloads_stack, workload
from .pod_fixtures import KINDS, mutated, without_gpus, workload_name
from .stack_fixtures import deny_all, governed, namespace, quota, walks_once

POLICY = "gpu-namespaces-declared"
UNDECLARED = "Namespace 'team-a' runs GPU workloads"


def _every_kind() -> list[Case]:
    cases = []
    for kind in KINDS:
        if kind in GPU_FREE:  # no GPU workload: its namespace is nobody's GPU namespace
            res = mutated(kind, without_gpus, namespace="team-a")
            cases.append(Case(POLICY, f"{kind}-no-gpu-workload", (res,)))
            continue
        res = workload("nvidia.com/gpu", kind, "team-a")
        if kind in CLUSTER_SCOPED:  # no namespace: its pods run where it is used
            cases.append(Case(POLICY, f"{kind}-cluster-wide", (res,)))
            continue
        cases.append(Case(POLICY, f"{kind}-declared", (res, *governed("team-a"))))
        cases.append(
            Case(
                POLICY,
                f"{kind}-undeclared",
                (res,),
                (f"{UNDECLARED} ('{workload_name(kind)}') but the program does not declare it",),
            )
        )
    return cases


def _claims() -> list[Case]:
    """Claim pods (DRA) of every kind and claim shape, in a declared and an undeclared
    namespace."""
    cases = []
    for kind, shape, resources in every_claim_workload("team-a"):
        declared = (*resources, *governed("team-a"))
        cases.append(Case(POLICY, f"{kind}-claim-{shape}-declared", declared))
        cases.append(Case(POLICY, f"{kind}-claim-{shape}-undeclared", resources, (UNDECLARED,)))
    return cases


CASES: list[Case] = [
    *_every_kind(),
    *_claims(),
    Case(
        POLICY,
        "declared-unlabelled",
        (workload("nvidia.com/gpu", namespace="team-a"), namespace("team-a", {})),
    ),
    Case(
        POLICY,
        "undeclared-but-governed-here",
        (workload("nvidia.com/gpu", namespace="team-a"), deny_all("team-a"), quota("team-a")),
    ),
    Case(
        POLICY, "default-left-to-its-own-policy", (workload("nvidia.com/gpu", namespace="default"),)
    ),
    Case(POLICY, "system-namespace-exempt", (workload("nvidia.com/gpu", namespace="kube-system"),)),
    Case(
        POLICY,
        "exempted",
        (workload("nvidia.com/gpu", namespace="team-a"),),
        config={"exemptNamespaces": ["team-a"]},
    ),
    Case(POLICY, "driver-checks-are-no-workload", (driver_check("t4"),)),
    Case(
        POLICY,
        "namespace-unknown-at-preview",
        (workload("nvidia.com/gpu", namespace=UNKNOWN_STRING_VALUE),),
    ),
    Case(
        POLICY,
        "undeclared-with-deny-all-only",
        (workload("nvidia.com/gpu", namespace="team-a"), deny_all("team-a")),
        ("the stack gives it no GPU ResourceQuota).",),
    ),
    Case(
        POLICY,
        "undeclared-nothing",
        (workload("nvidia.com/gpu", namespace="team-a"),),
        ("no deny-all NetworkPolicy and no GPU ResourceQuota",),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_walks_the_resources_once() -> None:
    walks_once(POLICY, many_workloads_stack())


def test_one_unknown_claim_does_not_blind_the_policy_to_the_stack() -> None:
    unknown = claim_workload("Job", change=unknown_claim_name)
    elsewhere = workload("nvidia.com/gpu", namespace="team-x")
    found = run_recorded(POLICY, (*governed("gpu-training"), *unknown, elsewhere))
    assert [(v.enforcement, v.urn) for v in found] == [
        ("advisory", elsewhere.urn),
        ("advisory", None),
    ]
    assert f"'{unknown[0].name}'" in found[1].message
