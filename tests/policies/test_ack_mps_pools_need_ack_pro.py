"""ack-mps-pools-need-ack-pro: ACK MPS pools belong to an ACK Pro cluster."""

from __future__ import annotations

import pytest

from gpu_facts.ack.addons import needs_ack_pro

from .harness import Case, Res, assert_case, policy_named, violations
from .stack_fixtures import (
    ACK_CLUSTER,
    ACK_POOL,
    ack,
    many_namespaces_stack,
    walks_once,
)

MPS = "ack-mps-pools-need-ack-pro"

CASES: list[Case] = [
    Case(MPS, "pro", ack("ack.pro.small")),
    Case(MPS, "standard-no-mps", ack("ack.standard", mps=False)),
    Case(MPS, "no-cluster-in-stack", ack("ack.standard")[1:]),
    # The one message, from the plan rule's facts (gpu_facts.ack.addons.needs_ack_pro).
    Case(MPS, "standard", ack("ack.standard"), (needs_ack_pro("mps"),)),
    Case(MPS, "spec-unset", ack(None), ("unset (ack.standard)",)),
    Case(
        MPS,
        "only-cluster-no-dependency",
        ack("ack.standard", depends=False),
        (needs_ack_pro("mps"),),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_violations_point_at_the_pool() -> None:
    pool = ack("ack.standard")[1]
    assert [urn for _, urn in violations(policy_named(MPS), ack("ack.standard"))] == [pool.urn]


def test_mps_pool_follows_its_own_cluster_among_several() -> None:
    pro = Res(ACK_CLUSTER, "pro", {"clusterSpec": "ack.pro.small"})
    std = Res(ACK_CLUSTER, "std", {"clusterSpec": "ack.standard"})
    pool = ack("ack.pro.small")[1]
    on_pro = Res(ACK_POOL, "on-pro", pool.props, depends_on=("pro",))
    on_std = Res(ACK_POOL, "on-std", pool.props, depends_on=("std",))
    found = violations(policy_named(MPS), (pro, std, on_pro, on_std))
    assert [urn for _, urn in found] == [on_std.urn]


def test_walks_the_resources_once() -> None:
    walks_once(MPS, many_namespaces_stack())
