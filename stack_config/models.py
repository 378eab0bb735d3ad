"""The stack config as typed models: the shape of ``Pulumi.<stack>.yaml`` under ``gpu-platform:``.

Field names are snake_case in Python and camelCase in YAML. Every model forbids unknown keys.
Rules that span fields or consult the GPU catalog live in ``rules.py`` so that one error can
list every problem.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt
from pydantic.alias_generators import to_camel

from gpu_facts.ack_components import ACK_PRO_PREFIX
from gpu_facts.azure_mig import AksMigProfile
from gpu_facts.capacity import MigStrategy
from gpu_facts.device_plugin_chart import (
    DEFAULT_NAMESPACE,
    DEFAULT_VERSION,
    GPU_OPERATOR_DEFAULT_NAMESPACE,
)

Cloud = Literal["azure", "alicloud", "existing"]
WholeNumber = Annotated[StrictInt, Field(ge=0)]
PositiveWhole = Annotated[StrictInt, Field(ge=1)]
# RFC 1123 label: what Kubernetes accepts for namespace names.
DnsLabel = Annotated[str, Field(pattern=r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")]
K8sVersion = Annotated[str, Field(pattern=r"^1\.\d{2}(\.\d+)?$")]
Quantity = Annotated[str, Field(pattern=r"^\d+(\.\d+)?(m|k|Ki|Mi|Gi|Ti|Pi|M|G|T|P)?$")]

MIN_KUBERNETES = "1.30"
"""Lowest Kubernetes version we support: ValidatingAdmissionPolicy is GA (v1) from 1.30."""
SYSTEM_POOL_NAME = "system"
"""Name of the system node pool the cluster components create (AKS and ACK); GPU pools
must not take it."""


class ConfigModel(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        alias_generator=to_camel,
        populate_by_name=True,
    )


# --- GPU pools ---------------------------------------------------------------------------


class Autoscale(ConfigModel):
    min: WholeNumber = 0
    """Fewest nodes; 0 lets the pool scale to zero when no GPU pod waits."""
    max: PositiveWhole
    """Most nodes."""


class MigSettings(ConfigModel):
    profile: AksMigProfile
    """GPU instance profile as AKS names it; applied to every GPU of the pool."""
    strategy: MigStrategy = "mixed"
    """Device-plugin MIG strategy: ``single`` exposes ``nvidia.com/gpu``, ``mixed``
    exposes ``nvidia.com/mig-<profile>``."""


class Sharing(ConfigModel):
    mode: Literal["timeSlicing", "mps", "cgpu", "share"]
    """``timeSlicing`` and ``mps`` (NVIDIA device plugin; on ACK ``mps`` is ACK's MPS with
    GPU-memory isolation), ``cgpu`` and ``share`` (ACK only)."""
    replicas: Annotated[StrictInt, Field(ge=2, le=64)] | None = None
    """Pods per GPU for ``timeSlicing`` and device-plugin ``mps``."""
    rename_by_default: StrictBool = True
    """Advertise shared GPUs as ``<resource>.shared`` so pods opt in knowingly."""
    fail_requests_greater_than_one: StrictBool = True
    """Refuse pods that ask for more than one shared replica (they would get no more GPU)."""


class UpgradeSettings(ConfigModel):
    max_surge: str = "1"
    """Extra nodes during an upgrade (count or percentage); GPU capacity is scarce."""
    drain_timeout_minutes: Annotated[StrictInt, Field(ge=1, le=1440)] = 60
    """How long a node drain waits for pods (training jobs) to finish."""
    node_soak_minutes: Annotated[StrictInt, Field(ge=0, le=30)] = 0
    """Wait after draining a node before upgrading the next one."""


class GpuPool(ConfigModel):
    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9]{0,11}$")]
    """Pool name: lowercase letters and digits, at most 12 characters (the AKS limit)."""
    vm_size: str | None = None
    """Azure VM size (``cloud: azure``, or ``existing`` to describe the nodes)."""
    instance_type: str | None = None
    """Alibaba ECS instance type (``cloud: alicloud``, or ``existing``)."""
    count: WholeNumber | None = None
    """Fixed node count. Give this or ``autoscale``."""
    autoscale: Autoscale | None = None
    """Autoscaling range (not with MIG)."""
    mig: MigSettings | None = None
    """MIG partitioning of every GPU in the pool."""
    sharing: Sharing | None = None
    """GPU sharing (time-slicing or MPS); one trust domain per shared GPU."""
    labels: dict[str, str] = Field(default_factory=dict)
    """Extra node labels."""
    nvme: StrictBool = False
    """Offer the VM's local NVMe disks as an ephemeral cache StorageClass."""
    os_sku: Literal["Ubuntu", "Ubuntu2204", "AzureLinux", "AzureLinux3"] = "Ubuntu"
    """Node OS on AKS; MIG needs Ubuntu."""
    zones: list[str] = Field(default_factory=list)
    """Availability zones."""
    upgrade: UpgradeSettings = Field(default_factory=UpgradeSettings)
    """Node upgrade behaviour."""


