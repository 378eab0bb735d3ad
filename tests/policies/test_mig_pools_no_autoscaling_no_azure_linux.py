"""mig-pools-no-autoscaling-no-azure-linux: MIG pools fixed size, not on Azure Linux."""

from __future__ import annotations

import pytest

from .cloud_fixtures import (
    T4,
    agent_pool,
    in_cluster,
)
from .harness import Case, assert_case

CASES: list[Case] = [
    # BP-12: MIG pools fixed size, not on Azure Linux.
    Case("mig-pools-no-autoscaling-no-azure-linux", "ubuntu-fixed", agent_pool()),
    Case("mig-pools-no-autoscaling-no-azure-linux", "os-unset", agent_pool(osSKU=None)),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "non-mig-autoscaled-azure-linux",
        agent_pool(**T4, enableAutoScaling=True, osSKU="AzureLinux"),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "autoscaling",
        agent_pool(enableAutoScaling=True, minCount=1, maxCount=3),
        ("enables the cluster autoscaler",),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "azure-linux",
        agent_pool(osSKU="AzureLinux"),
        ("Azure Linux",),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "mariner",
        agent_pool(osSKU="CBLMariner"),
        ("Azure Linux",),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "cluster-profile-both",
        in_cluster(enableAutoScaling=True, osSKU="AzureLinux3"),
        ("autoscaler", "Azure Linux"),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)
