"""An ACK Pro managed cluster in its VPC, and a Kubernetes provider with a short-lived kubeconfig.

Terway with NetworkPolicy enforcement (the workload namespaces' deny-all policies mean nothing
without it), RRSA, audit logs, a maintenance window with the auto-upgrade policy, deletion
protection and ``protect`` for production stacks.
"""

from __future__ import annotations

import json

import pulumi
import pulumi_kubernetes as k8s
from pulumi_alicloud import cs, vpc

from settings import (
    SYSTEM_POOL_NAME,
    AckClusterSettings,
    AckVSwitchSettings,
    MaintenanceWindowSettings,
)

from .outputs import known_after

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
        self,
        name: str,
        args: AckClusterSettings,
        opts: pulumi.ResourceOptions | None = None,
        *,
        node_autoscaling: bool = False,
    ) -> None:
        """``node_autoscaling``: some GPU pool autoscales, so turn on the cluster's node auto
        scaling (``cluster_id`` then waits for it: pools join a cluster that can scale them)."""
        super().__init__("gpu-platform:alicloud:AckCluster", name, None, opts)
        settings = args
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
        if node_autoscaling:
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
