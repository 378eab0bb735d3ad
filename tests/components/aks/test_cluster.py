"""AksCluster on the mock engine: the exact security-relevant inputs AKS receives."""

from __future__ import annotations

import base64
from typing import Any

import pulumi
import pytest
import yaml
from pulumi_azure_native import containerservice as aks

from gpu_platform.components.aks.cluster import (
    AKS_RBAC_CLUSTER_ADMIN_ROLE,
    AksCluster,
    AksClusterArgs,
    aks_cluster_args,
    kubelogin_args,
    with_kubelogin_mode,
)
from gpu_platform.offline_preview import ProgramRun, Secret
from gpu_platform.offline_preview.cloud_outputs import (
    FAKE_DEPLOYER_OBJECT_ID,
    fake_exec_kubeconfig,
    fake_kubeconfig,
)
from gpu_platform.settings import AksClusterSettings
from gpu_platform.stack_config import ConfigError, load_platform
from tests.components import platforms
from tests.components.input_errors import paths
from tests.components.input_errors import refused as refused_by
from tests.conftest import by_type, one, run, run_once

MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
MAINTENANCE = "azure-native:containerservice:MaintenanceConfiguration"
RESOURCE_GROUP = "azure-native:resources:ResourceGroup"
PROVIDER = "pulumi:providers:kubernetes"
ROLE_ASSIGNMENT = "azure-native:authorization:RoleAssignment"


CLUSTERS = {"public": platforms.aks_public_cluster, "hardened": platforms.aks_hardened_cluster}
"""The AKS clusters of tests.components.platforms, by what they are."""


def settings(cluster: str = "public", **changes: Any) -> AksClusterSettings:
    """The validated settings of a cluster of ``CLUSTERS``, with ``changes`` merged into its
    YAML."""
    raw = {"cloud": "aks", "cluster": {**CLUSTERS[cluster](), **changes}}
    validated = load_platform(raw).settings.cluster
    assert isinstance(validated, AksClusterSettings)
    return validated


def cluster_args(cluster: str = "public", **changes: Any) -> AksClusterArgs:
    """The component args GpuPlatform passes for those cluster settings."""
    return aks_cluster_args(settings(cluster, **changes))


def build(cluster: AksClusterArgs, name: str = "plat") -> ProgramRun:
    def program() -> None:
        component = AksCluster(name, cluster)
        pulumi.export("kubeconfig", component.kubeconfig)
        pulumi.export("oidcIssuerUrl", component.oidc_issuer_url)
        pulumi.export("resourceGroupName", component.resource_group_name)
        pulumi.export("clusterName", component.cluster_name)

    return run(program)


@run_once
def built(cluster: str = "public", name: str = "plat", **changes: Any) -> ProgramRun:
    """``build(cluster_args(cluster, **changes), name)``, run once per test process: most tests
    read the same few clusters."""
    return build(cluster_args(cluster, **changes), name)


def test_system_pool_keeps_add_ons_only() -> None:
    mc = one(built(), MANAGED_CLUSTER)
    [system] = mc.inputs["agentPoolProfiles"]
    assert system["mode"] == "System"
    assert system["nodeTaints"] == ["CriticalAddonsOnly=true:NoSchedule"]
    assert system["vmSize"] == "Standard_D4ds_v5"
    assert system["count"] == 2
    assert system["osType"] == "Linux"


def test_identity_entra_id_and_workload_identity() -> None:
    inputs = one(built("hardened"), MANAGED_CLUSTER).inputs
    assert inputs["identity"] == {"type": "SystemAssigned"}
    assert inputs["enableRBAC"] is True
    assert inputs["aadProfile"] == {
        "managed": True,
        "enableAzureRBAC": True,
        "adminGroupObjectIDs": ["00000000-0000-0000-0000-00000000a001"],
    }
    assert inputs["disableLocalAccounts"] is True
    assert inputs["oidcIssuerProfile"] == {"enabled": True}
    # Hardened: Defender on; the rest of the security profile is in the hardening tests.
    assert inputs["securityProfile"]["workloadIdentity"] == {"enabled": True}