# --- Clusters ----------------------------------------------------------------------------


class SystemPool(ConfigModel):
    vm_size: str = "Standard_D4ds_v5"
    """VM size (Azure) of the system pool that keeps the add-ons."""
    instance_type: str = "ecs.g7.xlarge"
    """Instance type (Alibaba) of the system pool."""
    count: PositiveWhole = 3
    """Nodes in the system pool."""


class ResourceGroup(ConfigModel):
    name: str
    """Resource group name."""
    create: StrictBool = True
    """Create it, or use an existing one."""


class EntraId(ConfigModel):
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


class ApiServerAccess(ConfigModel):
    private: StrictBool = False
    """Private API server (no public endpoint)."""
    authorized_ip_ranges: list[str] = Field(default_factory=list)
    """CIDRs allowed to reach a public API server."""


class MaintenanceWindow(ConfigModel):
    day: Literal["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    """Day of the week."""
    start_hour: Annotated[StrictInt, Field(ge=0, le=23)]
    """Start hour, UTC."""
    duration_hours: Annotated[StrictInt, Field(ge=4, le=24)] = 4
    """Length of the window."""


class AksCluster(ConfigModel):
    cloud: Literal["azure"] = "azure"
    name: str
    """AKS cluster name."""
    location: str
    """Azure region."""
    resource_group: ResourceGroup
    """Resource group of the cluster."""
    kubernetes_version: K8sVersion | None = None
    """Kubernetes version (1.30 or newer); unset: the AKS default."""
    sku_tier: Literal["Free", "Standard", "Premium"] = "Standard"
    """Control-plane tier (Standard carries the uptime SLA)."""
    system_pool: SystemPool = Field(default_factory=SystemPool)
    """The system pool; tainted CriticalAddonsOnly so workloads stay off it."""
    upgrade_channel: Literal["rapid", "stable", "patch", "node-image", "none"] = "patch"
    """Cluster auto-upgrade channel."""
    node_os_upgrade_channel: Literal["NodeImage", "SecurityPatch", "Unmanaged", "None"] = (
        "NodeImage"
    )
    """Node OS upgrade channel; NodeImage keeps GPU nodes on the newest image (BP-06)."""
    network_policy: Literal["cilium", "azure", "calico"] = "cilium"
    """Network policy engine; without one NetworkPolicies are ignored."""
    entra_id: EntraId = Field(default_factory=EntraId)
    """Entra ID integration."""
    kubelogin_mode: Literal["azurecli", "workloadidentity", "spn"] = "azurecli"
    """With Entra ID, how ``kubelogin`` in the exec kubeconfig logs in, never interactively:
    ``azurecli`` (the runner's ``az login``), ``workloadidentity`` (federated token from the
    ``AZURE_*`` environment) or ``spn`` (service principal from ``AAD_SERVICE_PRINCIPAL_*``).
    ``AAD_LOGIN_METHOD`` in the runner's environment overrides this mode (kubelogin reads it
    over ``--login``)."""
    disable_local_accounts: StrictBool = False
    """Disable local (certificate) accounts; needs Entra ID."""
    api_server: ApiServerAccess = Field(default_factory=ApiServerAccess)
    """API server exposure."""
    maintenance_window: MaintenanceWindow | None = None
    """Planned maintenance window for upgrades."""
    protect: StrictBool = False
    """Protect the cluster and GPU pools from deletion (production)."""
    tags: dict[str, str] = Field(default_factory=dict)
    """Azure tags."""


class AckVSwitch(ConfigModel):
    zone: Annotated[str, Field(min_length=1)]
    """Zone ID, e.g. ``cn-hangzhou-i``."""
    cidr: str
    """IPv4 CIDR inside the VPC."""


class AckVpc(ConfigModel):
    vpc_id: str | None = None
    """Existing VPC; unset: create one."""
    cidr: str = "10.0.0.0/8"
    """CIDR of a created VPC."""
    vswitch_ids: list[str] = Field(default_factory=list)
    """Existing vSwitches for nodes (needs ``vpcId``)."""
    vswitches: list[AckVSwitch] = Field(default_factory=list)
    """Node vSwitches to create: ``{zone, cidr}``."""
    pod_vswitch_ids: list[str] = Field(default_factory=list)
    """Existing Terway pod vSwitches (needs ``vpcId``)."""
    pod_vswitches: list[AckVSwitch] = Field(default_factory=list)
    """Terway pod vSwitches to create: ``{zone, cidr}``, in the zones of the node vSwitches."""


class AckCluster(ConfigModel):
    cloud: Literal["alicloud"] = "alicloud"
    name: str
    """ACK cluster name."""
    region: str
    """Alibaba Cloud region."""
    kubernetes_version: K8sVersion | None = None
    """Kubernetes version (1.30 or newer; 1.32+ with whole-GPU pools) for a cluster without
    auto-upgrade (``autoUpgradeChannel: none``); unset: ACK's latest at creation."""
    cluster_spec: str = f"{ACK_PRO_PREFIX}small"
    """ACK edition; MPS GPU sharing needs ACK Pro (``ack.pro.*``)."""
    vpc: AckVpc = Field(default_factory=AckVpc)
    """Networking."""
    system_pool: SystemPool = Field(default_factory=SystemPool)
    """The system node pool."""
    deletion_protection: StrictBool = False
    """Refuse cluster deletion (production)."""
    maintenance_window: MaintenanceWindow | None = None
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


