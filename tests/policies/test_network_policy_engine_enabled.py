"""network-policy-engine-enabled: AKS and ACK clusters run a network policy engine."""

from __future__ import annotations

import pytest

from .cloud_fixtures import (
    TERWAY,
    ack_cluster,
    managed_cluster,
)
from .harness import Case, assert_case

CASES: list[Case] = [
    # BP-08: a network policy engine.
    Case("network-policy-engine-enabled", "cilium", managed_cluster()),
    Case(
        "network-policy-engine-enabled",
        "azure",
        managed_cluster(networkProfile={"networkPolicy": "azure"}),
    ),
    Case(
        "network-policy-engine-enabled",
        "unset",
        managed_cluster(networkProfile={"networkPlugin": "azure"}),
        ("no network policy engine",),
    ),
    Case(
        "network-policy-engine-enabled",
        "no-profile",
        managed_cluster(networkProfile=None),
        ("unset",),
    ),
    Case(
        "network-policy-engine-enabled",
        "none",
        managed_cluster(networkProfile={"networkPolicy": "none"}),
        ("is none",),
    ),
    Case("network-policy-engine-enabled", "ack-terway", ack_cluster()),
    Case(
        "network-policy-engine-enabled",
        "ack-terway-bool",
        ack_cluster([{"name": "terway-eniip", "config": '{"NetworkPolicy": true}'}]),
    ),
    Case(
        "network-policy-engine-enabled",
        "ack-terway-off",
        ack_cluster([{"name": "terway-eniip", "config": '{"NetworkPolicy": "false"}'}]),
        ("Terway without NetworkPolicy",),
    ),
    Case(
        "network-policy-engine-enabled",
        "ack-terway-bad-config",
        ack_cluster([{"name": "terway-eniip", "config": "{not json"}]),
        ("Terway without NetworkPolicy",),
    ),
    Case(
        "network-policy-engine-enabled",
        "ack-terway-disabled",
        ack_cluster([{**TERWAY, "disabled": True}]),
        ("no Terway addon",),
    ),
    Case(
        "network-policy-engine-enabled",
        "ack-flannel",
        ack_cluster([{"name": "flannel"}]),
        ("no Terway addon",),
    ),
    Case("network-policy-engine-enabled", "ack-no-addons", ack_cluster(None), ("no Terway addon",)),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)
