"""mig-pools-no-autoscaling-no-azure-linux: MIG pools fixed size, not on Azure Linux."""

from __future__ import annotations

import pytest

from gpu_facts.aks.mig import MIG_NO_AUTOSCALER, MIG_NOT_ON_AZURE_LINUX
from gpu_platform.plan.gpu_pools import mig_problems
from tests.pools import gpu_pool

from .cloud_fixtures import (
    AZURE_NODE_POOL,
    T4,
    agent_pool,
    classic_pool,
    in_cluster,
)
from .harness import Case, Res, assert_case, messages

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
        (f"enables the cluster autoscaler: {MIG_NO_AUTOSCALER}",),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "azure-linux",
        agent_pool(osSKU="AzureLinux"),
        (MIG_NOT_ON_AZURE_LINUX,),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "mariner",
        agent_pool(osSKU="CBLMariner"),
        (MIG_NOT_ON_AZURE_LINUX,),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "cluster-profile-both",
        in_cluster(enableAutoScaling=True, osSKU="AzureLinux3"),
        (MIG_NO_AUTOSCALER, MIG_NOT_ON_AZURE_LINUX),
    ),
    # pulumi-azure: gpuInstance, autoScalingEnabled (enableAutoScaling before v6), osSku.
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "pulumi-azure-fixed-ubuntu",
        (Res(AZURE_NODE_POOL, "a100", classic_pool()),),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "pulumi-azure-autoscaled-azure-linux",
        (
            Res(
                AZURE_NODE_POOL,
                "a100",
                classic_pool(autoScalingEnabled=True, minCount=1, maxCount=2, osSku="AzureLinux"),
            ),
        ),
        (MIG_NO_AUTOSCALER, MIG_NOT_ON_AZURE_LINUX),
    ),
    # The fix names the fields of the pool's own provider.
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "pulumi-azure-fix-in-its-own-fields",
        (Res(AZURE_NODE_POOL, "a100", classic_pool(autoScalingEnabled=True, minCount=1)),),
        (f"{MIG_NO_AUTOSCALER}. Fix: Set autoScalingEnabled to false with a fixed nodeCount",),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "azure-native-fix-in-its-own-fields",
        agent_pool(enableAutoScaling=True),
        (f"{MIG_NO_AUTOSCALER}. Fix: Set enableAutoScaling to false with a fixed count",),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "pulumi-azure-v5-enable-auto-scaling",
        (
            Res(
                AZURE_NODE_POOL,
                "a100",
                classic_pool(autoScalingEnabled=None, enableAutoScaling=True),
            ),
        ),
        (MIG_NO_AUTOSCALER,),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_the_pack_reports_the_rule_of_the_config_and_the_components() -> None:
    """One message per rule: what plan.gpu_pools says to the stack config and the pool
    components is what the pack says about a pool it reads from a program."""
    pool = gpu_pool(
        {
            "name": "a100",
            "vmSize": "Standard_ND96asr_v4",
            "autoscale": {"min": 1, "max": 3},
            "mig": {"profile": "MIG1g"},
            "osSku": "AzureLinux",
        }
    )
    rule = dict(mig_problems("aks", pool))
    found = messages(next(c for c in CASES if c.id == "cluster-profile-both"))
    assert len(found) == 2
    assert rule["autoscale"] in found[0]
    assert rule["osSku"] in found[1]
