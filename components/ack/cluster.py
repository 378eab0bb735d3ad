"""An ACK Pro managed cluster in its VPC, and a Kubernetes provider with a short-lived kubeconfig.

Terway with NetworkPolicy enforcement (the workload namespaces' deny-all policies mean nothing
without it), RRSA, audit logs, a maintenance window with the auto-upgrade policy, deletion
protection and ``protect`` for production stacks.
"""

import json
from typing import NotRequired, TypedDict, cast

import pulumi
import pulumi_kubernetes as k8s
from pulumi_alicloud import cs, vpc
from pydantic import ValidationError

from gpu_platform.plan.ack.cluster import ack_cluster_problems, ack_cluster_value_problems
from gpu_platform.plan.kubernetes_versions import kubernetes_version_problem
from gpu_platform.plan.zones import alibaba_zones_problems
from gpu_platform.settings import (
    SYSTEM_POOL_NAME,
    AckClusterSettings,
    AckVSwitchSettings,
    MaintenanceWindowSettings,
)

from ..errors import Problem, raise_if_any, validation_problems, value_type_problems
from ..node_hardening import AckSystemDiskArgs, ack_system_disk_inputs
from ..outputs import known_after
from ..type_tokens import formerly, type_token

# No ``from __future__ import annotations``: Pulumi's component analyzer reads these
# annotations at run time. ``settings.AckClusterSettings`` holds the allowed values.


class AckVSwitchArgs(TypedDict):
    """A vSwitch to create."""

    zone: str
    """Zone ID, e.g. ``cn-hangzhou-i``."""
    cidr: str
    """IPv4 CIDR inside the VPC."""


class AckVpcArgs(TypedDict):
    """Networking of an ACK cluster: a created or an existing VPC, node and Terway pod
    vSwitches."""

    vpc_id: NotRequired[str]
    """Existing VPC; unset: create one."""
    cidr: NotRequired[str]
    """CIDR of a created VPC (default ``10.0.0.0/8``)."""
    vswitch_ids: NotRequired[list[str]]
    """Existing vSwitches for nodes (needs ``vpcId``)."""
    vswitches: NotRequired[list[AckVSwitchArgs]]
    """Node vSwitches to create."""
    pod_vswitch_ids: NotRequired[list[str]]
    """Existing Terway pod vSwitches (needs ``vpcId``)."""
    pod_vswitches: NotRequired[list[AckVSwitchArgs]]
    """Terway pod vSwitches to create, in the zones of the node vSwitches."""


class AckSystemPoolArgs(TypedDict):
    """The untainted system node pool that keeps the add-ons."""

    instance_type: NotRequired[str]
    """ECS instance type (default ``ecs.g7.xlarge``)."""
    count: NotRequired[int]
    """Nodes (default 3)."""


class AckMaintenanceWindowArgs(TypedDict):
    """A weekly maintenance window."""

    day: str
    """Day of the week: ``Monday`` to ``Sunday``."""
    start_hour: int
    """Start hour, UTC (0 to 23)."""
    duration_hours: NotRequired[int]
    """Length of the window, 4 to 24 hours (default 4)."""


