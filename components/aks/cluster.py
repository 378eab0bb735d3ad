"""AksCluster: a hardened AKS control plane with a system pool, and a provider to reach it.

GPU pools are separate ``AgentPool`` resources (``aks.gpu_node_pool``); this component holds
only what every AKS cluster needs: identity, Entra ID, network policy, upgrade channels
(BP-06), maintenance windows and API server exposure.

Its args (``AksClusterArgs``) follow the stack config's ``cluster`` section field for field, and
are validated by the same model (``AksClusterSettings``). No ``from __future__ import
annotations``: the component analyzer reads the args at run time.
"""

import base64
from typing import NotRequired, TypedDict, cast

import pulumi
import pulumi_kubernetes as k8s
import yaml
from pulumi_azure_native import authorization, resources
from pulumi_azure_native import containerservice as aks
from pydantic import ValidationError

from gpu_facts.aks.monitor import MIN_RETENTION_DAYS, MONITORING_ADDON
from gpu_facts.aks.nodes import AZURE_POLICY_ADDON
from gpu_facts.nvidia.device_plugin_chart import CRITICAL_ADDONS_TAINT_KEY
from gpu_platform.plan.aks.cluster import aks_cluster_problems, aks_cluster_value_problems
from gpu_platform.plan.kubernetes_versions import kubernetes_version_problem
from gpu_platform.plan.observability import retention_days_problems
from gpu_platform.plan.problems import under
from gpu_platform.settings import SYSTEM_POOL_NAME, AksClusterSettings, MaintenanceWindowSettings

from ..errors import Problem, raise_if_any, validation_problems, value_type_problems
from ..node_hardening import aks_node_inputs
from ..recorded_inputs import recorded_inputs
from ..type_tokens import formerly, type_token
from .azure_aliases import without_version_aliases
from .monitoring import AksMonitoringWorkspaces

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""YAML's safe loader, in C where libyaml is installed (the same documents, read faster)."""
SAFE_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

SYSTEM_POOL_TAINT = f"{CRITICAL_ADDONS_TAINT_KEY}=true:NoSchedule"
"""Keeps workloads off the system pool; AKS add-ons tolerate it."""
AUTO_UPGRADE_SCHEDULE = "aksManagedAutoUpgradeSchedule"
"""Maintenance configuration name AKS reads for the cluster auto-upgrade channel."""
NODE_OS_UPGRADE_SCHEDULE = "aksManagedNodeOSUpgradeSchedule"
"""Maintenance configuration name AKS reads for the node OS upgrade channel."""
AKS_RBAC_CLUSTER_ADMIN_ROLE = "b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b"
"""Built-in role "Azure Kubernetes Service RBAC Cluster Admin" (every action on every object of
the cluster), the same GUID in every tenant. Source: Microsoft Learn, Azure built-in roles for
Containers (learn.microsoft.com/azure/role-based-access-control/built-in-roles/containers)."""


class AksResourceGroupArgs(TypedDict):
    """Resource group of an AKS cluster."""

    name: str
    """Resource group name."""
    create: NotRequired[bool]
    """Create it (default), or use an existing one."""


class AksSystemPoolArgs(TypedDict):
    """The system pool that keeps the add-ons, tainted ``CriticalAddonsOnly``."""

    vm_size: NotRequired[str]
    """VM size without GPUs (default ``Standard_D4ds_v5``)."""
    count: NotRequired[int]
    """Nodes (default 3)."""
    max_pods: NotRequired[int]
    """Most pods per node, 30 to 250 (default 110)."""
    os_disk_type: NotRequired[str]
    """``Ephemeral`` or ``Managed``; unset: ``Ephemeral`` when the VM size's cache or temp disk
    holds the OS disk, else ``Managed``."""
    os_disk_size_gb: NotRequired[int]
    """OS disk size in GiB, 30 to 2048 (default 128)."""


