"""AksGrafana: Azure Managed Grafana reading an AKS cluster's Azure Monitor workspace.

The workspace is linked as Grafana's managed-Prometheus data source
(``grafanaIntegrations.azureMonitorWorkspaceIntegrations``) and Grafana's system-assigned
identity gets "Monitoring Data Reader" on it, as Microsoft's onboarding does; the Entra admin
groups get "Grafana Admin" on the instance. Dashboards live inside Grafana, not in Azure
Resource Manager: docs/observability.md has the one command that imports ours.

Facts and sources: ``gpu_facts.aks.monitor``.
"""

import re
from typing import NotRequired, TypedDict

import pulumi
from pulumi_azure_native import authorization, dashboard

from gpu_facts.aks.monitor import (
    GRAFANA_ADMIN_ROLE,
    GRAFANA_NAME_PATTERN,
    GRAFANA_SKU,
    MONITORING_DATA_READER_ROLE,
    role_definition_id,
)
from gpu_platform.plan.cloud_tags import azure_tag_problems
from gpu_platform.plan.names import entra_object_id_problems
from gpu_platform.plan.problems import under

from ..errors import Problem, raise_if_any, shape_problems
from ..type_tokens import formerly, type_token
from .azure_aliases import without_version_aliases

COMPONENT = "AksGrafana"


class AksGrafanaArgs(TypedDict):
    """An Azure Managed Grafana for one cluster's metrics."""

    name: str
    """Grafana workspace name: 2 to 23 letters, digits and hyphens, starting with a letter."""
    resource_group_name: pulumi.Input[str]
    """Resource group of the workspace (the cluster's)."""
    location: str
    """Azure region (the cluster's)."""
    azure_monitor_workspace_id: pulumi.Input[str]
    """Resource ID of the Azure Monitor workspace Grafana reads."""
    admin_group_object_ids: NotRequired[list[str]]
    """Entra ID groups given "Grafana Admin" on the instance."""
    tags: NotRequired[dict[str, str]]
    """Azure tags."""


class AksGrafana(pulumi.ComponentResource):
    """Azure Managed Grafana linked to an Azure Monitor workspace, with its admins."""

    endpoint: pulumi.Output[str]
    """URL of the Grafana instance."""
    grafana_id: pulumi.Output[str]
    """Resource ID of the Grafana workspace."""

    def __init__(
        self, name: str, args: AksGrafanaArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("AksGrafana", name, shape_problems(args, AksGrafanaArgs))
        raise_if_any(COMPONENT, name, _problems(args))
        super().__init__(
            type_token("AksGrafana"),
            name,
            None,
            formerly("gpu-platform:azure:AksGrafana", without_version_aliases(opts)),
        )
        child = pulumi.ResourceOptions(parent=self)
        grafana = dashboard.Grafana(
            f"{name}-grafana",
            workspace_name=args["name"],
            resource_group_name=args["resource_group_name"],
            location=args["location"],
            sku=dashboard.ResourceSkuArgs(name=GRAFANA_SKU),
            identity=dashboard.ManagedServiceIdentityArgs(
                type=dashboard.ManagedServiceIdentityType.SYSTEM_ASSIGNED
            ),
            properties=dashboard.ManagedGrafanaPropertiesArgs(
                grafana_integrations=dashboard.GrafanaIntegrationsArgs(
                    azure_monitor_workspace_integrations=[
                        dashboard.AzureMonitorWorkspaceIntegrationArgs(
                            azure_monitor_workspace_resource_id=args["azure_monitor_workspace_id"]
                        )
                    ]
                ),
                # Entra ID sign-in only: no long-lived Grafana API keys.
                api_key=dashboard.ApiKey.DISABLED,
            ),
            tags=args.get("tags") or None,
            opts=child,
        )
        subscription = authorization.get_client_config_output(
            opts=pulumi.InvokeOutputOptions(parent=self)
        ).subscription_id
        # Azure refuses a second assignment of the same principal, role and scope
        # (RoleAssignmentExists): a replacement must delete the old one first.
        assignment = pulumi.ResourceOptions(parent=self, delete_before_replace=True)
        authorization.RoleAssignment(
            f"{name}-reads-metrics",
            principal_id=grafana.identity.apply(lambda i: i.principal_id if i else ""),
            principal_type=authorization.PrincipalType.SERVICE_PRINCIPAL,
            role_definition_id=subscription.apply(
                lambda sub: role_definition_id(sub, MONITORING_DATA_READER_ROLE)
            ),
            scope=args["azure_monitor_workspace_id"],
            description="Grafana reads the cluster's GPU metrics (gpu-platform)",
            opts=assignment,
        )
        for group in args.get("admin_group_object_ids") or []:
            authorization.RoleAssignment(
                f"{name}-admin-{group}",
                principal_id=group,
                principal_type=authorization.PrincipalType.GROUP,
                role_definition_id=subscription.apply(
                    lambda sub: role_definition_id(sub, GRAFANA_ADMIN_ROLE)
                ),
                scope=grafana.id,
                description="Cluster admins administer its Grafana (gpu-platform)",
                opts=assignment,
            )
        self.endpoint = grafana.properties.apply(lambda p: p.endpoint or "")
        self.grafana_id = grafana.id
        self.register_outputs({"endpoint": self.endpoint, "grafanaId": self.grafana_id})


def _problems(args: AksGrafanaArgs) -> list[Problem]:
    problems: list[Problem] = []
    if not re.match(GRAFANA_NAME_PATTERN, args["name"]):
        problems.append(
            (
                "name",
                "2 to 23 letters, digits and hyphens, starting with a letter, ending with a "
                f"letter or digit, not {args['name']!r}",
            )
        )
    groups = args.get("admin_group_object_ids") or []
    problems += under("adminGroupObjectIds", entra_object_id_problems(groups))
    problems += under("tags", azure_tag_problems(args.get("tags") or {}))
    return problems