class AckClusterArgs(TypedDict):
    """An ACK managed cluster, its networking and system pool."""

    name: str
    """ACK cluster name."""
    kubernetes_version: NotRequired[str]
    """Kubernetes version (``1.35``, ``1.35.1`` or ``1.35.1-aliyun.1``), one ACK supports for
    new clusters (docs/validation.md), for a cluster without auto-upgrade (``autoUpgradeChannel:
    none``); unset: ACK's latest at creation."""
    cluster_spec: NotRequired[str]
    """ACK edition (default ``ack.pro.small``); MPS GPU sharing needs ACK Pro (``ack.pro.*``)."""
    vpc: NotRequired[AckVpcArgs]
    """Networking."""
    system_pool: NotRequired[AckSystemPoolArgs]
    """The system node pool (untainted)."""
    node_system_disk: NotRequired[AckSystemDiskArgs]
    """System disk of the system pool's nodes (the platform gives its GPU and CPU pools the
    same): category, size, encryption."""
    deletion_protection: NotRequired[bool]
    """Refuse cluster deletion (production)."""
    maintenance_window: NotRequired[AckMaintenanceWindowArgs]
    """Planned maintenance window; ACK runs auto-upgrades inside it."""
    auto_upgrade_channel: NotRequired[str]
    """Cluster auto-upgrade channel: ``patch`` (default), ``stable``, ``rapid``, or ``none``
    (off)."""
    service_cidr: NotRequired[str]
    """Service CIDR (default ``172.21.0.0/20``); must not overlap the VPC."""
    rrsa: NotRequired[bool]
    """RAM Roles for Service Accounts (OIDC), so pods get cloud credentials without
    AccessKeys (default true)."""
    audit_log: NotRequired[bool]
    """API server audit logs to Simple Log Service (default true)."""
    audit_log_project: NotRequired[str]
    """SLS project of the audit logs; unset: ACK creates one."""
    kubeconfig_minutes: NotRequired[int]
    """Lifetime of the temporary kubeconfig fetched on each run, 15 to 4320 minutes (default
    120). The provider keeps it in state: ``pulumi destroy``/``refresh`` reuse it without
    running the program and get Unauthorized once it expired (docs/ack.md)."""
    protect: NotRequired[bool]
    """Protect the cluster from deletion (production)."""
    tags: NotRequired[dict[str, str]]
    """Resource tags."""
    node_autoscaling: NotRequired[bool]
    """Some GPU pool autoscales: turn on the cluster's node auto scaling (``clusterId`` then
    waits for it, so pools join a cluster that can scale them)."""


# ``region`` is the alicloud provider's (``alicloud:region``), not an input of the cluster.
_REGION_UNUSED = "provider"


def ack_cluster_args(settings: AckClusterSettings, *, node_autoscaling: bool) -> AckClusterArgs:
    """A validated cluster's settings as component args (what the platform passes on)."""
    # The system pool's AKS settings (VM size, node hardening) are not ACK's.
    aks_only = {"vm_size", "max_pods", "os_disk_type", "os_disk_size_gb"}
    dumped = settings.model_dump(
        exclude_none=True, exclude={"region": True, "system_pool": aks_only}
    )
    return cast(AckClusterArgs, {**dumped, "node_autoscaling": node_autoscaling})


def validate_ack_cluster_args(
    args: AckClusterArgs,
) -> tuple[AckClusterSettings | None, list[Problem]]:
    """The args checked against the settings schema and the cluster's own rules
    (``plan.ack.cluster``, which the stack config asks too), its Kubernetes version and its
    vSwitches' zones: the settings, or None and the problems with property paths."""
    raw = {k: v for k, v in args.items() if k != "node_autoscaling"}
    try:
        settings = AckClusterSettings.model_validate({**raw, "region": _REGION_UNUSED})
    except ValidationError as err:
        return None, validation_problems(err)
    problems = list(ack_cluster_value_problems(settings))
    version = settings.kubernetes_version
    if version is not None and (version_problem := kubernetes_version_problem("ack", version)):
        problems.append(("kubernetesVersion", version_problem))
    network = settings.vpc
    # No region here (the provider's): the zones of every vSwitch are judged as one region's.
    groups = (("vswitches", network.vswitches), ("podVswitches", network.pod_vswitches))
    switches = [
        (f"vpc.{key}[{i}].zone", switch.zone)
        for key, group in groups
        for i, switch in enumerate(group)
    ]
    zones = dict(alibaba_zones_problems([zone for _, zone in switches]))
    problems += [(at, zones[f"[{j}]"]) for j, (at, _) in enumerate(switches) if f"[{j}]" in zones]
    problems += ack_cluster_problems(settings)
    return (None if problems else settings), problems


TERWAY_ADDON = "terway-eniip"
"""Terway in shared-ENI mode: the ACK CNI that can enforce Kubernetes NetworkPolicies."""
# IPVlan needs Alibaba Cloud Linux nodes; plain ENI multi-IP mode works on every GPU image.
TERWAY_CONFIG = {"IPVlan": "false", "NetworkPolicy": "true"}

# ACK reads only the time of day and the zone of this RFC 3339 timestamp; the day comes
# from ``weekly_period``. Any fixed date keeps the input stable between runs.
_WINDOW_ANCHOR_DATE = "2024-01-01"


