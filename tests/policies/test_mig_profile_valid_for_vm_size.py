"""mig-profile-valid-for-vm-size: the MIG profile is one the VM size's GPU offers."""

from __future__ import annotations

import pytest

from .cloud_fixtures import (
    AGENT_POOL,
    AZURE_NODE_POOL,
    T4,
    agent_pool,
    aks_gpu_pool,
    classic_pool,
    in_cluster,
    versioned,
)
from .harness import Case, Res, assert_case

NO_MIG_FIELD = (
    "Node pool 'a100' sets gpuInstanceProfile 'MIG1g' through API version 2021-07-01, which "
    "has no gpuInstanceProfile (MIG needs 2021-08-01 or newer): AKS creates the pool with whole "
    "GPUs. Fix: Declare the pool with azure-native's default containerservice module"
)

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
    # The seed's own troubleshooting line: MIG needs API 2021-08-01 or newer.
    Case(
        "mig-profile-valid-for-vm-size",
        "api-2021-08-01",
        (Res(versioned(AGENT_POOL, "2021-08-01"), "a100", aks_gpu_pool()),),
    ),
    Case(
        "mig-profile-valid-for-vm-size",
        "api-before-mig",
        (Res(versioned(AGENT_POOL, "2021-07-01"), "a100", aks_gpu_pool()),),
        (NO_MIG_FIELD,),
    ),
    Case(
        "mig-profile-valid-for-vm-size",
        "api-before-mig-without-profile",
        (Res(versioned(AGENT_POOL, "2021-07-01"), "a100", aks_gpu_pool(**T4)),),
    ),
    Case(
        "mig-profile-valid-for-vm-size",
        "pulumi-azure-gpu-instance",
        (Res(AZURE_NODE_POOL, "a100", classic_pool()),),
    ),
    Case(
        "mig-profile-valid-for-vm-size",
        "pulumi-azure-gpu-instance-on-t4",
        (Res(AZURE_NODE_POOL, "t4", classic_pool(vmSize="Standard_NC4as_T4_v3")),),
        ("Node pool 'a100mig1g' sets gpuInstanceProfile 'MIG1g' on 'Standard_NC4as_T4_v3'",),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)
