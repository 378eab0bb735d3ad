"""Cluster settings per cloud: AKS, ACK Pro, or an existing cluster."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt

from gpu_facts.ack.addons import ACK_PRO_PREFIX

from .base import PositiveWhole, SettingsModel
from .pools import AksNodeSettings


class SystemPoolSettings(AksNodeSettings):
    vm_size: str = "Standard_D4ds_v5"
    """VM size (Azure) of the system pool that keeps the add-ons."""
    instance_type: str = "ecs.g7.xlarge"
    """Instance type (Alibaba) of the system pool."""
    count: PositiveWhole = 3
    """Nodes in the system pool."""


class ResourceGroupSettings(SettingsModel):
    name: str
    """Resource group name."""
    create: StrictBool = True
    """Create it, or use an existing one."""


class EntraIdSettings(SettingsModel):
    enabled: StrictBool = True
    """Microsoft Entra ID authentication."""
    azure_rbac: StrictBool = True
    """Azure RBAC for Kubernetes authorization."""
    admin_group_object_ids: list[str] = Field(default_factory=list)
    """Entra groups with cluster-admin."""
    grant_deployer_access: StrictBool = True
    """With Azure RBAC: assign the identity running Pulumi the built-in role "Azure Kubernetes
    Service RBAC Cluster Admin" on the cluster, so the same ``pulumi up`` can deploy into it
    (subscription Owner alone gets 403 from the Kubernetes API). Turn off when a pipeline
    grants that access otherwise (e.g. through an admin group); ignored without Azure RBAC."""
    deployer_principal_type: Literal["User", "ServicePrincipal"] | None = None
    """Entra object type of the identity running Pulumi, for that role assignment (Azure
    refuses a mismatch: ``UnmatchedPrincipalType``); a managed identity is a
    ``ServicePrincipal``. Unset: ``User`` with ``kubeloginMode: azurecli``, else
    ``ServicePrincipal``; set it for a service principal behind ``az login``."""


class ApiServerSettings(SettingsModel):
    private: StrictBool = False
    """Private API server (no public endpoint)."""
    authorized_ip_ranges: list[str] = Field(default_factory=list)
    """CIDRs allowed to reach a public API server."""


class MaintenanceWindowSettings(SettingsModel):
    day: Literal["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    """Day of the week."""
    start_hour: Annotated[StrictInt, Field(ge=0, le=23)]
    """Start hour, UTC."""
    duration_hours: Annotated[StrictInt, Field(ge=4, le=24)] = 4
    """Length of the window."""


class AksClusterSettings(SettingsModel):
    name: str
    """AKS cluster name."""
    location: str
    """Azure region."""
    resource_group: ResourceGroupSettings
    """Resource group of the cluster."""
    kubernetes_version: str | None = None
    """Kubernetes version: ``1.35`` (AKS picks the newest patch) or ``1.35.6``, one AKS supports
    for new clusters (docs/validation.md); unset: the AKS default."""
    sku_tier: Literal["Free", "Standard", "Premium"] = "Standard"
    """Control-plane tier (Standard carries the uptime SLA)."""
    system_pool: SystemPoolSettings = Field(default_factory=SystemPoolSettings)
    """The system pool; tainted CriticalAddonsOnly so workloads stay off it."""
    upgrade_channel: Literal["rapid", "stable", "patch", "node-image", "none"] = "patch"
    """Cluster auto-upgrade channel."""
    node_os_upgrade_channel: Literal["NodeImage", "SecurityPatch", "Unmanaged", "None"] = (
        "NodeImage"
    )
    """Node OS upgrade channel; NodeImage keeps GPU nodes on the newest image (BP-06)."""
    network_policy: Literal["cilium", "azure", "calico"] = "cilium"
    """Network policy engine; without one NetworkPolicies are ignored."""
    entra_id: EntraIdSettings = Field(default_factory=EntraIdSettings)
    """Entra ID integration."""
    kubelogin_mode: Literal["azurecli", "workloadidentity", "spn"] = "azurecli"
    """With Entra ID, how ``kubelogin`` in the exec kubeconfig logs in, never interactively:
    ``azurecli`` (the runner's ``az login``), ``workloadidentity`` (federated token from the
    ``AZURE_*`` environment) or ``spn`` (service principal from ``AAD_SERVICE_PRINCIPAL_*``).
    ``AAD_LOGIN_METHOD`` in the runner's environment overrides this mode (kubelogin reads it
    over ``--login``)."""
    disable_local_accounts: StrictBool = False
    """Disable local (certificate) accounts; needs Entra ID."""
    api_server: ApiServerSettings = Field(default_factory=ApiServerSettings)
    """API server exposure."""
    maintenance_window: MaintenanceWindowSettings | None = None
    """Planned maintenance window for upgrades."""
    encryption_at_host: StrictBool = False
    """Encrypt every node's temp disk and OS/data disk caches on the VM host (system, GPU and
    CPU pools). The subscription must register the ``Microsoft.Compute/EncryptionAtHost``
    feature first (docs/aks.md); set when pools are created."""
    azure_policy: StrictBool = False
    """The Azure Policy add-on: Azure Policy assignments enforced in the cluster (Gatekeeper)."""
    defender: StrictBool = False
    """Microsoft Defender for Containers' sensor, reporting to the cluster's Log Analytics
    workspace (created for it when logs are off); needs the subscription's Defender for
    Containers plan."""
    protect: StrictBool = False
    """Protect the cluster and GPU pools from deletion (production)."""
    tags: dict[str, str] = Field(default_factory=dict)
    """Azure tags."""


class AckVSwitchSettings(SettingsModel):
    zone: Annotated[str, Field(min_length=1)]
    """Zone ID, e.g. ``cn-hangzhou-i``."""
    cidr: str
    """IPv4 CIDR inside the VPC."""


class AckVpcSettings(SettingsModel):
    vpc_id: str | None = None
    """Existing VPC; unset: create one."""
    cidr: str = "10.0.0.0/8"
    """CIDR of a created VPC."""
    vswitch_ids: list[str] = Field(default_factory=list)
    """Existing vSwitches for nodes (needs ``vpcId``)."""
    vswitches: list[AckVSwitchSettings] = Field(default_factory=list)
    """Node vSwitches to create: ``{zone, cidr}``."""
    pod_vswitch_ids: list[str] = Field(default_factory=list)
    """Existing Terway pod vSwitches (needs ``vpcId``)."""
    pod_vswitches: list[AckVSwitchSettings] = Field(default_factory=list)
    """Terway pod vSwitches to create: ``{zone, cidr}``, in the zones of the node vSwitches."""


class AckSystemDiskSettings(SettingsModel):
    category: Literal["cloud_essd", "cloud_auto", "cloud_ssd", "cloud_efficiency"] = "cloud_essd"
    """ECS disk category of every node's system disk (ACK's default is ``cloud_efficiency``)."""
    size_gib: Annotated[StrictInt, Field(ge=40, le=2048)] = 120
    """System disk size in GiB (40 to 2048): images, container layers and logs live there."""
    encrypted: StrictBool = False
    """Encrypt the system disks (ECS disk encryption through KMS)."""
    kms_key_id: str | None = None
    """KMS key for the encryption; unset: the region's default service key. Needs
    ``encrypted``."""


class AckClusterSettings(SettingsModel):
    name: str
    """ACK cluster name."""
    region: str
    """Alibaba Cloud region."""
    kubernetes_version: str | None = None
    """Kubernetes version (``1.35``, ``1.35.1`` or ACK's ``1.35.1-aliyun.1``), one ACK supports
    for new clusters (docs/validation.md), for a cluster without auto-upgrade
    (``autoUpgradeChannel: none``); unset: ACK's latest at creation."""
    cluster_spec: str = f"{ACK_PRO_PREFIX}small"
    """ACK edition; MPS GPU sharing needs ACK Pro (``ack.pro.*``)."""
    vpc: AckVpcSettings = Field(default_factory=AckVpcSettings)
    """Networking."""
    system_pool: SystemPoolSettings = Field(default_factory=SystemPoolSettings)
    """The system node pool (untainted: it also runs pods that tolerate no taint)."""
    node_system_disk: AckSystemDiskSettings = Field(default_factory=AckSystemDiskSettings)
    """System disk of every node (system, GPU and CPU pools): category, size, encryption."""
    deletion_protection: StrictBool = False
    """Refuse cluster deletion (production)."""
    maintenance_window: MaintenanceWindowSettings | None = None
    """Planned maintenance window; ACK runs auto-upgrades inside it."""
    auto_upgrade_channel: Literal["patch", "stable", "rapid", "none"] = "patch"
    """Cluster auto-upgrade channel (needs ``maintenanceWindow``); ``none`` turns it off."""
    service_cidr: str = "172.21.0.0/20"
    """Service CIDR; must not overlap the VPC."""
    rrsa: StrictBool = True
    """RAM Roles for Service Accounts (OIDC), so pods get cloud credentials without AccessKeys."""
    audit_log: StrictBool = True
    """API server audit logs to Simple Log Service."""
    audit_log_project: str | None = None
    """SLS project of the audit logs; unset: ACK creates one."""
    kubeconfig_minutes: Annotated[StrictInt, Field(ge=15, le=4320)] = 120
    """Lifetime of the temporary kubeconfig fetched on each run (15 to 4320 minutes). The
    provider keeps it in state: ``pulumi destroy``/``refresh`` reuse it without running the
    program and get Unauthorized once it expired; run ``pulumi up`` (or ``pulumi refresh
    --run-program``) first, or raise this (docs/ack.md)."""
    protect: StrictBool = False
    """Protect the cluster and GPU pools from deletion (production)."""
    tags: dict[str, str] = Field(default_factory=dict)
    """Resource tags."""


class ExistingClusterSettings(SettingsModel):
    name: str = "existing"
    """A name for the cluster in outputs."""
    kubeconfig_path: str | None = None
    """Path to a kubeconfig file; unset: the secret config key ``kubeconfig``, then $KUBECONFIG."""
    context: str | None = None
    """Kubeconfig context to use."""


ClusterSettings = AksClusterSettings | AckClusterSettings | ExistingClusterSettings
"""The cluster settings of one cloud; the top-level ``cloud`` key picks the model."""