class AksEntraIdArgs(TypedDict):
    """Microsoft Entra ID integration of an AKS cluster."""

    enabled: NotRequired[bool]
    """Entra ID authentication (default true)."""
    azure_rbac: NotRequired[bool]
    """Azure RBAC for Kubernetes authorization (default true)."""
    admin_group_object_ids: NotRequired[list[str]]
    """Entra groups with cluster-admin."""
    grant_deployer_access: NotRequired[bool]
    """With Azure RBAC: assign the identity running Pulumi "Azure Kubernetes Service RBAC
    Cluster Admin" on the cluster, so the same ``pulumi up`` can deploy into it (default
    true)."""
    deployer_principal_type: NotRequired[str]
    """Entra object type of the identity running Pulumi: ``User`` or ``ServicePrincipal`` (a
    managed identity is one). Unset: ``User`` with ``kubeloginMode: azurecli``, else
    ``ServicePrincipal``."""


class AksApiServerArgs(TypedDict):
    """API server exposure of an AKS cluster."""

    private: NotRequired[bool]
    """Private API server, no public endpoint (default false)."""
    authorized_ip_ranges: NotRequired[list[str]]
    """CIDRs allowed to reach a public API server."""


class AksMaintenanceWindowArgs(TypedDict):
    """Weekly planned maintenance window for upgrades."""

    day: str
    """Day of the week, ``Monday`` to ``Sunday``."""
    start_hour: int
    """Start hour, UTC (0 to 23)."""
    duration_hours: NotRequired[int]
    """Length of the window, 4 to 24 hours (default 4)."""


class AksClusterMonitoringArgs(TypedDict):
    """The cluster's own observability workspaces and collectors."""

    prometheus: NotRequired[bool]
    """An Azure Monitor workspace and the cluster's managed-Prometheus collector (default
    false)."""
    ksm_metric_labels_allowlist: NotRequired[str]
    """kube-state-metrics labels to expose, e.g. ``namespaces=[workload],nodes=[...]``."""
    logs: NotRequired[bool]
    """A Log Analytics workspace and the monitoring add-on (Container insights, Entra ID
    authentication) (default false)."""
    retention_days: NotRequired[int]
    """Log retention, 30 to 730 days (default 30)."""


class AksClusterArgs(TypedDict):
    """A hardened AKS cluster: control plane, system pool, identity and upgrades."""

    name: str
    """AKS cluster name."""
    location: str
    """Azure region."""
    resource_group: AksResourceGroupArgs
    """Resource group of the cluster."""
    kubernetes_version: NotRequired[str]
    """Kubernetes version, ``1.35`` or ``1.35.6``, one AKS supports for new clusters
    (docs/validation.md); unset: the AKS default."""
    sku_tier: NotRequired[str]
    """Control-plane tier: ``Free``, ``Standard`` (default, with the uptime SLA) or
    ``Premium``."""
    system_pool: NotRequired[AksSystemPoolArgs]
    """The system pool; tainted CriticalAddonsOnly so workloads stay off it."""
    upgrade_channel: NotRequired[str]
    """Cluster auto-upgrade channel: ``rapid``, ``stable``, ``patch`` (default),
    ``node-image`` or ``none``."""
    node_os_upgrade_channel: NotRequired[str]
    """Node OS upgrade channel: ``NodeImage`` (default; keeps GPU nodes on the newest image,
    BP-06), ``SecurityPatch``, ``Unmanaged`` or ``None``."""
    network_policy: NotRequired[str]
    """Network policy engine: ``cilium`` (default), ``azure`` or ``calico``."""
    entra_id: NotRequired[AksEntraIdArgs]
    """Entra ID integration (on by default)."""
    kubelogin_mode: NotRequired[str]
    """With Entra ID, how ``kubelogin`` in the exec kubeconfig logs in, never interactively:
    ``azurecli`` (default), ``workloadidentity`` or ``spn``."""
    disable_local_accounts: NotRequired[bool]
    """Disable local (certificate) accounts; needs Entra ID (default false)."""
    api_server: NotRequired[AksApiServerArgs]
    """API server exposure."""
    maintenance_window: NotRequired[AksMaintenanceWindowArgs]
    """Planned maintenance window for upgrades."""
    encryption_at_host: NotRequired[bool]
    """Encrypt the system pool's temp disk and disk caches on the VM host (default false); the
    subscription must register ``Microsoft.Compute/EncryptionAtHost``. Give GPU and CPU pools
    the same."""
    azure_policy: NotRequired[bool]
    """The Azure Policy add-on (default false)."""
    defender: NotRequired[bool]
    """Microsoft Defender for Containers' sensor, reporting to the cluster's Log Analytics
    workspace (created for it when ``monitoring.logs`` is off); default false."""
    protect: NotRequired[bool]
    """Protect the resource group and cluster from deletion (production); default false."""
    tags: NotRequired[dict[str, str]]
    """Azure tags."""
    monitoring: NotRequired[AksClusterMonitoringArgs]
    """Where the cluster's metrics and logs go: the workspaces are created with the cluster,
    its managed-Prometheus collector and monitoring add-on point at them."""