# Node auto scaling (ACK help "Enable node autoscaling"; API CreateAutoscalingConfig, which
# cs.AutoscalingConfig calls): the cluster-wide switch without which no pool's scaling_config
# adds a node.
NODE_SCALER_TYPE = "cluster-autoscaler"
"""ACK's node autoscaling (``goatscaler`` is node instant scaling, a separate product)."""
NODE_SCALING_EXPANDER = "least-waste"
"""Of the pools that fit a pending pod, grow the one that wastes least: the smallest GPU node."""
GPU_SCALE_DOWN_THRESHOLD = "0.5"
"""Remove a GPU node whose pods request less than half its GPUs (ACK's default, stated so a
provider default change does not move it)."""


def autoscaling_config(
    name: str, cluster_id: pulumi.Input[str], opts: pulumi.ResourceOptions
) -> cs.AutoscalingConfig:
    """Turn on node auto scaling for the cluster: GPU pools scale from zero and back to it."""
    return cs.AutoscalingConfig(
        f"{name}-autoscaling",
        cluster_id=cluster_id,
        scaler_type=NODE_SCALER_TYPE,
        expander=NODE_SCALING_EXPANDER,
        # Scale up even while the cluster has no ready node at all (the SDK's meaning; its
        # default, stated so a provider default change does not move it).
        scale_up_from_zero=True,
        # Idle GPU nodes are the cost to avoid.
        scale_down_enabled=True,
        gpu_utilization_threshold=GPU_SCALE_DOWN_THRESHOLD,
        opts=opts,
    )


def maintenance_window_args(
    window: MaintenanceWindowSettings | None,
) -> cs.ManagedKubernetesMaintenanceWindowArgs:
    """The ACK maintenance window for our ``MaintenanceWindowSettings`` (UTC start hour, length)."""
    if window is None:
        return cs.ManagedKubernetesMaintenanceWindowArgs(enable=False)
    return cs.ManagedKubernetesMaintenanceWindowArgs(
        enable=True,
        weekly_period=window.day,
        maintenance_time=f"{_WINDOW_ANCHOR_DATE}T{window.start_hour:02d}:00:00Z",
        duration=f"{window.duration_hours}h",
    )


def operation_policy_args(channel: str) -> cs.ManagedKubernetesOperationPolicyArgs:
    """Cluster auto-upgrade on ``channel`` (patch, stable, rapid), or off for ``none``."""
    if channel == "none":
        auto = cs.ManagedKubernetesOperationPolicyClusterAutoUpgradeArgs(enabled=False)
    else:
        auto = cs.ManagedKubernetesOperationPolicyClusterAutoUpgradeArgs(
            enabled=True, channel=channel
        )
    return cs.ManagedKubernetesOperationPolicyArgs(cluster_auto_upgrade=auto)


