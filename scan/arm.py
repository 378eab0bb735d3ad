"""azure-native resources of a plan as one ARM template, the shape checkov's ARM checks read.

Each resource becomes ``{type, apiVersion, name, <top-level keys>, properties}``: the ARM
type and its name from the inputs that form the resource's URL, the API version the SDK
module calls, and the rest of the inputs (Pulumi flattens ARM's ``properties``) back under
``properties``. Agent pools stay resources of their own
(``Microsoft.ContainerService/managedClusters/agentPools``), as checkov's agent-pool checks
expect; the cluster's ``agentPoolProfiles`` (its system pool) stay inline.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .plan import PlanResource, known_text, plain

SCHEMA = "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#"
CONTENT_VERSION = "1.0.0.0"
_TOP_KEYS = ("location", "tags", "sku", "identity", "kind", "extendedLocation", "zones")
"""Keys ARM holds beside ``properties`` on most resources."""


@dataclass(frozen=True)
class ArmType:
    type: str
    """The ARM resource type."""
    name_keys: tuple[str, ...]
    """Inputs that name the resource, parent first (``cluster/pool`` for a child)."""
    top_keys: tuple[str, ...] = _TOP_KEYS
    scope_key: str | None = None
    """For an extension resource (role assignment, diagnostic setting): the input holding
    the resource it applies to, ARM's ``scope``."""


_CLUSTER = "Microsoft.ContainerService/managedClusters"
# Pulumi type token -> ARM type, from each resource's REST API (the SDK module's docstring
# links it). A plan with an azure-native type missing here fails the scan: add its row.
ARM_TYPES: dict[str, ArmType] = {
    "azure-native:containerservice:ManagedCluster": ArmType(_CLUSTER, ("resourceName",)),
    "azure-native:containerservice:AgentPool": ArmType(
        f"{_CLUSTER}/agentPools", ("resourceName", "agentPoolName"), top_keys=()
    ),
    "azure-native:containerservice:MaintenanceConfiguration": ArmType(
        f"{_CLUSTER}/maintenanceConfigurations", ("resourceName", "configName"), top_keys=()
    ),
    "azure-native:resources:ResourceGroup": ArmType(
        "Microsoft.Resources/resourceGroups", ("resourceGroupName",), ("location", "tags")
    ),
    "azure-native:authorization:RoleAssignment": ArmType(
        "Microsoft.Authorization/roleAssignments",
        ("roleAssignmentName",),
        top_keys=(),
        scope_key="scope",
    ),
    "azure-native:monitor:AzureMonitorWorkspace": ArmType(
        "Microsoft.Monitor/accounts", ("azureMonitorWorkspaceName",)
    ),
    # A Log Analytics workspace keeps its sku under properties.
    "azure-native:operationalinsights:Workspace": ArmType(
        "Microsoft.OperationalInsights/workspaces",
        ("workspaceName",),
        ("location", "tags", "identity"),
    ),
    "azure-native:alertsmanagement:PrometheusRuleGroup": ArmType(
        "Microsoft.AlertsManagement/prometheusRuleGroups", ("ruleGroupName",)
    ),
    "azure-native:monitor:DataCollectionEndpoint": ArmType(
        "Microsoft.Insights/dataCollectionEndpoints", ("dataCollectionEndpointName",)
    ),
    "azure-native:monitor:DataCollectionRule": ArmType(
        "Microsoft.Insights/dataCollectionRules", ("dataCollectionRuleName",)
    ),
    "azure-native:monitor:DataCollectionRuleAssociation": ArmType(
        "Microsoft.Insights/dataCollectionRuleAssociations",
        ("associationName",),
        top_keys=(),
        scope_key="resourceUri",
    ),
    "azure-native:monitor:DiagnosticSetting": ArmType(
        "Microsoft.Insights/diagnosticSettings", ("name",), top_keys=(), scope_key="resourceUri"
    ),
    "azure-native:dashboard:Grafana": ArmType(
        "Microsoft.Dashboard/grafana", ("workspaceName",), ("location", "tags", "sku", "identity")
    ),
    # Defender plans: pricings at a scope (the subscription, or a resource).
    "azure-native:security:Pricing": ArmType(
        "Microsoft.Security/pricings", ("pricingName",), top_keys=(), scope_key="scopeId"
    ),
}

_PATH_KEYS = frozenset({"resourceGroupName", "subscriptionId"})
"""URL parameters that are not part of the resource's body."""


class ArmExportError(ValueError):
    """A resource the exporter cannot turn into ARM (no mapping, no API version)."""


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@cache
def sdk_api_version(token: str) -> str:
    """The Azure REST API version the installed SDK's module for ``token`` calls.

    Read from the module's source (``Uses Azure REST API version 2025-09-01.``) without
    importing it: the SDK states it only there.
    """
    _, module, type_name = token.split(":")
    spec = importlib.util.find_spec("pulumi_azure_native")
    if spec is None or spec.origin is None:
        raise ArmExportError("pulumi_azure_native is not installed: run make venv")
    source = Path(spec.origin).parent / module / f"{_snake(type_name)}.py"
    text = source.read_text() if source.exists() else ""
    found = re.search(r"Uses Azure REST API version ([\w.-]+?)\.", text)
    if found is None:
        raise ArmExportError(f"{token}: the SDK states no API version in {source}")
    return found.group(1)


def arm_resource(
    resource: PlanResource, api_version: Callable[[str], str] = sdk_api_version
) -> dict[str, Any]:
    """One azure-native resource as an ARM template resource."""
    arm = ARM_TYPES.get(resource.type)
    if arm is None:
        raise ArmExportError(f"{resource.type} ({resource.name}) has no row in ARM_TYPES")
    inputs = plain(resource.inputs)
    names = [known_text(inputs.get(k)) for k in arm.name_keys]
    # An auto-named resource (no name input): its Pulumi name stands in.
    name = "/".join(n or resource.name for n in names)
    body: dict[str, Any] = {"type": arm.type, "apiVersion": api_version(resource.type)}
    body["name"] = name
    if arm.scope_key and arm.scope_key in inputs:
        body["scope"] = inputs[arm.scope_key]
    skip = _PATH_KEYS | set(arm.name_keys) | {arm.scope_key}
    # Some SDK types keep ARM's own ``properties`` nesting (dashboard:Grafana): keep it.
    properties = dict(inputs.get("properties") or {})
    for key in sorted(inputs):
        if key in skip or key == "properties":
            continue
        if key in arm.top_keys:
            body[key] = inputs[key]
        else:
            properties[key] = inputs[key]
    body["properties"] = properties
    return body


def template(resources: list[dict[str, Any]]) -> dict[str, Any]:
    return {"$schema": SCHEMA, "contentVersion": CONTENT_VERSION, "resources": resources}