def aks_cluster_args(settings: AksClusterSettings) -> AksClusterArgs:
    """A stack's validated cluster settings as component args (what the platform passes on)."""
    data = settings.model_dump(exclude_none=True)
    data["system_pool"].pop("instance_type", None)  # the ACK system pool's, not AKS's
    if not settings.entra_id.enabled:
        data.pop("kubelogin_mode", None)  # it means nothing without Entra ID
    return cast(AksClusterArgs, data)


def cluster_problems(settings: AksClusterSettings) -> list[Problem]:
    """What AKS refuses, or what would lock everyone out, in settings that fit the schema
    (``plan.aks.cluster`` and the Kubernetes versions AKS offers, ``plan.kubernetes_versions``:
    the stack config's rules say the same under ``cluster``)."""
    problems = [*aks_cluster_value_problems(settings)]
    version = settings.kubernetes_version
    if version is not None and (version_problem := kubernetes_version_problem("aks", version)):
        problems.append(("kubernetesVersion", version_problem))
    return [*problems, *aks_cluster_problems(settings)]


def validate_aks_cluster_args(name: str, args: AksClusterArgs) -> AksClusterSettings:
    """The args as validated settings, or one ``InputPropertiesError`` naming every bad
    property."""
    try:
        settings = AksClusterSettings.model_validate(args)
    except ValidationError as err:
        raise_if_any("AksCluster", name, validation_problems(err))
        raise  # unreachable: a ValidationError always has errors
    raise_if_any("AksCluster", name, cluster_problems(settings))
    return settings


def azure_monitor_profile(
    monitoring: AksClusterMonitoringArgs,
) -> aks.ManagedClusterAzureMonitorProfileArgs | None:
    """The managed-Prometheus collector, with the kube-state-metrics labels the GPU rules join
    on (``gpu_facts.aks.monitor``)."""
    if not monitoring.get("prometheus"):
        return None
    allowlist = monitoring.get("ksm_metric_labels_allowlist")
    return aks.ManagedClusterAzureMonitorProfileArgs(
        metrics=aks.ManagedClusterAzureMonitorProfileMetricsArgs(
            enabled=True,
            kube_state_metrics=aks.ManagedClusterAzureMonitorProfileKubeStateMetricsArgs(
                metric_labels_allowlist=allowlist
            )
            if allowlist
            else None,
        )
    )


def addon_profiles(
    monitoring: AksClusterMonitoringArgs,
    workspace_id: pulumi.Input[str],
    *,
    azure_policy: bool = False,
) -> dict[str, aks.ManagedClusterAddonProfileArgs] | None:
    """The monitoring add-on (Container insights agent) sending to the Log Analytics workspace
    with Entra ID (managed identity) authentication, not the workspace key; and the Azure
    Policy add-on. None when neither is on."""
    addons: dict[str, aks.ManagedClusterAddonProfileArgs] = {}
    if monitoring.get("logs"):
        addons[MONITORING_ADDON] = aks.ManagedClusterAddonProfileArgs(
            enabled=True,
            config={"logAnalyticsWorkspaceResourceID": workspace_id, "useAADAuth": "true"},
        )
    if azure_policy:
        addons[AZURE_POLICY_ADDON] = aks.ManagedClusterAddonProfileArgs(enabled=True)
    return addons or None


