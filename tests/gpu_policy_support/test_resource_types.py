"""resource_types: azure-native's AKS tokens at any API version and Karpenter NodePools of any
version are indexed under one token; the API version stays readable from the token."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from gpu_policy_support.resource_types import (
    AKS_AGENT_POOL,
    AKS_MANAGED_CLUSTER,
    KARPENTER_NODE_POOL,
    aks_api_version,
    canonical_type,
)


@pytest.mark.parametrize(
    ("token", "canonical", "api_version"),
    [
        (AKS_AGENT_POOL, AKS_AGENT_POOL, "2025-09-01"),
        ("azure-native:containerservice/v20250801:AgentPool", AKS_AGENT_POOL, "2025-08-01"),
        (
            "azure-native:containerservice/v20240202preview:AgentPool",
            AKS_AGENT_POOL,
            "2024-02-02-preview",
        ),
        (
            "azure-native:containerservice/v20210701:ManagedCluster",
            AKS_MANAGED_CLUSTER,
            "2021-07-01",
        ),
    ],
)
def test_azure_native_tokens_at_any_api_version(
    token: str, canonical: str, api_version: str
) -> None:
    assert (canonical_type(token), aks_api_version(token)) == (canonical, api_version)


@pytest.mark.parametrize(
    "token",
    [
        "azure-native:containerservice/v20250801:Snapshot",
        "azure-native:containerservice:AgentPoolX",
        "azure-native:containerservicefleet/v20250301:AgentPool",
        "azure:containerservice/kubernetesClusterNodePool:KubernetesClusterNodePool",
    ],
)
def test_other_tokens_stay_as_they_are(token: str) -> None:
    assert (canonical_type(token), aks_api_version(token)) == (token, None)


@pytest.mark.parametrize(
    "token", ["kubernetes:karpenter.sh/v1:NodePool", "kubernetes:karpenter.sh/v1beta1:NodePool"]
)
def test_karpenter_node_pools_of_any_version(token: str) -> None:
    assert canonical_type(token) == KARPENTER_NODE_POOL


def test_an_ack_node_pool_is_no_karpenter_node_pool() -> None:
    assert canonical_type("alicloud:cs/nodePool:NodePool") == "alicloud:cs/nodePool:NodePool"
    assert canonical_type("kubernetes:example.com/v1:NodePool") == (
        "kubernetes:example.com/v1:NodePool"
    )


@pytest.mark.parametrize("kind", ["AgentPool", "ManagedCluster"])
def test_every_api_version_azure_native_aliases_is_read(kind: str) -> None:
    """The tokens a local SDK of any API version registers are the ones azure-native's default
    module lists as its aliases (pulumi-azure-native 3.x, the installed SDK): each is indexed
    as the default module's type, its version read back from it."""
    module = "agent_pool" if kind == "AgentPool" else "managed_cluster"
    source = importlib.import_module(f"pulumi_azure_native.containerservice.{module}").__file__
    aliases = set(
        re.findall(
            rf"azure-native:containerservice/(v\d{{8}}\w*):{kind}\b", Path(str(source)).read_text()
        )
    )
    assert len(aliases) > 50
    for version in sorted(aliases):
        token = f"azure-native:containerservice/{version}:{kind}"
        date = version[1:9]
        expected = f"{date[:4]}-{date[4:6]}-{date[6:]}" + version[9:].replace("preview", "-preview")
        assert (canonical_type(token), aks_api_version(token)) == (
            f"azure-native:containerservice:{kind}",
            expected,
        )
