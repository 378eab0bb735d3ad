"""AksGrafana on the mock engine: Managed Grafana linked to the Azure Monitor workspace, its
identity reading the workspace, the admin groups administering it."""

from __future__ import annotations

from typing import Any

import pulumi

from gpu_platform.components.aks.grafana import AksGrafana, AksGrafanaArgs
from gpu_platform.offline_preview import ProgramRun
from gpu_platform.offline_preview.cloud_outputs import FAKE_GRAFANA_PRINCIPAL_ID
from tests.components.input_errors import paths, refused
from tests.conftest import by_type, one, run

AMW = "/subscriptions/s/resourceGroups/rg-gpu/providers/Microsoft.Monitor/accounts/amw"
ADMINS = "00000000-0000-0000-0000-00000000a001"
GRAFANA = "azure-native:dashboard:Grafana"
ASSIGNMENT = "azure-native:authorization:RoleAssignment"
ROLES = "/subscriptions/00000000-0000-0000-0000-000000000000/providers/Microsoft.Authorization"


def grafana(**args: Any) -> ProgramRun:
    def program() -> None:
        full: AksGrafanaArgs = {
            "name": "gpu-prod-grafana",
            "resource_group_name": "rg-gpu",
            "location": "westeurope",
            "azure_monitor_workspace_id": AMW,
            **args,
        }
        pulumi.export("endpoint", AksGrafana("graf", full).endpoint)

    return run(program)


def assignments(result: ProgramRun) -> dict[str, dict[str, Any]]:
    return {a.name: a.inputs for a in by_type(result, ASSIGNMENT)}


def test_grafana_reads_the_azure_monitor_workspace() -> None:
    result = grafana(tags={"environment": "prod"})
    assert one(result, GRAFANA).inputs == {
        "workspaceName": "gpu-prod-grafana",
        "resourceGroupName": "rg-gpu",
        "location": "westeurope",
        "sku": {"name": "Standard"},
        "identity": {"type": "SystemAssigned"},
        "properties": {
            "grafanaIntegrations": {
                "azureMonitorWorkspaceIntegrations": [{"azureMonitorWorkspaceResourceId": AMW}]
            },
            "apiKey": "Disabled",
        },
        "tags": {"environment": "prod"},
    }
    assert result.outputs["endpoint"] == "https://gpu-prod-grafana.grafana.offline.invalid"


def test_its_identity_is_a_monitoring_data_reader_of_the_workspace() -> None:
    reader = assignments(grafana())["graf-reads-metrics"]
    assert reader == {
        "principalId": FAKE_GRAFANA_PRINCIPAL_ID,
        "principalType": "ServicePrincipal",
        "roleDefinitionId": f"{ROLES}/roleDefinitions/b0d8363b-8ddd-447d-831f-62ca05bff136",
        "scope": AMW,
        "description": "Grafana reads the cluster's GPU metrics (gpu-platform)",
    }


def test_admin_groups_are_grafana_admins_of_the_instance() -> None:
    result = grafana(admin_group_object_ids=[ADMINS])
    admin = assignments(result)[f"graf-admin-{ADMINS}"]
    assert admin["principalId"] == ADMINS
    assert admin["principalType"] == "Group"
    assert admin["roleDefinitionId"] == (
        f"{ROLES}/roleDefinitions/22926164-76b3-42b3-bc55-97df8dab3e41"
    )
    assert admin["scope"] == "graf-grafana-id"
    # Azure refuses a duplicate assignment: a replacement deletes the old one first.
    assert all(a.delete_before_replace for a in by_type(result, ASSIGNMENT))


def test_no_admin_groups_no_admin_assignment() -> None:
    assert list(assignments(grafana())) == ["graf-reads-metrics"]


def test_bad_args_name_every_property_and_register_nothing() -> None:
    err = refused(
        lambda: AksGrafana(
            "graf",
            {
                "name": "9-starts-with-a-digit",
                "resource_group_name": "rg",
                "location": "westeurope",
                "azure_monitor_workspace_id": AMW,
                "admin_group_object_ids": ["admins"],
            },
        )
    )
    assert paths(err) == ["name", "adminGroupObjectIds[0]"]


def test_children_are_named_after_and_parented_to_the_component() -> None:
    result = grafana(admin_group_object_ids=[ADMINS])
    component = one(result, "gpu-platform:index:AksGrafana")
    children = [r for r in result.resources if r is not component]
    assert children
    assert all(r.name.startswith("graf-") and r.parent == component.urn for r in children)