def security_profile(
    settings: AksClusterSettings, workspace_id: pulumi.Input[str]
) -> aks.ManagedClusterSecurityProfileArgs:
    """Workload identity, and with ``defender`` Defender for Containers' sensor reporting to
    the Log Analytics workspace."""
    defender = None
    if settings.defender:
        defender = aks.ManagedClusterSecurityProfileDefenderArgs(
            log_analytics_workspace_resource_id=workspace_id,
            security_monitoring=aks.ManagedClusterSecurityProfileDefenderSecurityMonitoringArgs(
                enabled=True
            ),
        )
    return aks.ManagedClusterSecurityProfileArgs(
        workload_identity=aks.ManagedClusterSecurityProfileWorkloadIdentityArgs(enabled=True),
        defender=defender,
    )


def deployer_principal_type(settings: AksClusterSettings) -> str:
    """Entra object type of the identity running Pulumi: configured, or derived from how
    kubelogin logs in (the same identity): the Azure CLI is usually a person, the other modes
    are a service principal or managed identity."""
    configured = settings.entra_id.deployer_principal_type
    if configured is not None:
        return configured
    return "User" if settings.kubelogin_mode == "azurecli" else "ServicePrincipal"


def grants_deployer_access(settings: AksClusterSettings) -> bool:
    """Whether the stack assigns the deploying identity cluster admin: only Azure RBAC needs it
    (without it, Kubernetes RBAC and the Entra admin groups decide)."""
    entra = settings.entra_id
    return entra.enabled and entra.azure_rbac and entra.grant_deployer_access


def network_profile(settings: AksClusterSettings) -> aks.ContainerServiceNetworkProfileArgs:
    """Azure CNI overlay with a policy engine: without one, NetworkPolicies are ignored."""
    # Cilium enforces policy in its own dataplane; Azure NPM and Calico run on the Azure one.
    dataplane = "cilium" if settings.network_policy == "cilium" else "azure"
    return aks.ContainerServiceNetworkProfileArgs(
        network_plugin="azure",
        network_plugin_mode="overlay",
        network_policy=settings.network_policy,
        network_dataplane=dataplane,
        load_balancer_sku="standard",
    )


def _maintenance_window(window: MaintenanceWindowSettings) -> aks.MaintenanceWindowArgs:
    return aks.MaintenanceWindowArgs(
        schedule=aks.ScheduleArgs(
            weekly=aks.WeeklyScheduleArgs(day_of_week=window.day, interval_weeks=1)
        ),
        start_time=f"{window.start_hour:02d}:00",
        duration_hours=window.duration_hours,
        utc_offset="+00:00",
    )


def _decode_kubeconfig(result: aks.ListManagedClusterUserCredentialsResult) -> str:
    if not result.kubeconfigs:
        raise ValueError("AKS returned no user kubeconfig")
    return base64.b64decode(result.kubeconfigs[0].value).decode()


# Flags of ``kubelogin get-token`` that take a value and that we set or drop: the login mode,
# and the client ID. AKS writes its interactive public client there; the non-interactive modes
# take the identity's client ID from the environment (``AAD_SERVICE_PRINCIPAL_CLIENT_ID`` /
# ``AZURE_CLIENT_ID`` override the flag), so the flag could only ever supply the wrong client.
# ``AAD_LOGIN_METHOD`` likewise overrides ``--login``.
_REWRITTEN_FLAGS = ("--login", "-l", "--client-id")


