"""components.aks.azure_aliases: the resources our AKS components create carry none of
azure-native's API-version aliases, and every other alias (a renamed module, a former name or
parent, our components' former tokens) still reaches the engine."""

from __future__ import annotations

import pulumi
import pulumi_azure_native as azure_native
import pulumi_kubernetes as k8s
import pytest

from gpu_platform.component_provider import HOSTED_COMPONENTS, GpuPlatformProvider
from gpu_platform.components.aks.azure_aliases import is_version_alias, without_version_aliases
from gpu_platform.components.aks.nvme_cache import NvmeCache
from gpu_platform.offline_preview import ProgramRun
from tests.conftest import run
from tests.provider.wire_inputs import WIRE_INPUTS

AGENT_POOL = "azure-native:containerservice:AgentPool"
DCR = "azure-native:monitor:DataCollectionRule"


@pytest.mark.parametrize(
    ("alias", "resource_type", "dropped"),
    [
        (pulumi.Alias(type_="azure-native:containerservice/v20190201:AgentPool"), AGENT_POOL, True),
        (
            pulumi.Alias(type_="azure-native:containerservice/v20240702preview:AgentPool"),
            AGENT_POOL,
            True,
        ),
        # The module was renamed (insights -> monitor): a stack may hold the old one.
        (pulumi.Alias(type_="azure-native:insights/v20220601:DataCollectionRule"), DCR, False),
        # Another type, or more than a type: not the SDK's version history.
        (
            pulumi.Alias(type_="azure-native:containerservice/v20190201:ManagedCluster"),
            AGENT_POOL,
            False,
        ),
        (
            pulumi.Alias(type_="azure-native:containerservice/v20190201:AgentPool", name="old"),
            AGENT_POOL,
            False,
        ),
        (pulumi.Alias(type_="azure-native:containerservice:AgentPool"), AGENT_POOL, False),
        (pulumi.Alias(name="renamed"), AGENT_POOL, False),
        (
            "urn:pulumi:dev::p::azure-native:containerservice/v20190201:AgentPool::x",
            AGENT_POOL,
            False,
        ),
        (
            pulumi.Alias(type_="kubernetes:extensions/v1beta1:NetworkPolicy"),
            "kubernetes:networking.k8s.io/v1:NetworkPolicy",
            False,
        ),
    ],
)
def test_only_the_sdk_s_version_aliases_are_dropped(
    alias: object, resource_type: str, dropped: bool
) -> None:
    assert is_version_alias(alias, resource_type) is dropped


def _agent_pool(name: str, opts: pulumi.ResourceOptions | None = None) -> None:
    azure_native.containerservice.AgentPool(
        name,
        resource_group_name="rg",
        resource_name_="aks",
        agent_pool_name=name,
        opts=opts,
    )


def test_children_of_a_component_drop_them_and_keep_their_own() -> None:
    def program() -> None:
        _agent_pool("plain")  # the SDK's class alone: every version alias
        parent = pulumi.ComponentResource(
            "test:index:Parent", "parent", None, without_version_aliases(None)
        )
        grandparent_opts = pulumi.ResourceOptions(parent=parent)
        child = pulumi.ComponentResource("test:index:Child", "child", None, grandparent_opts)
        _agent_pool(
            "pool",
            pulumi.ResourceOptions(parent=child, aliases=[pulumi.Alias(name="pool-before")]),
        )

    resources = {r.name: r for r in run(program).resources}
    sdk_aliases = resources["plain"].aliases
    assert len(sdk_aliases) > 50  # what the SDK attaches (about 110 in azure-native 3.x)
    assert all("containerservice/v" in urn for urn in sdk_aliases)
    # Inherited through a child component; our own alias (a former name) kept.
    assert resources["pool"].aliases == [resources["pool"].urn.replace("::pool", "::pool-before")]


AKS_COMPONENTS = tuple(name for name in HOSTED_COMPONENTS if name.startswith("Aks"))
"""Every hosted AKS component (NvmeCache, whose inputs hold resource references, below)."""


def version_aliases(result: ProgramRun) -> dict[str, list[str]]:
    found = {}
    for resource in result.resources:
        if resource.type.startswith("azure-native:"):
            module = resource.type.split(":")[1]
            versioned = [urn for urn in resource.aliases if f"azure-native:{module}/v" in urn]
            if versioned:
                found[resource.urn] = versioned
    return found


@pytest.mark.parametrize("component", AKS_COMPONENTS)
def test_each_aks_component_on_its_own_creates_none(component: str) -> None:
    """Built alone (as another language builds it, through the provider's mapping), not only
    under the AksCluster of a stack."""
    provider = GpuPlatformProvider()

    def program() -> None:
        provider.construct("alone", f"gpu-platform:index:{component}", WIRE_INPUTS[component])

    result = run(program)
    assert any(r.type.startswith("azure-native:") for r in result.resources)
    assert version_aliases(result) == {}


def test_nvme_cache_creates_none() -> None:
    def program() -> None:
        NvmeCache(
            "cache",
            {
                "cluster_name": "aks",
                "resource_group_name": "rg",
                "pools": ["a100"],
                "kubernetes_provider": k8s.Provider("k8s", kubeconfig="{}"),
            },
        )

    result = run(program)
    assert any(r.type == "azure-native:kubernetesconfiguration:Extension" for r in result.resources)
    assert version_aliases(result) == {}
