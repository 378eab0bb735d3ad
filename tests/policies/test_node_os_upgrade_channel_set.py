"""node-os-upgrade-channel-set: AKS clusters on an automatic node OS channel."""

from __future__ import annotations

import pytest

from .cloud_fixtures import (
    managed_cluster,
)
from .harness import Case, assert_case

CASES: list[Case] = [
    # BP-06: node OS upgrade channel.
    Case("node-os-upgrade-channel-set", "node-image", managed_cluster()),
    Case(
        "node-os-upgrade-channel-set",
        "security-patch",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "SecurityPatch"}),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "unset",
        managed_cluster(autoUpgradeProfile=None),
        ("'unset'",),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "none",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "None"}),
        ("'None'",),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "unmanaged",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "Unmanaged"}),
        ("'Unmanaged'",),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "unmanaged-allowed",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "Unmanaged"}),
        config={"allowedChannels": ["NodeImage", "Unmanaged"]},
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)