def kubelogin_args(args: list[str], mode: str) -> list[str]:
    """``kubelogin get-token`` arguments with an explicit ``--login`` (a validated, non-interactive
    ``AksCluster.kubeloginMode``)."""
    if not args or args[0] != "get-token":
        raise ValueError(f"expected kubelogin get-token arguments, got {args!r}")
    kept: list[str] = []
    rest = iter(args)
    for arg in rest:
        flag = arg.split("=", 1)[0]
        if flag in _REWRITTEN_FLAGS:
            if "=" not in arg:
                next(rest, None)  # its value
            continue
        kept.append(arg)
    return [*kept, "--login", mode]


def with_kubelogin_mode(kubeconfig: str, mode: str) -> str:
    """The exec kubeconfig with every kubelogin user logging in by ``mode``.

    AKS hands out ``--login devicecode``, which waits for a person: a ``pulumi up`` in CI would
    hang. Fails when the kubeconfig has no kubelogin user (not the exec format we asked for).
    """
    config = yaml.load(kubeconfig, SAFE_LOADER)
    if not isinstance(config, dict):
        raise ValueError("AKS returned an unreadable kubeconfig")
    rewritten = 0
    for user in config.get("users") or []:
        exec_ = (user.get("user") or {}).get("exec")
        if exec_ and str(exec_.get("command", "")).rsplit("/", 1)[-1] == "kubelogin":
            exec_["args"] = kubelogin_args(list(exec_.get("args") or []), mode)
            rewritten += 1
    if not rewritten:
        raise ValueError("AKS returned no kubelogin (exec) user in the Entra ID kubeconfig")
    return yaml.dump(config, Dumper=SAFE_DUMPER, sort_keys=False)


