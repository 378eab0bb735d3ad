"""GpuPlatform: the whole platform for one stack, composed from the components by cloud.

Each layer has its own function below; the component that provisions a practice is named in
docs/traceability.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

import pulumi
import pulumi_kubernetes as k8s

from gpu_platform.plan.dra_claims import cluster_device_classes
from gpu_platform.plan.observability import (
    KSM_LABELS_ALLOWLIST,
    grafana_name,
    log_namespaces,
    metrics_plan,
    unattributed_dra_pools,
    unattributed_dra_warning,
    unattributed_gpu_pools,
    unattributed_warning,
)
from gpu_platform.plan.platform import ResolvedPlatform, shared_gpu_warnings
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.settings import (
    AckClusterSettings,
    AksClusterSettings,
    ExistingClusterSettings,
    ManagedGpuPoolSettings,
)
from gpu_platform.stack_config import NAMESPACE

if TYPE_CHECKING:  # the in-cluster components are imported where they are used
    from .ack.cluster import AckCluster as AckClusterComponent
    from .aks.cluster import AksCluster as AksClusterComponent
    from .driver_check import DriverCheckArgs
    from .gpu_workload_namespace import GpuWorkloadNamespaceArgs
    from .nvidia.device_plugin import GpuComponentResourcesArgs


@dataclass
class ClusterHandle:
    """What every layer above the cluster needs from it."""

    name: pulumi.Output[str]
    kubeconfig: pulumi.Output[str]
    """Secret."""
    provider: k8s.Provider
    node_pools: dict[str, pulumi.Output[str]] = field(default_factory=dict)
    """Per GPU pool we create: the cloud node pool's ID. Only the pool's own driver check
    waits for it (fail small: a pool that cannot be created holds back nothing else)."""
    gpu_owners: list[pulumi.Resource] = field(default_factory=list)
    """GPU components of the cloud itself (ACK's sharing charts) that the driver checks of its
    pools need; they wait for the cluster only."""
    exporter_waits_for: list[pulumi.Resource] = field(default_factory=list)
    """What the GPU metrics exporter waits for besides the cluster (ACK's managed Prometheus
    add-on, whose CRDs its PodMonitor needs); never a GPU pool."""
    outputs: dict[str, Any] = field(default_factory=dict)
    """Cloud-specific stack outputs (resource group, OIDC issuer...)."""


def zone_vswitches(
    settings: AckClusterSettings, node_vswitch_ids: pulumi.Output[list[str]], zones: list[str]
) -> pulumi.Input[list[str]]:
    """The cluster's node vSwitches in ``zones`` (every one without zones). The cluster lists
    the existing vSwitches first, then the created ones in config order; the rules let zones
    pick among the created ones only."""
    if not zones:
        return node_vswitch_ids
    first = len(settings.vpc.vswitch_ids)
    picked = [first + k for k, sw in enumerate(settings.vpc.vswitches) if sw.zone in zones]
    return node_vswitch_ids.apply(lambda ids: [ids[i] for i in picked])


class GpuPlatform(pulumi.ComponentResource):
    """A GPU-ready Kubernetes platform: cluster, GPU pools, device plugin, workload namespaces."""

    cluster_name: pulumi.Output[str]
    """Name of the cluster."""
    kubeconfig: pulumi.Output[str]
    """Kubeconfig of the cluster (secret)."""
    gpu_capacity: pulumi.Output[dict[str, Any]]
    """Per pool: expected allocatable GPU resources per node, node count and total."""
    namespaces: pulumi.Output[list[str]]
    """The GPU workload namespaces."""
    shared_gpu_warnings: pulumi.Output[dict[str, str]]
    """Per shared pool: the trust-domain warning and the namespaces allowed on it (BP-15)."""
    cluster_outputs: dict[str, pulumi.Input[Any]]
    """Cloud-specific outputs by stack-output name (resource group, OIDC issuer, pool facts...);
    a plain dict so ``__main__`` exports each key on its own."""

    def __init__(
        self, name: str, args: ResolvedPlatform, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("gpu-platform:index:GpuPlatform", name, None, opts)
        self._name = name
        self._platform = args
        for warning in args.warnings:
            pulumi.log.warn(warning, self)

        cluster = self._cluster()
        # The in-cluster layer waits for the cluster (through the provider's kubeconfig), never
        # for the GPU pools: one pool's quota error must not leave the cluster with nothing.
        in_cluster = pulumi.ResourceOptions(parent=self, providers={"kubernetes": cluster.provider})
        self._gpu_layer(cluster, in_cluster)
        namespaces = self._workloads(cluster, in_cluster)

        self.cluster_name = cluster.name
        self.kubeconfig = pulumi.Output.secret(cluster.kubeconfig)
        self.gpu_capacity = pulumi.Output.from_input(
            {name: pf.capacity.as_output() for name, pf in args.pools.items()}
        )
        self.namespaces = pulumi.Output.from_input(namespaces)
        self.cluster_outputs = cluster.outputs
        self.register_outputs(
            {
                "clusterName": self.cluster_name,
                "kubeconfig": self.kubeconfig,
                "gpuCapacity": self.gpu_capacity,
                "namespaces": self.namespaces,
                "sharedGpuWarnings": self.shared_gpu_warnings,
                "clusterOutputs": self.cluster_outputs,
            }
        )

    # --- cluster and GPU pools, per cloud ------------------------------------------------

    def _cluster(self) -> ClusterHandle:
        settings = self._platform.settings.cluster
        if isinstance(settings, AksClusterSettings):
            return self._azure(settings)
        if isinstance(settings, AckClusterSettings):
            return self._alicloud(settings)
        return self._existing(settings)

    def _azure(self, settings: AksClusterSettings) -> ClusterHandle:
        """AKS cluster, one AksGpuNodePool per GPU pool, one AksCpuNodePool per CPU pool, and
        the NVMe cache where asked."""
        from .aks.cluster import AksCluster as AksClusterComponent
        from .aks.cluster import aks_cluster_args
        from .aks.cpu_node_pool import AksCpuNodePool
        from .aks.gpu_node_pool import AksGpuNodePool
        from .aks.nvme_cache import NvmeCache
        from .pool_args import cpu_pool_args, gpu_pool_args

        config = self._platform.settings
        metrics = metrics_plan(self._platform)
        prometheus = metrics is not None and metrics.azure_monitor
        logs = config.observability.logs
        cluster_args = aks_cluster_args(settings)
        if prometheus or logs.enabled:
            cluster_args["monitoring"] = {
                "prometheus": prometheus,
                "ksm_metric_labels_allowlist": KSM_LABELS_ALLOWLIST,
                "logs": logs.enabled,
                "retention_days": logs.retention_days,
            }
        cluster = AksClusterComponent(
            f"{self._name}-aks", cluster_args, pulumi.ResourceOptions(parent=self)
        )
        workload_types = self._platform.pool_workload_types()
        pools = {
            pf.name: AksGpuNodePool(
                f"{self._name}-gpu-{pf.name}",
                {
                    "pool": gpu_pool_args(pf),
                    "cluster_name": cluster.cluster_name,
                    "resource_group_name": cluster.resource_group_name,
                    "gpu_operator": config.gpu_operator.enabled,
                    "workload_types": list(workload_types[pf.name]),
                    "protect": settings.protect,
                    "encryption_at_host": settings.encryption_at_host,
                },
                pulumi.ResourceOptions(parent=self),
            )
            for pf in self._platform.pools.values()
        }
        # CPU pools wait for the cluster only: not for the GPU pools, nor they for them.
        cpu_pools = {
            pool.name: AksCpuNodePool(
                f"{self._name}-cpu-{pool.name}",
                {
                    "pool": cpu_pool_args(pool),
                    "cluster_name": cluster.cluster_name,
                    "resource_group_name": cluster.resource_group_name,
                    "encryption_at_host": settings.encryption_at_host,
                    "protect": settings.protect,
                },
                pulumi.ResourceOptions(parent=self),
            )
            for pool in config.cpu_pools
        }
        nvme_pools = [name for name, pf in self._platform.pools.items() if pf.nvme_cache]
        if nvme_pools:
            NvmeCache(
                f"{self._name}-nvme",
                {
                    "cluster_name": cluster.cluster_name,
                    "resource_group_name": cluster.resource_group_name,
                    "pools": nvme_pools,
                    # No wait for the NVMe pools: the local-disk driver is a DaemonSet the
                    # StorageClass brings, and it reaches nodes whenever they join (an
                    # autoscaled pool has none at first anyway).
                    "kubernetes_provider": cluster.provider,
                },
                pulumi.ResourceOptions(parent=self),
            )
        outputs: dict[str, Any] = {
            "resourceGroup": cluster.resource_group_name,
            "oidcIssuerUrl": cluster.oidc_issuer_url,
            "gpuPools": {name: pool.facts for name, pool in pools.items()},
        }
        if cpu_pools:
            outputs["cpuPools"] = {name: pool.facts for name, pool in cpu_pools.items()}
        if prometheus or logs.enabled:
            self._aks_monitoring(settings, cluster, prometheus)
            if prometheus:
                outputs["prometheusQueryEndpoint"] = cluster.prometheus_query_endpoint
        if config.observability.grafana.enabled:
            outputs["grafanaEndpoint"] = self._aks_grafana(settings, cluster)
        return ClusterHandle(
            cluster.cluster_name,
            cluster.kubeconfig,
            cluster.provider,
            node_pools={name: pool.agent_pool.id for name, pool in pools.items()},
            outputs=outputs,
        )

    def _aks_monitoring(
        self, settings: AksClusterSettings, cluster: AksClusterComponent, prometheus: bool
    ) -> None:
        """GPU rule groups and Prometheus collection, container logs and audit (AKS)."""
        from .aks.monitoring import AksMonitoring, AksMonitoringArgs
        from .pool_args import gpu_pool_args

        config = self._platform.settings
        logs = config.observability.logs
        args: AksMonitoringArgs = {
            "cluster_id": cluster.cluster.id,
            "cluster_name": cluster.cluster_name,
            "resource_group_name": cluster.resource_group_name,
            "location": settings.location,
            "pools": [gpu_pool_args(pf) for pf in self._platform.pools.values()],
            "exporter_namespace": config.observability.metrics.namespace,
            "amd_operator_namespace": config.amd_gpu_operator.namespace,
            "log_namespaces": log_namespaces(self._platform),
            "audit": logs.audit,
            "tags": dict(settings.tags),
        }
        if config.queues is not None:
            args["queue_pending_alert_minutes"] = config.queues.pending_alert_minutes
            args["kueue_namespace"] = config.queues.namespace
        if prometheus:
            args["azure_monitor_workspace_id"] = cluster.azure_monitor_workspace_id
        if logs.enabled:
            args["log_analytics_workspace_id"] = cluster.log_analytics_workspace_id
        AksMonitoring(f"{self._name}-monitoring", args, pulumi.ResourceOptions(parent=self))

    def _aks_grafana(
        self, settings: AksClusterSettings, cluster: AksClusterComponent
    ) -> pulumi.Output[str]:
        """Azure Managed Grafana on the cluster's Azure Monitor workspace (AKS)."""
        from .aks.grafana import AksGrafana

        grafana = AksGrafana(
            f"{self._name}-grafana",
            {
                "name": grafana_name(self._platform.settings),
                "resource_group_name": cluster.resource_group_name,
                "location": settings.location,
                "azure_monitor_workspace_id": cluster.azure_monitor_workspace_id,
                "admin_group_object_ids": list(settings.entra_id.admin_group_object_ids),
                "tags": dict(settings.tags),
            },
            pulumi.ResourceOptions(parent=self),
        )
        return grafana.endpoint

    def _alicloud(self, settings: AckClusterSettings) -> ClusterHandle:
        """ACK cluster, one AckGpuNodePool per GPU pool, one AckCpuNodePool per CPU pool, and
        ACK's GPU-sharing components."""
        from .ack.cluster import AckCluster as AckClusterComponent
        from .ack.cluster import ack_cluster_args
        from .ack.cpu_node_pool import AckCpuNodePool
        from .ack.gpu_node_pool import AckGpuNodePool
        from .ack.gpu_sharing import AckGpuSharing, ack_gpu_sharing_args
        from .node_hardening import AckSystemDiskArgs
        from .pool_args import cpu_pool_args, gpu_pool_args

        pool_facts = list(self._platform.pools.values())
        cpu_settings = self._platform.settings.cpu_pools
        autoscaled = [pf.pool.autoscale for pf in pool_facts] + [p.autoscale for p in cpu_settings]
        cluster = AckClusterComponent(
            f"{self._name}-ack",
            # ACK scales no pool until node auto scaling is on for the cluster.
            ack_cluster_args(settings, node_autoscaling=any(autoscaled)),
            pulumi.ResourceOptions(parent=self),
        )
        system_disk = cast(
            AckSystemDiskArgs, settings.node_system_disk.model_dump(exclude_none=True)
        )
        switches = cluster.node_vswitch_ids
        pools = {
            pf.name: AckGpuNodePool(
                f"{self._name}-gpu-{pf.name}",
                {
                    "cluster_id": cluster.cluster_id,
                    "vswitch_ids": zone_vswitches(settings, switches, _zones(pf)),
                    # The zones became the vSwitches above.
                    "pool": gpu_pool_args(
                        replace(pf, pool=pf.pool.model_copy(update={"zones": []}))
                    ),
                    "protect": settings.protect,
                    "tags": settings.tags,
                    "system_disk": system_disk,
                },
                pulumi.ResourceOptions(parent=self),
            )
            for pf in pool_facts
        }
        # CPU pools wait for the cluster only: not for the GPU pools, nor they for them.
        cpu_pools = {
            pool.name: AckCpuNodePool(
                f"{self._name}-cpu-{pool.name}",
                {
                    "cluster_id": cluster.cluster_id,
                    "vswitch_ids": zone_vswitches(settings, cluster.node_vswitch_ids, pool.zones),
                    # The zones became the vSwitches above.
                    "pool": cpu_pool_args(pool.model_copy(update={"zones": []})),
                    "protect": settings.protect,
                    "tags": settings.tags,
                    "system_disk": system_disk,
                },
                pulumi.ResourceOptions(parent=self),
            )
            for pool in cpu_settings
        }
        sharing = AckGpuSharing(
            f"{self._name}-gpu-sharing",
            ack_gpu_sharing_args(
                self._platform.settings.ack_gpu_sharing,
                [gpu_pool_args(pf) for pf in pool_facts],
                settings.cluster_spec,
            ),
            pulumi.ResourceOptions(
                parent=self, providers={"kubernetes": cluster.provider}, depends_on=[cluster]
            ),
        )
        outputs: dict[str, Any] = {
            "clusterId": cluster.cluster_id,
            "vpcId": cluster.vpc_id,
            "rrsaOidcIssuerUrl": cluster.rrsa_oidc_issuer_url,
            "gpuPools": {name: pool.facts for name, pool in pools.items()},
            "ackGpuSharing": sharing.versions,
        }
        if cpu_pools:
            outputs["cpuPools"] = {name: pool.facts for name, pool in cpu_pools.items()}
        # The exporter's PodMonitor needs the managed Prometheus add-on's CRDs.
        prometheus_addon = self._ack_monitoring(settings, cluster, outputs)
        return ClusterHandle(
            cluster.cluster_name,
            cluster.kubeconfig,
            cluster.provider,
            node_pools={name: pool.node_pool_id for name, pool in pools.items()},
            gpu_owners=[sharing],
            exporter_waits_for=prometheus_addon,
            outputs=outputs,
        )

    def _ack_monitoring(
        self, settings: AckClusterSettings, cluster: AckClusterComponent, outputs: dict[str, Any]
    ) -> list[pulumi.Resource]:
        """Managed Prometheus with the GPU alerts, container logs to SLS (ACK); adds their
        stack outputs and returns what the in-cluster layer must wait for."""
        from .ack.monitoring import AckMonitoring, AckMonitoringArgs
        from .pool_args import gpu_pool_args

        config = self._platform.settings
        metrics = metrics_plan(self._platform)
        prometheus = metrics is not None and metrics.arms_prometheus
        namespaces = log_namespaces(self._platform)
        logs = config.observability.logs.enabled and bool(namespaces)
        if not (prometheus or logs):
            return []
        args: AckMonitoringArgs = {
            "cluster_id": cluster.cluster_id,
            "metrics": prometheus,
            "pools": [gpu_pool_args(pf) for pf in self._platform.pools.values()],
            "exporter_namespace": config.observability.metrics.namespace,
            "logs": logs,
            "log_namespaces": namespaces,
            "retention_days": config.observability.logs.retention_days,
            "kubernetes_provider": cluster.provider,
        }
        if settings.audit_log_project is not None:
            args["log_project"] = settings.audit_log_project
        monitoring = AckMonitoring(
            f"{self._name}-monitoring",
            args,
            # The add-ons need the cluster's system nodes.
            pulumi.ResourceOptions(parent=self, depends_on=[cluster]),
        )
        if prometheus:
            outputs["prometheusQueryEndpoint"] = monitoring.prometheus_query_endpoint
            outputs["prometheusAlertRules"] = monitoring.alert_rule_names
        if logs:
            outputs["logProject"] = monitoring.log_project
            outputs["logstores"] = monitoring.logstores
        return [monitoring.prometheus_addon] if monitoring.prometheus_addon else []

    def _existing(self, settings: ExistingClusterSettings) -> ClusterHandle:
        from .existing.cluster import ExistingCluster, ExistingClusterArgs

        args = ExistingClusterArgs(cluster_name=settings.name)
        secret_kubeconfig = pulumi.Config(NAMESPACE).get_secret("kubeconfig")
        if secret_kubeconfig is not None:
            args["kubeconfig"] = secret_kubeconfig
        if settings.kubeconfig_path is not None:
            args["kubeconfig_path"] = settings.kubeconfig_path
        if settings.context is not None:
            args["context"] = settings.context
        existing = ExistingCluster(
            f"{self._name}-cluster", args, pulumi.ResourceOptions(parent=self)
        )
        return ClusterHandle(existing.cluster_name, existing.kubeconfig, existing.provider)

    # --- in-cluster layers ---------------------------------------------------------------

    def _gpu_layer(self, cluster: ClusterHandle, opts: pulumi.ResourceOptions) -> None:
        """Device plugin with per-pool configs (or the GPU Operator), AMD's GPU Operator for AMD
        pools, and driver checks."""
        from .driver_check import DriverCheck, checked_pools
        from .nvidia.device_plugin import NvidiaDevicePlugin
        from .nvidia.gpu_operator import NvidiaGpuOperator
        from .pool_args import gpu_pool_args

        config, pools = self._platform.settings, list(self._platform.pools.values())
        # Every in-cluster component takes the pools as args and the cloud that gives them
        # their meaning; it resolves them again, to the same facts.
        pool_args = [gpu_pool_args(pf) for pf in pools]
        owner: pulumi.Resource | None = None
        if config.gpu_operator.enabled:
            operator = config.gpu_operator
            metrics = metrics_plan(self._platform)
            owner = NvidiaGpuOperator(
                f"{self._name}-gpu-operator",
                {
                    "pools": pool_args,
                    "cloud": config.cloud,
                    "version": operator.version,
                    "namespace": operator.namespace,
                    "resources": cast(
                        "GpuComponentResourcesArgs",
                        operator.resources.model_dump(exclude_none=True),
                    ),
                    # The operator's own dcgm-exporter: scraped from the same namespaces.
                    "scraper_namespaces": list(metrics.scraper_namespaces) if metrics else [],
                },
                opts,
            )
        # Pools that all use ACK's own sharing components need no NVIDIA plugin at all.
        elif config.device_plugin.enabled and (
            not pools or any(pool.uses_device_plugin for pool in pools)
        ):
            plugin = config.device_plugin
            owner = NvidiaDevicePlugin(
                f"{self._name}-device-plugin",
                {
                    "pools": pool_args,
                    "cloud": config.cloud,
                    "version": plugin.version,
                    "gfd": plugin.gfd,
                    "namespace": plugin.namespace,
                    "resources": cast(
                        "GpuComponentResourcesArgs", plugin.resources.model_dump(exclude_none=True)
                    ),
                    "values": dict(plugin.values),
                },
                opts,
            )
        amd_owner = self._amd_gpu_layer(pool_args, opts)
        dra_owner = self._dra_driver(pool_args, opts)
        if checked_pools(pools):
            # The checks need the GPU components (not the pools: each Job waits for its own).
            owners = [o for o in (owner, amd_owner, dra_owner) if o is not None]
            after_owner = pulumi.ResourceOptions(depends_on=[*owners, *cluster.gpu_owners])
            driver_check = config.driver_check
            check_args: DriverCheckArgs = {
                "pools": pool_args,
                "cloud": config.cloud,
                "min_driver_major": driver_check.min_driver_major,
                "image": driver_check.image,
                "amd_image": driver_check.amd_image,
                "namespace": driver_check.namespace,
            }
            if driver_check.schedule is not None:
                check_args["schedule"] = driver_check.schedule
            if cluster.node_pools:
                check_args["node_pools"] = dict(cluster.node_pools)
            DriverCheck(
                f"{self._name}-driver-check",
                check_args,
                pulumi.ResourceOptions.merge(opts, after_owner),
            )
        self._gpu_metrics(
            pool_args,
            pulumi.ResourceOptions.merge(
                opts, pulumi.ResourceOptions(depends_on=cluster.exporter_waits_for)
            ),
        )
        # BP-15: shared GPUs are one trust domain; say so on every run, and as an output.
        warnings = shared_gpu_warnings(self._platform)
        for message in warnings.values():
            pulumi.log.warn(message, self)
        self.shared_gpu_warnings = pulumi.Output.from_input(warnings)

    def _dra_driver(
        self, pool_args: list[Any], opts: pulumi.ResourceOptions
    ) -> pulumi.Resource | None:
        """NVIDIA's DRA driver when a pool has ``allocation: dra`` (docs/dra.md)."""
        if not any(pf.uses_dra for pf in self._platform.pools.values()):
            return None
        from .nvidia.dra_driver import NvidiaDraDriver, NvidiaDraDriverArgs

        config = self._platform.settings
        args: NvidiaDraDriverArgs = {
            "pools": pool_args,
            "cloud": config.cloud,
            "version": config.dra_driver.version,
            "namespace": config.dra_driver.namespace,
            "compute_domains": config.dra_driver.compute_domains,
        }
        version = getattr(config.cluster, "kubernetes_version", None)
        if version is not None:
            args["kubernetes_version"] = version
        return NvidiaDraDriver(f"{self._name}-dra-driver", args, opts)

    def _amd_gpu_layer(
        self, pool_args: list[Any], opts: pulumi.ResourceOptions
    ) -> pulumi.Resource | None:
        """AMD's GPU Operator (and the cert-manager it needs) when a pool has an AMD size; its
        exporter is scraped like ours (docs/amd.md)."""
        if not any(pf.is_amd for pf in self._platform.pools.values()):
            return None
        from .amd.gpu_operator import AmdGpuOperator, AmdGpuOperatorArgs
        from .cert_manager import CertManager

        config = self._platform.settings
        settings = config.amd_gpu_operator
        after: list[pulumi.Resource] = []
        if settings.cert_manager.install:
            manager = settings.cert_manager
            after.append(
                CertManager(
                    f"{self._name}-cert-manager",
                    {
                        "version": manager.version,
                        "namespace": manager.namespace,
                        "cloud": config.cloud,
                    },
                    opts,
                )
            )
        args = cast(
            AmdGpuOperatorArgs,
            {
                **settings.model_dump(
                    exclude_none=True, include={"version", "namespace", "driver", "images"}
                ),
                "pools": pool_args,
                "cloud": config.cloud,
            },
        )
        metrics = metrics_plan(self._platform)
        if metrics is not None:
            args["scrape"] = metrics.scrape
            args["scraper_namespaces"] = list(metrics.scraper_namespaces)
            # Our dcgm-exporter release brings the PrometheusRule; without one, AMD's side does.
            args["prometheus_rules"] = metrics.prometheus_rules and not metrics.our_exporter
        # The release needs cert-manager's CRDs (KMM's webhook certificate).
        return AmdGpuOperator(
            f"{self._name}-amd-gpu-operator",
            args,
            pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(depends_on=after)),
        )

    def _gpu_metrics(self, pool_args: list[Any], opts: pulumi.ResourceOptions) -> None:
        """NVIDIA's dcgm-exporter on the GPU nodes, scraped the way the cloud does it."""
        from .nvidia.dcgm_exporter import DcgmExporter, DcgmExporterArgs

        metrics = metrics_plan(self._platform)
        if metrics is None or not metrics.our_exporter:
            return
        settings = self._platform.settings.observability.metrics
        args: DcgmExporterArgs = {
            "pools": pool_args,
            "cloud": self._platform.settings.cloud,
            "version": settings.exporter_version,
            "namespace": settings.namespace,
            "scrape": metrics.scrape,
            "scraper_namespaces": list(metrics.scraper_namespaces),
            "prometheus_rules": metrics.prometheus_rules,
            "values": dict(settings.values),
        }
        DcgmExporter(f"{self._name}-gpu-metrics", args, opts)
        unattributed = unattributed_gpu_pools(self._platform)
        if unattributed:
            pulumi.log.warn(unattributed_warning(unattributed), self)
        unattributed_dra = unattributed_dra_pools(self._platform)
        if unattributed_dra:
            warning = unattributed_dra_warning(unattributed_dra, settings.exporter_version)
            pulumi.log.warn(warning, self)
        if not metrics.scraper_namespaces:
            pulumi.log.warn(
                f"GPU metrics: the exporter's namespace {settings.namespace!r} denies all "
                "ingress and no scraper may reach it; set observability.metrics."
                "scraperNamespaces to the namespace of your Prometheus",
                self,
            )

    def _workloads(self, cluster: ClusterHandle, opts: pulumi.ResourceOptions) -> list[str]:
        """GPU workload namespaces and the in-cluster admission policy."""
        from .gpu_admission_policy import GpuAdmissionPolicy
        from .gpu_workload_namespace import GpuWorkloadNamespace
        from .pool_args import gpu_pool_args

        platform = self._platform
        cluster_gpu = platform.cluster_gpu_resources
        device_classes = cluster_device_classes(platform.pools.values())
        queued = platform.settings.queues is not None
        created: list[pulumi.Resource] = []
        for workload in platform.settings.workloads:
            # The workload's own fields; ``pools`` becomes the pools themselves.
            fields = workload.model_dump(exclude_none=True, exclude={"pools", "gpu_quota"})
            pools = [gpu_pool_args(pf) for pf in platform.workload_pools(workload)]
            quota = (
                {"gpu_quota_per_resource": workload.gpu_quota}
                if isinstance(workload.gpu_quota, dict)
                else {"gpu_quota": workload.gpu_quota}
            )
            queue: dict[str, str] = {}
            if queued:  # a stack without queues does not import them
                from gpu_platform.plan.queues import local_queue_name

                queue["local_queue"] = local_queue_name(workload)
            created.append(
                GpuWorkloadNamespace(
                    f"{self._name}-{workload.name}",
                    cast(
                        "GpuWorkloadNamespaceArgs",
                        {
                            **fields,
                            **quota,
                            "pools": pools,
                            "cluster_gpu_resources": cluster_gpu,
                            "cluster_device_classes": device_classes,
                            "cloud": platform.settings.cloud,
                            **queue,
                        },
                    ),
                    opts,
                )
            )
        GpuAdmissionPolicy(
            f"{self._name}-gpu-admission", {"action": platform.settings.admission.action}, opts
        )
        if queued:
            # The LocalQueues live in the workload namespaces.
            self._queues(
                pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(depends_on=created))
            )
        return [workload.name for workload in platform.settings.workloads]

    def _queues(self, opts: pulumi.ResourceOptions) -> None:
        """Kueue and the queues of the workload namespaces (docs/queues.md)."""
        from .gpu_queues import GpuQueues, GpuQueuesArgs
        from .pool_args import gpu_pool_args

        platform = self._platform
        settings = platform.settings.queues
        assert settings is not None
        namespaces = []
        for workload in platform.settings.workloads:
            entry: dict[str, Any] = {"name": workload.name, "type": workload.type}
            if isinstance(workload.gpu_quota, dict):
                entry["gpu_quota_per_resource"] = dict(workload.gpu_quota)
            else:
                entry["gpu_quota"] = workload.gpu_quota
            if workload.pools is not None:
                entry["pools"] = list(workload.pools)
            namespaces.append(entry)
        args = cast(
            GpuQueuesArgs,
            {
                **settings.model_dump(exclude_none=True),
                "pools": [gpu_pool_args(pf) for pf in platform.pools.values()],
                "namespaces": namespaces,
                "cloud": platform.settings.cloud,
                "admission_action": platform.settings.admission.action,
            },
        )
        metrics = metrics_plan(platform)
        if metrics is not None:
            args["scrape"] = metrics.scrape
            args["scraper_namespaces"] = list(metrics.scraper_namespaces)
        GpuQueues(f"{self._name}-queues", args, opts)


def _zones(pf: PoolFacts) -> list[str]:
    """The zones a pool the platform creates asks for."""
    return pf.pool.zones if isinstance(pf.pool, ManagedGpuPoolSettings) else []
