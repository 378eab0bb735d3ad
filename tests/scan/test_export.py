"""The exporter on small recorded plans: exact manifests, ARM resources and what is not scanned."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from scan.arm import ARM_TYPES, ArmExportError, sdk_api_version
from scan.export import ARM_FILE, MANIFESTS_FILE, NOT_SCANNED, export_plan
from scan.manifests import NotScanned
from scan.plan import SECRET_TEXT, UNKNOWN_TEXT, PlanResource


def _api(token: str) -> str:
    return {"azure-native:containerservice:ManagedCluster": "2025-09-01"}.get(token, "2024-01-01")


NAMESPACE = PlanResource(
    "kubernetes:core/v1:Namespace",
    "prod-ns",
    {
        "metadata": {"name": "gpu-training", "labels": {"b": "1", "a": "2"}},
        "kind": "Namespace",
        "apiVersion": "v1",
    },
)
DNS_EGRESS = PlanResource(
    "kubernetes:networking.k8s.io/v1:NetworkPolicy",
    "prod-dns",
    {
        "spec": {
            "policyTypes": ["Egress"],
            "egress": [{"ports": [{"protocol": "UDP", "port": 53.0}]}],
            "podSelector": {},
        },
        "metadata": {"namespace": "gpu-training", "name": "allow-dns-egress"},
    },
)


def test_kubernetes_objects_become_one_yaml_stream_as_the_provider_sends_them() -> None:
    export = export_plan([NAMESPACE, DNS_EGRESS], _api)

    # apiVersion and kind come from the type token when the inputs leave them out; whole
    # numbers are integers again (the engine carries floats); keys sorted below the first three.
    assert export.files()[MANIFESTS_FILE] == (
        "apiVersion: v1\n"
        "kind: Namespace\n"
        "metadata:\n"
        "  labels:\n"
        "    a: '2'\n"
        "    b: '1'\n"
        "  name: gpu-training\n"
        "---\n"
        "apiVersion: networking.k8s.io/v1\n"
        "kind: NetworkPolicy\n"
        "metadata:\n"
        "  name: allow-dns-egress\n"
        "  namespace: gpu-training\n"
        "spec:\n"
        "  egress:\n"
        "  - ports:\n"
        "    - port: 53\n"
        "      protocol: UDP\n"
        "  podSelector: {}\n"
        "  policyTypes:\n"
        "  - Egress\n"
    )
    assert ARM_FILE not in export.files()
    assert export.not_scanned == []


def test_an_auto_named_object_takes_its_pulumi_name_and_secrets_stay_masked() -> None:
    secret = PlanResource(
        "kubernetes:core/v1:Secret",
        "pull-secret",
        {"metadata": {"name": "[unknown]", "namespace": "apps"}, "data": "[secret]"},
    )

    (obj,) = export_plan([secret], _api).manifests

    assert obj == {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "pull-secret", "namespace": "apps"},
        "data": "[secret]",
    }


def test_helm_releases_patches_remote_components_and_other_clouds_are_not_scanned() -> None:
    plan = [
        PlanResource(
            "kubernetes:helm.sh/v3:Release",
            "prod-device-plugin-release",
            {
                # A version charts/ does not vendor: nothing to render it from.
                "chart": "nvidia-device-plugin",
                "version": "0.17.0",
                "namespace": "nvidia-device-plugin",
                "values": {},
            },
        ),
        PlanResource(
            "kubernetes:helm.sh/v4:Chart",
            "dcgm",
            {"chart": "dcgm-exporter", "namespace": "m"},
            custom=False,
            remote=True,
        ),
        PlanResource(
            "kubernetes:core/v1:NamespacePatch", "label-ns", {"metadata": {"name": "kube-system"}}
        ),
        PlanResource(
            "kubernetes:yaml/v2:ConfigGroup",
            "crds",
            {"files": ["crds.yaml"]},
            custom=False,
            remote=True,
        ),
        PlanResource(
            "alicloud:cs/nodePool:NodePool", "gpu", {"instanceTypes": ["ecs.gn7i-c8g1.2xlarge"]}
        ),
        PlanResource("azure-native:network:VirtualNetwork", "vnet", {"resourceGroupName": "rg"}),
        # Components and providers hold no objects of their own: left out, not reported.
        PlanResource(
            "gpu-platform:index:NvidiaDevicePlugin", "prod-device-plugin", {}, custom=False
        ),
        PlanResource("pulumi:providers:kubernetes", "k8s", {"kubeconfig": "[secret]"}),
    ]

    export = export_plan(plan, _api)

    assert export.manifests == [] and export.arm_resources == []
    assert export.not_scanned == [
        NotScanned(
            "kubernetes:helm.sh/v3:Release",
            "prod-device-plugin-release",
            "Helm chart nvidia-device-plugin 0.17.0 in namespace nvidia-device-plugin: its objects "
            "are rendered by Helm at deploy time and the repository vendors no copy of the chart "
            "(charts/) to render them",
        ),
        NotScanned(
            "kubernetes:helm.sh/v4:Chart",
            "dcgm",
            "Helm chart dcgm-exporter (unpinned) in namespace m: its objects are rendered by Helm "
            "at deploy time and the repository vendors no copy of the chart (charts/) to render "
            "them",
        ),
        NotScanned(
            "kubernetes:core/v1:NamespacePatch",
            "label-ns",
            "a server-side apply patch: the scan does not see the whole object",
        ),
        NotScanned(
            "kubernetes:yaml/v2:ConfigGroup",
            "crds",
            "a remote component: its plugin builds its objects at deploy time",
        ),
        NotScanned(
            "alicloud:cs/nodePool:NodePool",
            "gpu",
            "no exporter for the alicloud provider (the scan reads ARM, Kubernetes)",
        ),
        NotScanned(
            "azure-native:network:VirtualNetwork",
            "vnet",
            "no ARM mapping: add the type to scan/arm.py ARM_TYPES",
        ),
    ]
    # Each is a failure of its own, accepted only with a reason in the baseline.
    assert [(f.check, f.resource) for f in export.coverage_findings()][:2] == [
        (NOT_SCANNED, "kubernetes:helm.sh/v3:Release.prod-device-plugin-release"),
        (NOT_SCANNED, "kubernetes:helm.sh/v4:Chart.dcgm"),
    ]


CLUSTER = PlanResource(
    "azure-native:containerservice:ManagedCluster",
    "prod-aks-aks",
    {
        "resourceGroupName": "rg-gpu-prod",
        "resourceName": "gpu-prod",
        "location": "westeurope",
        "tags": {"environment": "prod"},
        "sku": {"tier": "Standard", "name": "Base"},
        "identity": {"type": "SystemAssigned"},
        "apiServerAccessProfile": {"enablePrivateCluster": True},
        "agentPoolProfiles": [
            {"name": "system", "mode": "System", "count": 3.0, "vmSize": "Standard_D4ds_v5"}
        ],
        "addonProfiles": {
            "omsagent": {"enabled": True, "config": {"logAnalyticsWorkspaceResourceID": "logs-id"}}
        },
    },
)


def test_a_managed_cluster_keeps_arms_top_level_keys_and_the_rest_under_properties() -> None:
    (resource,) = export_plan([CLUSTER], _api).arm_resources

    assert resource == {
        "type": "Microsoft.ContainerService/managedClusters",
        "apiVersion": "2025-09-01",
        "name": "gpu-prod",
        "location": "westeurope",
        "tags": {"environment": "prod"},
        "sku": {"tier": "Standard", "name": "Base"},
        "identity": {"type": "SystemAssigned"},
        "properties": {
            "addonProfiles": {
                "omsagent": {
                    "enabled": True,
                    "config": {"logAnalyticsWorkspaceResourceID": "logs-id"},
                }
            },
            # The system pool stays inline: checkov's cluster checks read agentPoolProfiles[0].
            "agentPoolProfiles": [
                {"name": "system", "mode": "System", "count": 3, "vmSize": "Standard_D4ds_v5"}
            ],
            "apiServerAccessProfile": {"enablePrivateCluster": True},
        },
    }


def test_child_and_extension_resources_are_named_and_scoped_as_arm_does() -> None:
    plan = [
        PlanResource(
            "azure-native:containerservice:AgentPool",
            "prod-gpu-t4-pool",
            {
                "resourceGroupName": "rg",
                "resourceName": "gpu-prod",
                "agentPoolName": "t4",
                "vmSize": "Standard_NC4as_T4_v3",
                "tags": {
                    "k8s.io_cluster-autoscaler_node-template_resources_nvidia.com_gpu.shared": "4"
                },
                "count": 0.0,
            },
        ),
        PlanResource(
            "azure-native:monitor:DiagnosticSetting",
            "prod-monitoring-audit",
            {
                "name": "audit",
                "resourceUri": "aks-id",
                "workspaceId": "logs-id",
                "logs": [{"category": "guard", "enabled": True}],
            },
        ),
        # Auto-named (no roleAssignmentName): the Pulumi name stands in.
        PlanResource(
            "azure-native:authorization:RoleAssignment",
            "deployer",
            {"scope": "aks-id", "principalId": "p", "roleDefinitionId": "r"},
        ),
        # A Log Analytics workspace keeps its sku under properties.
        PlanResource(
            "azure-native:operationalinsights:Workspace",
            "logs",
            {
                "resourceGroupName": "rg",
                "workspaceName": "[unknown]",
                "location": "westeurope",
                "sku": {"name": "PerGB2018"},
            },
        ),
    ]

    assert export_plan(plan, _api).arm_resources == [
        {
            # An agent pool is a resource of its own, its tags among its properties.
            "type": "Microsoft.ContainerService/managedClusters/agentPools",
            "apiVersion": "2024-01-01",
            "name": "gpu-prod/t4",
            "properties": {
                "count": 0,
                "tags": {
                    "k8s.io_cluster-autoscaler_node-template_resources_nvidia.com_gpu.shared": "4"
                },
                "vmSize": "Standard_NC4as_T4_v3",
            },
        },
        {
            "type": "Microsoft.Insights/diagnosticSettings",
            "apiVersion": "2024-01-01",
            "name": "audit",
            "scope": "aks-id",
            "properties": {
                "logs": [{"category": "guard", "enabled": True}],
                "workspaceId": "logs-id",
            },
        },
        {
            "type": "Microsoft.Authorization/roleAssignments",
            "apiVersion": "2024-01-01",
            "name": "deployer",
            "scope": "aks-id",
            "properties": {"principalId": "p", "roleDefinitionId": "r"},
        },
        {
            "type": "Microsoft.OperationalInsights/workspaces",
            "apiVersion": "2024-01-01",
            "name": "logs",
            "location": "westeurope",
            "properties": {"sku": {"name": "PerGB2018"}},
        },
    ]


def test_the_arm_file_is_a_deployment_template_and_the_export_replaces_earlier_files(
    tmp_path,
) -> None:
    (tmp_path / MANIFESTS_FILE).write_text("stale")

    written = export_plan([CLUSTER], _api).write(tmp_path)

    assert sorted(written) == ["arm"]
    assert written["arm"].objects == 1 and written["arm"].checked_kinds
    assert not (tmp_path / MANIFESTS_FILE).exists()
    template = json.loads((tmp_path / ARM_FILE).read_text())
    assert template["$schema"].endswith("/deploymentTemplate.json#")
    assert template["contentVersion"] == "1.0.0.0"
    assert [r["name"] for r in template["resources"]] == ["gpu-prod"]


def test_namespaces_alone_are_objects_checkov_need_not_report_on(tmp_path) -> None:
    written = export_plan([NAMESPACE], _api).write(tmp_path)

    assert written["kubernetes"].objects == 1
    assert not written["kubernetes"].checked_kinds
    (doc,) = yaml.safe_load_all((tmp_path / MANIFESTS_FILE).read_text())
    assert doc["kind"] == "Namespace"


@pytest.mark.parametrize("token", sorted(ARM_TYPES))
def test_the_sdk_names_the_api_version_of_every_mapped_type(token: str) -> None:
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}(-preview)?", sdk_api_version(token))


def test_a_type_the_sdk_does_not_have_has_no_api_version() -> None:
    with pytest.raises(ArmExportError, match="states no API version"):
        sdk_api_version("azure-native:containerservice:NoSuchThing")


def test_secrets_and_unknowns_read_as_the_preview_writes_them() -> None:
    from gpu_platform.offline_preview import render

    assert (SECRET_TEXT, UNKNOWN_TEXT) == (render.SECRET_TEXT, render.UNKNOWN_TEXT)


def test_a_type_that_keeps_arms_properties_nesting_is_not_nested_twice() -> None:
    grafana = PlanResource(
        "azure-native:dashboard:Grafana",
        "prod-grafana",
        {
            "resourceGroupName": "rg",
            "workspaceName": "gpu-prod-grafana",
            "location": "westeurope",
            "sku": {"name": "Standard"},
            "identity": {"type": "SystemAssigned"},
            "properties": {"apiKey": "Disabled", "zoneRedundancy": "Disabled"},
        },
    )
    (resource,) = export_plan([grafana], _api).arm_resources

    assert resource == {
        "type": "Microsoft.Dashboard/grafana",
        "apiVersion": "2024-01-01",
        "name": "gpu-prod-grafana",
        "location": "westeurope",
        "sku": {"name": "Standard"},
        "identity": {"type": "SystemAssigned"},
        "properties": {"apiKey": "Disabled", "zoneRedundancy": "Disabled"},
    }


def test_a_release_of_a_vendored_chart_is_rendered_with_its_values_and_scanned() -> None:
    release = PlanResource(
        "kubernetes:helm.sh/v3:Release",
        "prod-device-plugin-release",
        {
            "chart": "nvidia-device-plugin",
            "version": "0.20.0",
            "name": "nvidia-device-plugin",
            "namespace": "nvidia-device-plugin",
            "values": {"gfd": {"enabled": True}, "resources": {"requests": {"cpu": "50m"}}},
        },
    )

    export = export_plan([release], _api)

    assert export.not_scanned == []
    workloads = {
        (obj["kind"], obj["metadata"]["name"]): obj
        for obj in export.manifests
        if obj["kind"] in {"DaemonSet", "Deployment", "Job"}
    }
    assert sorted(workloads) == [
        ("DaemonSet", "nvidia-device-plugin"),
        ("DaemonSet", "nvidia-device-plugin-gpu-feature-discovery"),
        ("DaemonSet", "nvidia-device-plugin-mps-control-daemon"),
        ("DaemonSet", "nvidia-device-plugin-node-feature-discovery-worker"),
        ("Deployment", "nvidia-device-plugin-node-feature-discovery-gc"),
        ("Deployment", "nvidia-device-plugin-node-feature-discovery-master"),
        ("Job", "nvidia-device-plugin-node-feature-discovery-prune"),
    ]
    plugin = workloads[("DaemonSet", "nvidia-device-plugin")]
    assert plugin["metadata"]["namespace"] == "nvidia-device-plugin"
    (ctr,) = [
        c
        for c in plugin["spec"]["template"]["spec"]["containers"]
        if c["name"] == "nvidia-device-plugin-ctr"
    ]
    assert ctr["resources"] == {"requests": {"cpu": "50m"}}  # the release's own values
    assert list(plugin)[:3] == ["apiVersion", "kind", "metadata"]  # ordered like the rest