class AksCluster(pulumi.ComponentResource):
    """Resource group, managed cluster, maintenance windows and a Kubernetes provider."""

    cluster_name: pulumi.Output[str]
    """Name of the AKS cluster."""
    resource_group_name: pulumi.Output[str]
    """Resource group that holds the cluster."""
    oidc_issuer_url: pulumi.Output[str]
    """OIDC issuer URL for workload identity federation."""
    kubeconfig: pulumi.Output[str]
    """User kubeconfig of the cluster (secret)."""
    cluster: aks.ManagedCluster
    """The managed cluster resource (GPU pools attach to it)."""
    provider: k8s.Provider
    """Provider for everything deployed into the cluster."""
    deployer_access: authorization.RoleAssignment | None
    """Cluster admin for the identity running Pulumi (Azure RBAC only); the provider waits
    for it."""
    azure_monitor_workspace_id: pulumi.Output[str]
    """The cluster's Azure Monitor workspace (empty without ``monitoring.prometheus``)."""
    log_analytics_workspace_id: pulumi.Output[str]
    """The cluster's Log Analytics workspace (empty without ``monitoring.logs``)."""
    prometheus_query_endpoint: pulumi.Output[str]
    """PromQL endpoint of the Azure Monitor workspace (empty without it)."""

    def __init__(
        self,
        name: str,
        args: AksClusterArgs,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        # Validated before registering anything: bad input changes nothing.
        raise_if_any("AksCluster", name, value_type_problems(args, AksClusterArgs))
        monitoring: AksClusterMonitoringArgs = args.get("monitoring") or {}
        retention = monitoring.get("retention_days")
        if retention is not None:
            problems = under("monitoring.retentionDays", retention_days_problems(retention))
            raise_if_any("AksCluster", name, problems)
        settings = validate_aks_cluster_args(
            name, cast(AksClusterArgs, {k: v for k, v in args.items() if k != "monitoring"})
        )
        super().__init__(
            type_token("AksCluster"),
            name,
            recorded_inputs(args),
            formerly("gpu-platform:azure:AksCluster", without_version_aliases(opts)),
        )
        child = pulumi.ResourceOptions(parent=self)

        rg_name: pulumi.Input[str]
        if settings.resource_group.create:
            group = resources.ResourceGroup(
                f"{name}-rg",
                resource_group_name=settings.resource_group.name,
                location=settings.location,
                tags=settings.tags,
                opts=pulumi.ResourceOptions(parent=self, protect=settings.protect),
            )
            rg_name = group.name
        else:
            rg_name = settings.resource_group.name

        workspaces = None
        # Defender reports to a Log Analytics workspace too: the logs' one, or its own.
        log_workspace = bool(monitoring.get("logs")) or settings.defender
        if monitoring.get("prometheus") or log_workspace:
            workspaces = AksMonitoringWorkspaces(
                f"{name}-monitoring",
                {
                    "resource_group_name": rg_name,
                    "location": settings.location,
                    "metrics": bool(monitoring.get("prometheus")),
                    "logs": log_workspace,
                    "retention_days": monitoring.get("retention_days", MIN_RETENTION_DAYS),
                    "tags": settings.tags,
                },
                child,
            )
        self.azure_monitor_workspace_id = (
            workspaces.azure_monitor_workspace_id if workspaces else pulumi.Output.from_input("")
        )
        self.log_analytics_workspace_id = (
            workspaces.log_analytics_workspace_id if workspaces else pulumi.Output.from_input("")
        )
        self.prometheus_query_endpoint = (
            workspaces.query_endpoint if workspaces else pulumi.Output.from_input("")
        )

        self.cluster = aks.ManagedCluster(
            f"{name}-aks",
            resource_name_=settings.name,
            resource_group_name=rg_name,
            location=settings.location,
            dns_prefix=settings.name,
            kubernetes_version=settings.kubernetes_version,
            sku=aks.ManagedClusterSKUArgs(name="Base", tier=settings.sku_tier),
            identity=aks.ManagedClusterIdentityArgs(type=aks.ResourceIdentityType.SYSTEM_ASSIGNED),
            enable_rbac=True,
            aad_profile=self._aad_profile(settings),
            disable_local_accounts=settings.disable_local_accounts,
            oidc_issuer_profile=aks.ManagedClusterOIDCIssuerProfileArgs(enabled=True),
            security_profile=security_profile(settings, self.log_analytics_workspace_id),
            network_profile=network_profile(settings),
            auto_upgrade_profile=aks.ManagedClusterAutoUpgradeProfileArgs(
                upgrade_channel=settings.upgrade_channel,
                node_os_upgrade_channel=settings.node_os_upgrade_channel,
            ),
            api_server_access_profile=aks.ManagedClusterAPIServerAccessProfileArgs(
                enable_private_cluster=settings.api_server.private,
                authorized_ip_ranges=settings.api_server.authorized_ip_ranges or None,
            ),
            # Only the system pool: the GPU pools are separate AgentPools. No ignore_changes on
            # agentPoolProfiles (a refresh lists the GPU pools here too): docs/aks.md says why.
            agent_pool_profiles=[
                aks.ManagedClusterAgentPoolProfileArgs(
                    name=SYSTEM_POOL_NAME,
                    mode="System",
                    vm_size=settings.system_pool.vm_size,
                    count=settings.system_pool.count,
                    os_type="Linux",
                    os_sku="Ubuntu",
                    type="VirtualMachineScaleSets",
                    **aks_node_inputs(
                        settings.system_pool.vm_size,
                        settings.system_pool,
                        encryption_at_host=settings.encryption_at_host,
                    ),
                    node_taints=[SYSTEM_POOL_TAINT],
                    upgrade_settings=aks.AgentPoolUpgradeSettingsArgs(max_surge="33%"),
                )
            ],
            azure_monitor_profile=azure_monitor_profile(monitoring),
            addon_profiles=addon_profiles(
                monitoring, self.log_analytics_workspace_id, azure_policy=settings.azure_policy
            ),
            tags=settings.tags,
            opts=pulumi.ResourceOptions(parent=self, protect=settings.protect),
        )

        window = settings.maintenance_window
        if window is not None:
            schedules = {
                "autoupgrade": (AUTO_UPGRADE_SCHEDULE, settings.upgrade_channel != "none"),
                "nodeos": (
                    NODE_OS_UPGRADE_SCHEDULE,
                    settings.node_os_upgrade_channel not in ("None", "Unmanaged"),
                ),
            }
            for suffix, (config_name, channel_on) in schedules.items():
                if not channel_on:
                    continue  # a schedule for a channel that is off would never apply
                aks.MaintenanceConfiguration(
                    f"{name}-maintenance-{suffix}",
                    resource_group_name=rg_name,
                    resource_name_=self.cluster.name,
                    config_name=config_name,
                    maintenance_window=_maintenance_window(window),
                    opts=child,
                )

        # Entra ID clusters hand out an exec (kubelogin) kubeconfig: no static credential.
        credentials = aks.list_managed_cluster_user_credentials_output(
            resource_group_name=rg_name,
            resource_name=self.cluster.name,
            format="exec" if settings.entra_id.enabled else None,
            opts=pulumi.InvokeOptions(parent=self),
        )
        kubeconfig = credentials.apply(_decode_kubeconfig)
        if settings.entra_id.enabled:
            mode = settings.kubelogin_mode
            kubeconfig = kubeconfig.apply(lambda text: with_kubelogin_mode(text, mode))
        self.kubeconfig = pulumi.Output.secret(kubeconfig)

        # Under Azure RBAC every Kubernetes API call is authorized by an Azure role assignment
        # on the cluster; subscription Owner is not one (learn.microsoft.com/azure/aks/
        # manage-azure-rbac). Without this, every namespace, release and Job of this same
        # `pulumi up` fails with 403.
        provider_deps: list[pulumi.Resource] = [self.cluster]
        self.deployer_access = None
        if grants_deployer_access(settings):
            client = authorization.get_client_config_output(opts=pulumi.InvokeOptions(parent=self))
            self.deployer_access = authorization.RoleAssignment(
                f"{name}-deployer-cluster-admin",
                principal_id=client.object_id,
                principal_type=deployer_principal_type(settings),
                role_definition_id=client.subscription_id.apply(
                    lambda sub: (
                        f"/subscriptions/{sub}/providers/Microsoft.Authorization"
                        f"/roleDefinitions/{AKS_RBAC_CLUSTER_ADMIN_ROLE}"
                    )
                ),
                scope=self.cluster.id,
                description="Identity running Pulumi deploys into the cluster (gpu-platform)",
                # Azure refuses a second assignment of the same principal, role and scope
                # (RoleAssignmentExists), so a replacement must delete the old one first.
                opts=pulumi.ResourceOptions(parent=self, delete_before_replace=True),
            )
            provider_deps.append(self.deployer_access)
        self.provider = k8s.Provider(
            f"{name}-k8s",
            kubeconfig=self.kubeconfig,
            opts=pulumi.ResourceOptions(parent=self, depends_on=provider_deps),
        )

        self.cluster_name = self.cluster.name
        self.resource_group_name = pulumi.Output.from_input(rg_name)
        self.oidc_issuer_url = self.cluster.oidc_issuer_profile.apply(
            lambda profile: (profile.issuer_url or "") if profile else ""
        )
        self.register_outputs(
            {
                "clusterName": self.cluster_name,
                "resourceGroupName": self.resource_group_name,
                "oidcIssuerUrl": self.oidc_issuer_url,
                "kubeconfig": self.kubeconfig,
                "azureMonitorWorkspaceId": self.azure_monitor_workspace_id,
                "logAnalyticsWorkspaceId": self.log_analytics_workspace_id,
                "prometheusQueryEndpoint": self.prometheus_query_endpoint,
            }
        )

    @staticmethod
    def _aad_profile(settings: AksClusterSettings) -> aks.ManagedClusterAADProfileArgs | None:
        entra = settings.entra_id
        if not entra.enabled:
            return None
        return aks.ManagedClusterAADProfileArgs(
            managed=True,
            enable_azure_rbac=entra.azure_rbac,
            admin_group_object_ids=entra.admin_group_object_ids or None,
        )