def test_entra_id_off_leaves_no_aad_profile() -> None:
    inputs = one(built(entraId={"enabled": False}), MANAGED_CLUSTER).inputs
    assert "aadProfile" not in inputs
    assert inputs["disableLocalAccounts"] is False


@pytest.mark.parametrize(
    ("policy", "dataplane"), [("cilium", "cilium"), ("azure", "azure"), ("calico", "azure")]
)
def test_network_policy_engine(policy: str, dataplane: str) -> None:
    profile = one(built(networkPolicy=policy), MANAGED_CLUSTER).inputs["networkProfile"]
    assert profile["networkPlugin"] == "azure"
    assert profile["networkPluginMode"] == "overlay"
    assert profile["networkPolicy"] == policy
    assert profile["networkDataplane"] == dataplane


def test_upgrade_channels_keep_nodes_on_the_newest_image() -> None:
    inputs = one(built(), MANAGED_CLUSTER).inputs
    assert inputs["autoUpgradeProfile"] == {
        "upgradeChannel": "patch",
        "nodeOSUpgradeChannel": "NodeImage",
    }


def test_dev_api_server_is_public_behind_authorized_ranges() -> None:
    inputs = one(built(), MANAGED_CLUSTER).inputs
    assert inputs["apiServerAccessProfile"] == {
        "enablePrivateCluster": False,
        "authorizedIPRanges": ["203.0.113.0/24"],
    }
    assert inputs["sku"] == {"name": "Base", "tier": "Free"}


def test_prod_is_private_standard_tier_and_protected() -> None:
    result = built("hardened")
    mc = one(result, MANAGED_CLUSTER)
    assert mc.inputs["apiServerAccessProfile"] == {"enablePrivateCluster": True}
    assert mc.inputs["sku"] == {"name": "Base", "tier": "Standard"}
    assert mc.protect is True
    assert one(result, RESOURCE_GROUP).protect is True


def test_dev_is_not_protected() -> None:
    result = built()
    assert one(result, MANAGED_CLUSTER).protect is False
    assert one(result, RESOURCE_GROUP).protect is False


def test_created_resource_group_and_cluster_names() -> None:
    result = built()
    rg = one(result, RESOURCE_GROUP)
    assert rg.inputs["resourceGroupName"] == "rg-gpu-dev"
    assert rg.inputs["location"] == "westeurope"
    mc = one(result, MANAGED_CLUSTER)
    assert mc.inputs["resourceName"] == "gpu-dev"
    assert mc.inputs["resourceGroupName"] == "rg-gpu-dev"
    assert mc.inputs["kubernetesVersion"] == "1.35"
    assert result.outputs["resourceGroupName"] == "rg-gpu-dev"
    assert result.outputs["clusterName"] == "gpu-dev"


def test_existing_resource_group_is_used_not_created() -> None:
    result = built(resourceGroup={"name": "rg-shared", "create": False})
    assert by_type(result, RESOURCE_GROUP) == []
    assert one(result, MANAGED_CLUSTER).inputs["resourceGroupName"] == "rg-shared"
    assert result.outputs["resourceGroupName"] == "rg-shared"


def test_maintenance_windows_for_both_upgrade_channels() -> None:
    configs = {r.inputs["configName"]: r for r in by_type(built(), MAINTENANCE)}
    assert set(configs) == {"aksManagedAutoUpgradeSchedule", "aksManagedNodeOSUpgradeSchedule"}
    for config in configs.values():
        assert config.inputs["resourceName"] == "gpu-dev"
        assert config.inputs["maintenanceWindow"] == {
            "schedule": {"weekly": {"dayOfWeek": "Saturday", "intervalWeeks": 1}},
            "startTime": "02:00",
            "durationHours": 6,
            "utcOffset": "+00:00",
        }


def test_no_maintenance_window_for_a_channel_that_is_off() -> None:
    result = built(nodeOsUpgradeChannel="Unmanaged")
    [config] = by_type(result, MAINTENANCE)
    assert config.inputs["configName"] == "aksManagedAutoUpgradeSchedule"
    assert by_type(built(maintenanceWindow=None), MAINTENANCE) == []


