"""What AKS refuses in a cluster's own settings, relative to the cluster (plan.aks.cluster)."""

from __future__ import annotations

from typing import Any

from gpu_platform.plan.aks.cluster import (
    KUBELOGIN_WITHOUT_ENTRA,
    LOCKED_OUT,
    RANGES_ON_PRIVATE_SERVER,
    aks_cluster_problems,
)
from gpu_platform.plan.aks.nodes import SYSTEM_POOL_TOO_FEW_PODS
from gpu_platform.settings import AksClusterSettings


def cluster(**fields: Any) -> AksClusterSettings:
    base = {"name": "aks", "location": "westeurope", "resourceGroup": {"name": "rg"}}
    return AksClusterSettings.model_validate({**base, **fields})


def test_a_default_cluster_is_sound() -> None:
    assert list(aks_cluster_problems(cluster())) == []


def test_every_problem_relative_to_the_cluster() -> None:
    bad = cluster(
        entraId={"enabled": False},
        disableLocalAccounts=True,
        kubeloginMode="spn",
        apiServer={"private": True, "authorizedIpRanges": ["10.0.0.0/8", "nope"]},
        systemPool={"maxPods": 20},
    )
    assert list(aks_cluster_problems(bad)) == [
        ("disableLocalAccounts", LOCKED_OUT),
        ("kubeloginMode", KUBELOGIN_WITHOUT_ENTRA),
        ("apiServer.authorizedIpRanges", RANGES_ON_PRIVATE_SERVER),
        ("apiServer.authorizedIpRanges[1]", "not a CIDR: 'nope'"),
        ("systemPool.maxPods", SYSTEM_POOL_TOO_FEW_PODS),
    ]


def test_a_kubelogin_mode_left_at_its_default_is_no_problem_without_entra() -> None:
    assert list(aks_cluster_problems(cluster(entraId={"enabled": False}))) == []
