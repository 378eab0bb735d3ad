"""gpu-namespaces-deny-all-network-policy: a deny-all NetworkPolicy per GPU namespace."""

from __future__ import annotations

import pytest
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE

from .claim_fixtures import claim_workload, every_claim_workload, run_recorded, unknown_claim_name
from .harness import Case, Res, assert_case, messages, policy_named, violations
from .platform_fixtures import driver_check, workload
from .stack_fixtures import (
    deny_all,
    governed,
    many_namespaces_stack,
    namespace,
    walks_once,
)

DENY = "gpu-namespaces-deny-all-network-policy"
NO_DENY = "has no deny-all NetworkPolicy"

CASES: list[Case] = [
    Case(DENY, "governed", governed("gpu-training") + governed("gpu-inference")),
    Case(
        DENY,
        "gpu-label",
        (namespace("ml", {"gpu-platform.io/gpu-workloads": "true"}), deny_all("ml")),
    ),
    Case(DENY, "plain-namespace", (namespace("tools", {"team": "x"}),)),
    Case(
        DENY,
        "exempt-namespace",
        (namespace("gpu-training"),),
        config={"exemptNamespaces": ["gpu-training"]},
    ),
    Case(DENY, "missing", (namespace("gpu-training"),), (f"'gpu-training' {NO_DENY}",)),
    Case(
        DENY, "other-namespace", (namespace("gpu-training"), deny_all("gpu-inference")), (NO_DENY,)
    ),
    Case(
        DENY, "ingress-only", (namespace("a"), deny_all("a", policyTypes=["Ingress"])), (NO_DENY,)
    ),
    Case(
        DENY,
        "selects-some-pods",
        (namespace("a"), deny_all("a", podSelector={"matchLabels": {"app": "x"}})),
        (NO_DENY,),
    ),
    Case(
        DENY,
        "allows-ingress",
        (namespace("a"), deny_all("a", ingress=[{"from": [{"podSelector": {}}]}])),
        (NO_DENY,),
    ),
    Case(DENY, "allows-egress", (namespace("a"), deny_all("a", egress=[{}])), (NO_DENY,)),
    # A namespace that runs claim pods (DRA) is a GPU namespace, labelled or not: every
    # pod-bearing kind and claim shape.
    *[
        Case(
            DENY,
            f"{kind}-claim-{shape}-{'denied' if denied else 'open'}",
            (
                namespace("team-a", {}),
                *((deny_all("team-a"),) if denied else ()),
                *resources,
            ),
            () if denied else ("(it runs GPU workloads: ",),
        )
        for kind, shape, resources in every_claim_workload("team-a")
        for denied in (True, False)
    ],
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_violations_point_at_the_namespace() -> None:
    ns = namespace("gpu-training")
    found = violations(policy_named(DENY), (ns,))
    assert [urn for _, urn in found] == [ns.urn]


def test_walks_the_resources_once() -> None:
    walks_once(DENY, many_namespaces_stack())


def test_is_deny_all_has_one_public_home_that_the_policy_uses() -> None:
    """``gpu_facts.network_policy.is_deny_all`` is what the policy judges with, and it reads
    plain objects too (``readiness`` passes live NetworkPolicies)."""
    from gpu_facts import network_policy
    from gpu_policies import gpu_namespaces_deny_all_network_policy as policy_module

    assert policy_module.is_deny_all is network_policy.is_deny_all
    assert network_policy.is_deny_all(deny_all("a").props)
    assert not network_policy.is_deny_all(deny_all("a", egress=[{}]).props)
    assert not network_policy.is_deny_all({"spec": "oops"})


# --- Namespaces the stack runs GPU workloads in, labelled or not -----------------------------

RUNNING_CASES = [
    Case(
        DENY,
        "unlabelled-running-gpu-pods",
        (namespace("team-a", {}), workload("nvidia.com/gpu", namespace="team-a")),
        ("'team-a' has no deny-all NetworkPolicy", "it runs GPU workloads: 'trainer-deployment'"),
    ),
    Case(
        DENY,
        "unlabelled-running-gpu-pods-denied",
        (
            namespace("team-a", {}),
            deny_all("team-a"),
            workload("nvidia.com/gpu", namespace="team-a"),
        ),
    ),
    Case(DENY, "only-driver-checks", (namespace("gpu-readiness", {}), driver_check("t4"))),
]


@pytest.mark.parametrize("case", RUNNING_CASES, ids=lambda c: c.id)
def test_namespaces_running_gpu_workloads_are_gpu_namespaces(case: Case) -> None:
    found = messages(case)
    if case.passes:
        assert found == []
        return
    assert len(found) == 1
    assert all(fragment in found[0] for fragment in case.expect)


def test_one_unknown_claim_does_not_blind_the_policy_to_the_stack() -> None:
    """A workload whose claim's name is known only after apply cannot tell whether its
    namespace is a GPU namespace: the advisory names it, and every other namespace is judged."""
    unknown = claim_workload("Job", change=unknown_claim_name)
    research = namespace("research")
    found = run_recorded(DENY, (*governed("gpu-training"), *unknown, research))
    assert [(v.enforcement, v.urn) for v in found] == [
        ("mandatory", research.urn),
        ("advisory", None),
    ]
    assert f"'{unknown[0].name}'" in found[1].message


def test_a_namespace_named_by_the_api_server_does_not_blind_the_policy() -> None:
    """A Namespace with ``generateName`` has its name only after apply: the advisory names it,
    and every other namespace is judged."""
    unnamed = Res(
        "kubernetes:core/v1:Namespace",
        "unnamed",
        {"metadata": {"generateName": "ml-", "name": UNKNOWN_STRING_VALUE}},
    )
    research = namespace("research")
    found = run_recorded(DENY, (unnamed, research))
    assert [(v.enforcement, v.urn) for v in found] == [
        ("mandatory", research.urn),
        ("advisory", None),
    ]
    assert "'unnamed'" in found[1].message