class AckCluster(pulumi.ComponentResource):
    """An ACK managed cluster (ACK Pro for GPU sharing), its networking and a system node pool."""

    cluster_id: pulumi.Output[str]
    """ACK cluster ID."""
    cluster_name: pulumi.Output[str]
    """ACK cluster name."""
    vpc_id: pulumi.Output[str]
    """VPC of the cluster (created or existing)."""
    node_vswitch_ids: pulumi.Output[list[str]]
    """vSwitches the node pools use."""
    rrsa_oidc_issuer_url: pulumi.Output[str | None]
    """Issuer of the RRSA OIDC tokens (for RAM role trust policies); None without RRSA."""
    kubeconfig: pulumi.Output[str]
    """Temporary kubeconfig (secret), fetched on every run; it expires after
    ``kubeconfigMinutes``, also in the provider's state that ``pulumi destroy``/``refresh``
    reuse without running the program (docs/ack.md)."""
    provider: k8s.Provider
    """Provider for everything deployed into the cluster."""

    def __init__(
        self, name: str, args: AckClusterArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("AckCluster", name, value_type_problems(args, AckClusterArgs))
        settings, problems = validate_ack_cluster_args(args)
        # Validated before registering anything: bad input changes nothing.
        raise_if_any("AckCluster", name, problems)
        assert settings is not None
        super().__init__(
            type_token("AckCluster"), name, None, formerly("gpu-platform:alicloud:AckCluster", opts)
        )
        child = pulumi.ResourceOptions(parent=self)

        vpc_id = self._vpc(name, settings, child)
        node_switches: list[pulumi.Input[str]] = [
            *settings.vpc.vswitch_ids,
            *self._switches(name, "nodes", settings.vpc.vswitches, vpc_id, settings),
        ]
        pod_switches: list[pulumi.Input[str]] = [
            *settings.vpc.pod_vswitch_ids,
            *self._switches(name, "pods", settings.vpc.pod_vswitches, vpc_id, settings),
        ]

        cluster = cs.ManagedKubernetes(
            f"{name}-ack",
            name=settings.name,
            cluster_spec=settings.cluster_spec,
            version=settings.kubernetes_version,
            vswitch_ids=node_switches,
            pod_vswitch_ids=pod_switches,
            service_cidr=settings.service_cidr,
            addons=[
                cs.ManagedKubernetesAddonArgs(name=TERWAY_ADDON, config=json.dumps(TERWAY_CONFIG))
            ],
            enable_rrsa=settings.rrsa,
            deletion_protection=settings.deletion_protection,
            audit_log_config=cs.ManagedKubernetesAuditLogConfigArgs(
                enabled=settings.audit_log, sls_project_name=settings.audit_log_project
            ),
            maintenance_window=maintenance_window_args(settings.maintenance_window),
            operation_policy=operation_policy_args(settings.auto_upgrade_channel),
            tags=settings.tags or None,
            opts=pulumi.ResourceOptions(parent=self, protect=settings.protect),
        )

        # The add-ons (CoreDNS, the GPU-sharing scheduler parts) need untainted nodes.
        system = settings.system_pool
        cs.NodePool(
            f"{name}-system",
            cluster_id=cluster.id,
            node_pool_name=SYSTEM_POOL_NAME,
            instance_types=[system.instance_type],
            desired_size=str(system.count),
            vswitch_ids=node_switches,
            **ack_system_disk_inputs(settings.node_system_disk),
            tags=settings.tags or None,
            opts=child,
        )

        # A temporary credential per run: never a long-lived kubeconfig in state or outputs.
        credential = cs.get_cluster_credential_output(
            cluster_id=cluster.id,
            temporary_duration_minutes=settings.kubeconfig_minutes,
            opts=pulumi.InvokeOutputOptions(parent=self),
        )
        self.kubeconfig = pulumi.Output.secret(credential.kube_config)
        self.provider = k8s.Provider(
            f"{name}-k8s",
            kubeconfig=self.kubeconfig,
            # The kubeconfig changes on every run; only a new cluster replaces the provider
            # (and with it every in-cluster resource).
            cluster_identifier=cluster.id,
            opts=child,
        )
        self.cluster_id = cluster.id
        if args.get("node_autoscaling", False):
            scaling = autoscaling_config(name, cluster.id, child)
            # Not through ``scaling.id``: a new config would make the ID unknown at preview,
            # and every pool (whose cluster ID forces a new one) would show a replace.
            self.cluster_id = known_after(cluster.id, scaling)
        self.cluster_name = cluster.name
        self.vpc_id = pulumi.Output.from_input(vpc_id)
        self.node_vswitch_ids = pulumi.Output.all(*node_switches)
        self.rrsa_oidc_issuer_url = cluster.rrsa_metadata.apply(
            lambda rrsa: rrsa.rrsa_oidc_issuer_url if rrsa else None
        )
        self.register_outputs(
            {
                "clusterId": self.cluster_id,
                "clusterName": self.cluster_name,
                "vpcId": self.vpc_id,
                "nodeVswitchIds": self.node_vswitch_ids,
                "rrsaOidcIssuerUrl": self.rrsa_oidc_issuer_url,
                "kubeconfig": self.kubeconfig,
            }
        )

    @staticmethod
    def _vpc(
        name: str, settings: AckClusterSettings, opts: pulumi.ResourceOptions
    ) -> pulumi.Input[str]:
        if settings.vpc.vpc_id is not None:
            return settings.vpc.vpc_id
        network = vpc.Network(
            f"{name}-vpc",
            vpc_name=settings.name,
            cidr_block=settings.vpc.cidr,
            tags=settings.tags or None,
            opts=opts,
        )
        return network.id

    def _switches(
        self,
        name: str,
        role: str,
        switches: list[AckVSwitchSettings],
        vpc_id: pulumi.Input[str],
        settings: AckClusterSettings,
    ) -> list[pulumi.Output[str]]:
        return [
            vpc.Switch(
                f"{name}-{role}-vsw-{i}",
                vpc_id=vpc_id,
                zone_id=switch.zone,
                cidr_block=switch.cidr,
                vswitch_name=f"{settings.name}-{role}-{i}",
                tags=settings.tags or None,
                opts=pulumi.ResourceOptions(parent=self),
            ).id
            for i, switch in enumerate(switches)
        ]