class ExistingCluster(ConfigModel):
    cloud: Literal["existing"] = "existing"
    name: str = "existing"
    """A name for the cluster in outputs."""
    kubeconfig_path: str | None = None
    """Path to a kubeconfig file; unset: the secret config key ``kubeconfig``, then $KUBECONFIG."""
    context: str | None = None
    """Kubeconfig context to use."""


ClusterSettings = Annotated[AksCluster | AckCluster | ExistingCluster, Field(discriminator="cloud")]


# --- Platform layer ----------------------------------------------------------------------


class DevicePlugin(ConfigModel):
    enabled: StrictBool = True
    """Install the NVIDIA device plugin (off when the GPU Operator owns it)."""
    version: str = DEFAULT_VERSION
    """Chart version, 0.15.0 or newer."""
    gfd: StrictBool = True
    """GPU Feature Discovery from the same chart (needed for MPS and node labels); must stay on
    while the plugin is enabled (BP-14)."""
    namespace: DnsLabel = DEFAULT_NAMESPACE
    """Namespace of the release."""
    values: dict[str, object] = Field(default_factory=dict)
    """Extra chart values, merged over ours."""


class GpuOperator(ConfigModel):
    enabled: StrictBool = False
    """Let the NVIDIA GPU Operator own drivers and the device plugin instead."""
    version: str = "v25.10.1"
    """GPU Operator chart version."""
    namespace: DnsLabel = GPU_OPERATOR_DEFAULT_NAMESPACE
    """Namespace of the release."""


class AckGpuSharingComponents(ConfigModel):
    ai_installer_version: str | None = None
    """Chart version of ``ack-ai-installer``; required when a pool uses ACK GPU sharing."""
    mps_control_version: str | None = None
    """Chart version of ``ack-mps-control``; required when a pool uses ACK MPS (an unpinned
    chart would upgrade itself, and with it crash the running MPS clients)."""
    allow_mps_control_changes: StrictBool = False
    """Allow upgrading or removing ack-mps-control (disrupts running GPU apps: off-peak only)."""


_CRON_FIELD = r"[0-9A-Za-z*?/,-]+"
_CRON = re.compile(
    rf"@(yearly|annually|monthly|weekly|daily|hourly)|{_CRON_FIELD}( {_CRON_FIELD}){{4}}"
)


def _cron_schedule(schedule: str) -> str:
    if not _CRON.fullmatch(schedule):
        raise ValueError("not a cron schedule: five fields such as '0 6 * * *', or '@daily'")
    return schedule


def _pinned_image(image: str) -> str:
    """BP-19: an image pinned to a tag other than ``latest``, or to a digest."""
    if "@" in image:
        if not re.fullmatch(r"[^@\s]+@sha256:[0-9a-f]{64}", image):
            raise ValueError("digest must be @sha256:<64 hex digits>")
        return image
    last = image.rsplit("/", 1)[-1]
    tag = last.rsplit(":", 1)[1] if ":" in last else ""
    if tag in ("", "latest"):
        raise ValueError("pin the image to a tag other than 'latest', or a digest (BP-19)")
    return image


MPS_CHECKS_SUFFIX = "-mps"