def test_children_are_parented_and_named_after_the_component() -> None:
    result = built(name="edge")
    component = one(result, "gpu-platform:index:AksCluster")
    assert component.name == "edge"
    children = [r for r in result.resources if r is not component]
    assert {r.type for r in children} == {
        RESOURCE_GROUP,
        MANAGED_CLUSTER,
        MAINTENANCE,
        ROLE_ASSIGNMENT,
        PROVIDER,
    }
    for child in children:
        assert child.parent == component.urn
        assert child.name.startswith("edge-")


# --- Azure RBAC: the deploying identity may reach the Kubernetes API ----------------------


@pytest.mark.parametrize("cluster", ["public", "hardened"])
def test_azure_rbac_grants_the_deployer_cluster_admin_on_the_cluster(cluster: str) -> None:
    result = built(cluster)
    assignment = one(result, ROLE_ASSIGNMENT)
    cluster = one(result, MANAGED_CLUSTER)
    assert assignment.inputs["principalId"] == FAKE_DEPLOYER_OBJECT_ID
    assert assignment.inputs["principalType"] == "User"  # kubeloginMode azurecli
    assert assignment.inputs["roleDefinitionId"] == (
        "/subscriptions/00000000-0000-0000-0000-000000000000/providers/"
        "Microsoft.Authorization/roleDefinitions/b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b"
    )
    assert AKS_RBAC_CLUSTER_ADMIN_ROLE in assignment.inputs["roleDefinitionId"]
    # Scoped to the managed cluster (its resource ID), not the group or subscription.
    assert assignment.inputs["scope"] == "plat-aks-id"
    assert cluster.urn in assignment.property_dependencies["scope"]
    assert assignment.parent == one(result, "gpu-platform:index:AksCluster").urn
    # Same principal, role and scope twice is refused: a replacement deletes first.
    assert assignment.delete_before_replace is True


def test_kubernetes_provider_waits_for_the_deployer_role_assignment() -> None:
    result = built()
    provider = one(result, PROVIDER)
    assert one(result, ROLE_ASSIGNMENT).urn in provider.dependencies
    assert one(result, MANAGED_CLUSTER).urn in provider.dependencies


@pytest.mark.parametrize(
    ("changes", "principal_type"),
    [
        ({"kubeloginMode": "spn"}, "ServicePrincipal"),
        ({"kubeloginMode": "workloadidentity"}, "ServicePrincipal"),
        (
            {"entraId": {"enabled": True, "deployerPrincipalType": "ServicePrincipal"}},
            "ServicePrincipal",
        ),
        ({"kubeloginMode": "spn", "entraId": {"deployerPrincipalType": "User"}}, "User"),
    ],
)
def test_deployer_principal_type_follows_login_mode_or_config(
    changes: dict[str, Any], principal_type: str
) -> None:
    assignment = one(built(**changes), ROLE_ASSIGNMENT)
    assert assignment.inputs["principalType"] == principal_type


@pytest.mark.parametrize(
    "entra",
    [
        {"enabled": True, "azureRbac": True, "grantDeployerAccess": False},
        {"enabled": True, "azureRbac": False},
        {"enabled": False},
    ],
    ids=["switched-off", "kubernetes-rbac", "no-entra"],
)
def test_no_deployer_role_assignment_when_off_or_without_azure_rbac(
    entra: dict[str, Any],
) -> None:
    result = built(entraId=entra)
    assert by_type(result, ROLE_ASSIGNMENT) == []
    assert one(result, MANAGED_CLUSTER).urn in one(result, PROVIDER).dependencies


def test_deployer_principal_type_is_validated() -> None:
    with pytest.raises(ConfigError, match="deployerPrincipalType"):
        settings(entraId={"deployerPrincipalType": "Group"})


def kubelogin_exec(kubeconfig: str) -> dict[str, Any]:
    [user] = yaml.safe_load(kubeconfig)["users"]
    exec_: dict[str, Any] = user["user"]["exec"]
    return exec_


# What AKS puts in an exec kubeconfig, less the interactive parts we rewrite.
SERVER_ARGS = [
    "get-token",
    "--environment",
    "AzurePublicCloud",
    "--server-id",
    "6dae42f8-4368-4678-94ff-3960e28e3630",
    "--tenant-id",
    "00000000-0000-0000-0000-000000000000",
]


