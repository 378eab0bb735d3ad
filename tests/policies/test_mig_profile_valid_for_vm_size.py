"""mig-profile-valid-for-vm-size: the MIG profile is one the VM size's GPU offers."""

from __future__ import annotations

import pytest

from .cloud_fixtures import (
    T4,
    agent_pool,
    in_cluster,
)
from .harness import Case, assert_case

CASES: list[Case] = [
    # BP-10: MIG profile valid for the VM size.
    Case("mig-profile-valid-for-vm-size", "nd96asr-mig1g", agent_pool()),
    Case(
        "mig-profile-valid-for-vm-size",
        "h100-mig7g",
        agent_pool(vmSize="Standard_ND96isr_H100_v5", gpuInstanceProfile="MIG7g"),
    ),
    Case("mig-profile-valid-for-vm-size", "no-mig", agent_pool(**T4)),
    Case(
        "mig-profile-valid-for-vm-size",
        "t4-with-mig",
        agent_pool(vmSize="Standard_NC4as_T4_v3"),
        ("not a MIG-capable GPU VM size",),
    ),
    Case(
        "mig-profile-valid-for-vm-size",
        "cpu-size-with-mig",
        agent_pool(vmSize="Standard_D4s_v5"),
        ("not a MIG-capable",),
    ),
    Case(
        "mig-profile-valid-for-vm-size",
        "unknown-profile",
        agent_pool(gpuInstanceProfile="MIG5g"),
        ("unknown MIG profile 'MIG5g'",),
    ),
    Case(
        "mig-profile-valid-for-vm-size",
        "cluster-profile",
        in_cluster(gpuInstanceProfile="MIG9g"),
        ("MIG9g",),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)
