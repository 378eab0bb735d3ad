"""mig-pools-replaceable-on-profile-change: a profile change can replace the pool."""

from __future__ import annotations

import pytest

from .cloud_fixtures import (
    AGENT_POOL,
    AZURE_NODE_POOL,
    NOT_REPLACEABLE,
    REPLACE,
    T4,
    ack,
    agent_pool,
    aks_gpu_pool,
    classic_pool,
    managed_cluster,
    versioned,
)
from .harness import Case, Res, assert_case

CASES: list[Case] = [
    # BP-11: a profile change must be able to replace the pool.
    Case(
        REPLACE,
        "delete-before-replace",
        (Res(AGENT_POOL, "a100", aks_gpu_pool(), delete_before_replace=True),),
    ),
    Case(REPLACE, "profile-in-name", agent_pool(agentPoolName="a100mig1g")),
    Case(REPLACE, "profile-in-name-any-case", agent_pool(agentPoolName="A100MIG1G")),
    Case(REPLACE, "no-mig", agent_pool(**T4)),
    Case(REPLACE, "other-resources", managed_cluster() + ack()),
    Case(REPLACE, "same-name-create-first", agent_pool(), (f"'a100' (MIG1g) {NOT_REPLACEABLE}",)),
    Case(
        REPLACE,
        "other-profile-in-name",
        agent_pool(agentPoolName="a100mig2g"),
        (NOT_REPLACEABLE,),
    ),
    Case(REPLACE, "no-name", agent_pool(agentPoolName=None), ("without agentPoolName",)),
    Case(REPLACE, "exempt-pool", agent_pool(), config={"exemptNames": ["a100"]}),
    # A local SDK's AgentPool, and pulumi-azure's pool (gpu_instance forces a new pool too).
    Case(
        REPLACE,
        "versioned-same-name",
        (Res(versioned(AGENT_POOL, "2025-08-01"), "a100", aks_gpu_pool()),),
        (f"'a100' (MIG1g) {NOT_REPLACEABLE}",),
    ),
    Case(REPLACE, "pulumi-azure-profile-in-name", (Res(AZURE_NODE_POOL, "a100", classic_pool()),)),
    Case(
        REPLACE,
        "pulumi-azure-same-name",
        (Res(AZURE_NODE_POOL, "a100", classic_pool(name="gpu")),),
        (f"'gpu' (MIG1g) {NOT_REPLACEABLE}",),
    ),
    Case(
        REPLACE,
        "pulumi-azure-fix-in-its-own-terms",
        (Res(AZURE_NODE_POOL, "a100", classic_pool(name="gpu", gpuInstance="MIG2g")),),
        (
            "Fix: Give the KubernetesClusterNodePool the option delete_before_replace=True "
            "(its gpu_instance already forces a new pool), or a name that contains its profile "
            "('mig2g')",
        ),
    ),
    Case(
        REPLACE,
        "pulumi-azure-delete-before-replace",
        (Res(AZURE_NODE_POOL, "a100", classic_pool(name="gpu"), delete_before_replace=True),),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)