def test_kubeconfig_is_secret_and_decoded() -> None:
    result = built()
    kubeconfig = result.outputs["kubeconfig"]
    assert isinstance(kubeconfig, Secret)
    assert yaml.safe_load(kubeconfig.value)["kind"] == "Config"
    provider = one(result, PROVIDER)
    assert isinstance(provider.inputs["kubeconfig"], Secret)
    assert provider.inputs["kubeconfig"].value == kubeconfig.value


def test_entra_kubeconfig_logs_in_with_the_azure_cli_by_default() -> None:
    # AKS hands out `--login devicecode`: a non-interactive `pulumi up` would wait for a person.
    kubeconfig = built().outputs["kubeconfig"].value
    exec_ = kubelogin_exec(kubeconfig)
    assert exec_["command"] == "kubelogin"
    assert exec_["args"] == [*SERVER_ARGS, "--login", "azurecli"]
    assert "devicecode" not in kubeconfig
    # The rest of the kubeconfig is what AKS returned.
    before = yaml.safe_load(fake_exec_kubeconfig("gpu-dev"))
    after = yaml.safe_load(kubeconfig)
    assert {k: v for k, v in after.items() if k != "users"} == {
        k: v for k, v in before.items() if k != "users"
    }


@pytest.mark.parametrize("mode", ["workloadidentity", "spn"])
def test_kubelogin_mode_follows_config(mode: str) -> None:
    kubeconfig = built(kubeloginMode=mode).outputs["kubeconfig"]
    assert isinstance(kubeconfig, Secret)
    # No --client-id: these modes read the identity's from the environment, which overrides
    # the flag; AKS's value there is its interactive public client.
    assert kubelogin_exec(kubeconfig.value)["args"] == [*SERVER_ARGS, "--login", mode]


def test_interactive_kubelogin_mode_is_refused_by_config() -> None:
    with pytest.raises(ConfigError, match="kubeloginMode"):
        settings(kubeloginMode="devicecode")


def test_without_entra_the_kubeconfig_is_not_rewritten() -> None:
    kubeconfig = built(entraId={"enabled": False}).outputs["kubeconfig"]
    assert kubeconfig.value == fake_kubeconfig("gpu-dev")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["get-token", "-l", "interactive", "--server-id", "x"], ["get-token", "--server-id", "x"]),
        (["get-token", "--login=devicecode", "--client-id=c"], ["get-token"]),
        (["get-token", "--server-id", "x"], ["get-token", "--server-id", "x"]),
    ],
)
def test_kubelogin_args_replace_any_login_flag(args: list[str], expected: list[str]) -> None:
    assert kubelogin_args(args, "azurecli") == [*expected, "--login", "azurecli"]


def test_kubeconfig_without_a_kubelogin_user_fails_clearly() -> None:
    with pytest.raises(ValueError, match="no kubelogin"):
        with_kubelogin_mode(fake_kubeconfig("c"), "azurecli")
    with pytest.raises(ValueError, match="get-token"):
        kubelogin_args(["convert-kubeconfig"], "azurecli")


@pytest.mark.parametrize("kubeconfig", ["", "null", "- a list\n", "just text"])
def test_unreadable_kubeconfig_fails_clearly(kubeconfig: str) -> None:
    with pytest.raises(ValueError, match="unreadable kubeconfig"):
        with_kubelogin_mode(kubeconfig, "azurecli")


def test_kubelogin_mode_without_entra_id_is_refused_by_config() -> None:
    with pytest.raises(ConfigError) as err:
        settings(kubeloginMode="spn", entraId={"enabled": False})
    assert [path for path, _ in err.value.problems] == ["cluster.kubeloginMode"]
    # The default mode stays valid without Entra ID.
    assert settings(entraId={"enabled": False}).kubelogin_mode == "azurecli"


def test_kubeconfig_output_reports_is_secret() -> None:
    cluster = cluster_args()

    async def is_secret(output: pulumi.Output[str]) -> bool:
        return await output.is_secret()

    def program() -> None:
        component = AksCluster("plat", cluster)
        # Secretness lives on the Output itself: ask it inside the program, export the answer.
        pulumi.export("isSecret", pulumi.Output.from_input(is_secret(component.kubeconfig)))

    assert run(program).outputs["isSecret"] is True