class Readiness(ConfigModel):
    min_driver_major: Annotated[StrictInt, Field(ge=400)] = 535
    """Lowest acceptable NVIDIA driver major version."""
    schedule: Annotated[str, AfterValidator(_cron_schedule)] | None = None
    """Cron schedule to repeat the driver check; unset: run once."""
    image: Annotated[str, AfterValidator(_pinned_image)] = (
        "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04"
    )
    """Image of the check (pinned: BP-19)."""
    namespace: Annotated[DnsLabel, Field(max_length=63 - len(MPS_CHECKS_SUFFIX))] = "gpu-readiness"
    """Namespace of the check Jobs (Pod Security ``restricted``); the ACK MPS pools' checks
    use ``<namespace>-mps``, so at most 59 characters."""

    @property
    def mps_namespace(self) -> str:
        """Namespace of the ACK MPS pools' checks (Pod Security ``privileged``: hostIPC)."""
        return self.namespace + MPS_CHECKS_SUFFIX


class Admission(ConfigModel):
    action: Literal["Deny", "Warn", "Audit"] = "Deny"
    """What the in-cluster admission policy does with a violating pod."""


# --- Workloads ---------------------------------------------------------------------------


class Traffic(ConfigModel):
    dns: StrictBool = True
    """Allow DNS egress to kube-system."""
    egress_cidrs: list[str] = Field(default_factory=list)
    """CIDRs pods may reach (a dataset store)."""
    egress_namespaces: list[DnsLabel] = Field(default_factory=list)
    """Namespaces pods may reach."""
    ingress_namespaces: list[DnsLabel] = Field(default_factory=list)
    """Namespaces that may reach the pods (an inference gateway)."""
    same_namespace: StrictBool = False
    """Allow traffic between pods of the namespace (distributed training workers)."""


class ComputeQuota(ConfigModel):
    cpu: Quantity = "64"
    """Total CPU requests."""
    memory: Quantity = "512Gi"
    """Total memory requests."""
    pods: PositiveWhole = 100
    """Most pods."""


class ContainerDefaults(ConfigModel):
    cpu: Quantity = "500m"
    """Default CPU request and limit."""
    memory: Quantity = "1Gi"
    """Default memory request and limit."""


class Logging(ConfigModel):
    labels: dict[str, str] = Field(default_factory=dict)
    """Namespace labels the cluster's log pipeline selects on."""
    annotations: dict[str, str] = Field(default_factory=dict)
    """Namespace annotations for the log/audit pipeline."""


class Workload(ConfigModel):
    name: DnsLabel
    """Namespace name, e.g. ``gpu-training``."""
    type: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,30}$")]
    """``training``, ``inference`` or a custom type; becomes the ``workload`` label."""
    gpu_quota: WholeNumber | dict[str, WholeNumber]
    """GPU quota: one number for every GPU resource the namespace's pools expose, or a
    number per resource name."""
    pools: list[str] | None = None
    """GPU pools the namespace may use; unset: every pool that is not shared."""
    pod_security: Literal["privileged", "baseline", "restricted"] | None = None
    """Pod Security Admission ``enforce`` level; unset: restricted for inference, privileged
    on ACK MPS pools (hostIPC; the admission policy enforces the rest of baseline), else
    baseline."""
    quota: ComputeQuota = Field(default_factory=ComputeQuota)
    """CPU, memory and pod quota."""
    defaults: ContainerDefaults = Field(default_factory=ContainerDefaults)
    """LimitRange defaults for containers that set none."""
    traffic: Traffic = Field(default_factory=Traffic)
    """Traffic allowed past the deny-all NetworkPolicy."""
    logging: Logging = Field(default_factory=Logging)
    """Log/audit labels and annotations."""


# --- The whole config --------------------------------------------------------------------


class PlatformConfig(ConfigModel):
    cloud: Cloud
    """Where the cluster lives."""
    cluster: ClusterSettings
    """Cluster settings for that cloud."""
    gpu_pools: list[GpuPool] = Field(default_factory=list)
    """GPU node pools."""
    device_plugin: DevicePlugin = Field(default_factory=DevicePlugin)
    """NVIDIA device plugin and GFD."""
    gpu_operator: GpuOperator = Field(default_factory=GpuOperator)
    """NVIDIA GPU Operator (alternative owner of drivers and the plugin)."""
    ack_gpu_sharing: AckGpuSharingComponents = Field(default_factory=AckGpuSharingComponents)
    """ACK GPU sharing components (alicloud)."""
    workloads: list[Workload] = Field(default_factory=list)
    """GPU workload namespaces."""
    admission: Admission = Field(default_factory=Admission)
    """In-cluster admission policy."""
    readiness: Readiness = Field(default_factory=Readiness)
    """Driver and device checks after deployment."""