def test_oidc_issuer_url_comes_from_the_cluster() -> None:
    url = built().outputs["oidcIssuerUrl"]
    assert url.startswith("https://") and "gpu-dev" in url


def test_empty_credentials_fail_clearly() -> None:
    from gpu_platform.components.aks.cluster import _decode_kubeconfig

    with pytest.raises(ValueError, match="no user kubeconfig"):
        _decode_kubeconfig(aks.ListManagedClusterUserCredentialsResult(kubeconfigs=[]))
    value = base64.b64encode(b"apiVersion: v1\n").decode()
    result = aks.ListManagedClusterUserCredentialsResult(
        kubeconfigs=[aks.outputs.CredentialResultResponse(name="clusterUser", value=value)]
    )
    assert _decode_kubeconfig(result) == "apiVersion: v1\n"


@pytest.mark.parametrize(
    "build_wrong",
    [
        lambda: aks.ManagedCluster("x", resource_group_name="rg", network_profle={}),  # type: ignore[call-overload]
        lambda: aks.ContainerServiceNetworkProfileArgs(network_polcy="cilium"),  # type: ignore[call-arg]
        lambda: aks.ManagedClusterAutoUpgradeProfileArgs(node_os_upgrade_chanel="NodeImage"),  # type: ignore[call-arg]
        lambda: aks.MaintenanceWindowArgs(
            schedule=aks.ScheduleArgs(),
            start_time="01:00",
            duration=4,  # type: ignore[call-arg]
        ),
    ],
)
def test_misspelt_typed_argument_fails(build_wrong: Any) -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        build_wrong()


# --- the component's own args, without any stack config -----------------------------------


@pytest.mark.parametrize("cluster", ["public", "hardened"])
def test_config_settings_round_trip_through_the_args(cluster: str) -> None:
    # GpuPlatform passes aks_cluster_args(settings); the component validates them back into
    # the very same settings, so a stack's plan cannot change.
    validated = settings(cluster)
    assert AksClusterSettings.model_validate(aks_cluster_args(validated)) == validated


def test_minimal_args_get_the_hardened_defaults() -> None:
    result = build({"name": "c1", "location": "westeurope", "resource_group": {"name": "rg"}})
    inputs = one(result, MANAGED_CLUSTER).inputs
    assert inputs["sku"] == {"name": "Base", "tier": "Standard"}
    assert inputs["aadProfile"]["enableAzureRBAC"] is True
    assert inputs["networkProfile"]["networkPolicy"] == "cilium"
    assert inputs["autoUpgradeProfile"] == {
        "upgradeChannel": "patch",
        "nodeOSUpgradeChannel": "NodeImage",
    }
    [system] = inputs["agentPoolProfiles"]
    assert (system["vmSize"], system["count"]) == ("Standard_D4ds_v5", 3)
    assert one(result, RESOURCE_GROUP).inputs["resourceGroupName"] == "rg"
    assert by_type(result, MAINTENANCE) == []


def refused(args: Any) -> pulumi.InputPropertiesError:
    """The error AksCluster raises for ``args``, after checking it registered nothing."""
    return refused_by(lambda: AksCluster("bad", args))


def test_bad_args_name_every_bad_property_and_register_nothing() -> None:
    err = refused(
        {
            "name": "c1",
            "location": "westeurope",
            "resource_group": {"name": "rg", "create": "yes"},
            "sku_tier": "Gold",
            "entra_id": {"deployer_principal_type": "Group"},
            "maintenance_window": {"day": "Funday", "start_hour": 25},
            "system_pool": {"count": 0},
        }
    )
    assert sorted(paths(err)) == [
        "entraId.deployerPrincipalType",
        "maintenanceWindow.day",
        "maintenanceWindow.startHour",
        "resourceGroup.create",
        "skuTier",
        "systemPool.count",
    ]
    assert "AksCluster 'bad'" in str(err)


def test_missing_required_args_are_named() -> None:
    assert sorted(paths(refused({"name": "c1"}))) == ["location", "resourceGroup"]


def test_args_that_aks_would_refuse_are_named() -> None:
    err = refused(
        {
            "name": "c1",
            "location": "westeurope",
            "resource_group": {"name": "rg"},
            "entra_id": {"enabled": False},
            "disable_local_accounts": True,
            "api_server": {"private": True, "authorized_ip_ranges": ["10.0.0.0/8", "nope"]},
        }
    )
    assert paths(err) == [
        "disableLocalAccounts",
        "apiServer.authorizedIpRanges",
        "apiServer.authorizedIpRanges[1]",
    ]


# --- node hardening, Azure Policy and Defender ---------------------------------------------

WORKSPACE = "azure-native:operationalinsights:Workspace"
LOGS: dict[str, Any] = {"logs": True, "retention_days": 30}


@pytest.mark.parametrize(("cluster", "encrypted"), [("public", False), ("hardened", True)])
def test_system_pool_hardening_is_explicit(cluster: str, encrypted: bool) -> None:
    [system] = one(build(cluster_args(cluster)), MANAGED_CLUSTER).inputs["agentPoolProfiles"]
    assert {k: system[k] for k in ("maxPods", "osDiskType", "osDiskSizeGB")} == {
        "maxPods": 110,
        "osDiskType": "Ephemeral",  # a D4ds_v5's 150 GiB temp disk holds 128 GiB
        "osDiskSizeGB": 128,
    }
    assert system["enableEncryptionAtHost"] is encrypted


def test_minimal_args_get_explicit_node_hardening() -> None:
    result = build({"name": "c1", "location": "westeurope", "resource_group": {"name": "rg"}})
    [system] = one(result, MANAGED_CLUSTER).inputs["agentPoolProfiles"]
    assert (system["osDiskType"], system["osDiskSizeGB"], system["maxPods"]) == (
        "Ephemeral",
        128,
        110,
    )
    assert system["enableEncryptionAtHost"] is False
    inputs = one(result, MANAGED_CLUSTER).inputs
    assert "addonProfiles" not in inputs
    assert inputs["securityProfile"] == {"workloadIdentity": {"enabled": True}}


def test_azure_policy_and_defender_report_to_the_logs_workspace() -> None:
    args = cluster_args("hardened")
    args["monitoring"] = LOGS
    result = build(args)
    workspace = one(result, WORKSPACE)
    inputs = one(result, MANAGED_CLUSTER).inputs
    workspace_id = f"{workspace.name}-id"  # the mock engine's ID of the workspace
    assert inputs["addonProfiles"] == {
        "omsagent": {
            "enabled": True,
            "config": {"logAnalyticsWorkspaceResourceID": workspace_id, "useAADAuth": "true"},
        },
        "azurepolicy": {"enabled": True},
    }
    assert inputs["securityProfile"] == {
        "workloadIdentity": {"enabled": True},
        "defender": {
            "logAnalyticsWorkspaceResourceId": workspace_id,
            "securityMonitoring": {"enabled": True},
        },
    }


def test_defender_without_logs_gets_its_own_workspace_and_no_log_agent() -> None:
    result = build(cluster_args("public", defender=True))
    workspace = one(result, WORKSPACE)
    inputs = one(result, MANAGED_CLUSTER).inputs
    assert "addonProfiles" not in inputs  # no Container insights agent: logs are off
    assert inputs["securityProfile"]["defender"] == {
        "logAnalyticsWorkspaceResourceId": f"{workspace.name}-id",
        "securityMonitoring": {"enabled": True},
    }


def test_system_pool_that_aks_would_refuse_is_named() -> None:
    err = refused(
        {
            "name": "c1",
            "location": "westeurope",
            "resource_group": {"name": "rg"},
            "system_pool": {
                "vm_size": "Standard_D2ds_v5",
                "max_pods": 20,
                "os_disk_type": "Ephemeral",
            },
        }
    )
    assert paths(err) == ["systemPool.maxPods", "systemPool.osDiskType"]
    gpu = refused(
        {
            "name": "c1",
            "location": "westeurope",
            "resource_group": {"name": "rg"},
            "system_pool": {"vm_size": "Standard_NC4as_T4_v3"},
        }
    )
    assert paths(gpu) == ["systemPool.vmSize"]
