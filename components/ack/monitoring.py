"""ACK observability: GPU metrics to Alibaba Cloud's managed Prometheus, container logs to SLS.

- Metrics: the ``arms-prometheus`` add-on links the cluster to Managed Service for Prometheus
  (ARMS). It scrapes our dcgm-exporter through the PodMonitor ``DcgmExporter`` marks for it
  (``scrape: armsPrometheus``), and the GPU alerts of ``plan.prometheus_rules`` become ARMS
  Prometheus alert rules. ARMS evaluates recording rules only from its RecordingRule.yaml, which
  no SDK resource writes: docs/observability.md gives the one command.
- One exporter per GPU node: the add-on brings its own GPU exporter, which tolerates no custom
  taint, so it stays off our (tainted) GPU nodes and ours is the only one there
  (``gpu_facts.ack.addons.ARMS_GPU_EXPORTER``).
- Logs: the ``logtail-ds`` add-on, one SLS logstore per namespace with the retention asked for
  and an index to search it by, and one ``AliyunLogConfig`` per namespace that collects its
  containers' stdout and stderr into it. The logstores are ours (typed, their retention kept by
  every ``pulumi up``); the log controller only finds them.

Facts and sources: ``gpu_facts.ack.addons``.
"""

import re
from typing import Any, NotRequired, TypedDict

import pulumi
import pulumi_kubernetes as k8s
from pulumi_alicloud import arms, cs, log

from gpu_facts.ack.addons import (
    ARMS_PROMETHEUS_ADDON,
    LOG_CONFIG_API_VERSION,
    LOG_CONFIG_KIND,
    LOG_CONFIG_NAMESPACE,
    LOGTAIL_ADDON,
    SLS_DEFAULT_RETENTION_DAYS,
    SLS_MAX_RETENTION_DAYS,
    SLS_PROJECT_PREFIX,
    STDOUT_FIELDS,
    STDOUT_INPUT,
    arms_duration,
)
from gpu_facts.nvidia.dcgm_exporter_chart import DEFAULT_NAMESPACE
from gpu_platform.plan.names import sls_project_problem
from gpu_platform.plan.observability import logstore_name, logstore_name_problem
from gpu_platform.plan.prometheus_rules import ksm_resource, rule_groups

from ..errors import Problem, raise_if_any, shape_problems
from ..pool_args import GpuPoolArgs, validate_gpu_pools_args
from ..recorded_inputs import recorded_inputs
from ..type_tokens import formerly, type_token

COMPONENT = "AckMonitoring"
SHARDS = 2
"""Shards of a new logstore (the log controller's default); they split as the volume grows."""
MAX_SHARDS = 64


class AckMonitoringArgs(TypedDict):
    """What an ACK cluster sends to Managed Service for Prometheus and Simple Log Service."""

    cluster_id: pulumi.Input[str]
    """ACK cluster ID (its Prometheus instance carries the same ID)."""
    metrics: NotRequired[bool]
    """Managed Prometheus: the ``arms-prometheus`` add-on and the GPU alerts (default true)."""
    pools: NotRequired[list[GpuPoolArgs]]
    """The cluster's GPU pools, for the capacity alerts."""
    exporter_namespace: NotRequired[str]
    """Namespace of the GPU metrics exporter, for its down alert (default ``gpu-metrics``)."""
    logs: NotRequired[bool]
    """Container logs of ``logNamespaces`` to SLS (default true); needs
    ``kubernetesProvider``."""
    log_namespaces: NotRequired[list[str]]
    """Namespaces whose container stdout and stderr are collected, one logstore each."""
    log_project: NotRequired[pulumi.Input[str]]
    """SLS project of the logstores; unset: ACK's ``k8s-log-<cluster ID>`` (where the
    cluster's audit logs go by default)."""
    retention_days: NotRequired[int]
    """Days each logstore keeps logs, 1 to 3650 (default 30)."""
    kubernetes_provider: NotRequired[k8s.Provider]
    """Provider of the cluster, for the ``AliyunLogConfig`` objects."""


class AckMonitoring(pulumi.ComponentResource):
    """Managed Prometheus with the GPU alerts, and per-namespace container logs in SLS."""

    prometheus_query_endpoint: pulumi.Output[str]
    """PromQL HTTP API of the cluster's Prometheus instance, inside the VPC (empty without
    metrics)."""
    alert_rule_names: pulumi.Output[list[str]]
    """Names of the ARMS Prometheus alert rules."""
    log_project: pulumi.Output[str]
    """SLS project of the container logs (empty without logs)."""
    logstores: pulumi.Output[dict[str, str]]
    """Logstore of each collected namespace."""
    prometheus_addon: cs.KubernetesAddon | None
    """The managed Prometheus add-on (its CRDs carry the exporter's PodMonitor); None without
    metrics."""

    def __init__(
        self, name: str, args: AckMonitoringArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("AckMonitoring", name, shape_problems(args, AckMonitoringArgs))
        problems = _problems(args)
        pools, pool_problems = validate_gpu_pools_args("ack", args.get("pools") or [], "pools")
        raise_if_any(COMPONENT, name, problems + pool_problems)
        super().__init__(
            type_token("AckMonitoring"),
            name,
            recorded_inputs(args, leave_out=("kubernetes_provider",)),
            formerly("gpu-platform:alicloud:AckMonitoring", opts),
        )
        cluster_id = args["cluster_id"]

        self.prometheus_addon = None
        self.prometheus_query_endpoint = pulumi.Output.from_input("")
        alerts: list[str] = []
        if args.get("metrics", True):
            addon = cs.KubernetesAddon(
                f"{name}-arms-prometheus",
                cluster_id=cluster_id,
                name=ARMS_PROMETHEUS_ADDON,
                opts=pulumi.ResourceOptions(parent=self),
            )
            after_addon = pulumi.ResourceOptions(parent=self, depends_on=[addon])
            namespace = args.get("exporter_namespace", DEFAULT_NAMESPACE)
            for rule in arms_alerts(rule_groups(pools, namespace)):
                arms.PrometheusAlertRule(
                    f"{name}-{_slug(rule['name'])}",
                    cluster_id=cluster_id,
                    prometheus_alert_rule_name=rule["name"],
                    expression=rule["expr"],
                    duration=rule["duration"],
                    message=rule["message"],
                    labels=[
                        arms.PrometheusAlertRuleLabelArgs(name=k, value=v)
                        for k, v in sorted(rule["labels"].items())
                    ],
                    annotations=[
                        arms.PrometheusAlertRuleAnnotationArgs(name=k, value=v)
                        for k, v in sorted(rule["annotations"].items())
                    ],
                    notify_type="ALERT_MANAGER",
                    opts=after_addon,
                )
                alerts.append(rule["name"])
            instances = arms.get_prometheus_output(
                ids=pulumi.Output.from_input(cluster_id).apply(lambda c: [c]),
                enable_details=True,
                opts=pulumi.InvokeOutputOptions(parent=self, depends_on=[addon]),
            )
            self.prometheus_query_endpoint = instances.prometheis.apply(
                lambda found: (found[0].http_api_intra_url or "") if found else ""
            )
            self.prometheus_addon = addon
        self.alert_rule_names = pulumi.Output.from_input(alerts)

        self.log_project = pulumi.Output.from_input("")
        stores: dict[str, str] = {}
        if args.get("logs", True):
            project = pulumi.Output.from_input(
                args.get("log_project") or pulumi.Output.concat(SLS_PROJECT_PREFIX, cluster_id)
            )
            self._logs(name, args, project)
            self.log_project = project
            stores = {ns: logstore_name(ns) for ns in sorted(args.get("log_namespaces") or [])}
        self.logstores = pulumi.Output.from_input(stores)
        self.register_outputs(
            {
                "prometheusQueryEndpoint": self.prometheus_query_endpoint,
                "alertRuleNames": self.alert_rule_names,
                "logProject": self.log_project,
                "logstores": self.logstores,
            }
        )

    def _logs(self, name: str, args: AckMonitoringArgs, project: pulumi.Output[str]) -> None:
        logtail = cs.KubernetesAddon(
            f"{name}-logtail",
            cluster_id=args["cluster_id"],
            name=LOGTAIL_ADDON,
            config=pulumi.Output.json_dumps({"sls_project_name": project}),
            opts=pulumi.ResourceOptions(parent=self),
        )
        retention = args.get("retention_days", SLS_DEFAULT_RETENTION_DAYS)
        for namespace in sorted(args.get("log_namespaces") or []):
            store_name = logstore_name(namespace)
            # The project exists once logtail-ds is installed (it creates ACK's default one).
            store = log.Store(
                f"{name}-{store_name}",
                project_name=project,
                logstore_name=store_name,
                retention_period=retention,
                shard_count=SHARDS,
                auto_split=True,
                max_split_shard_count=MAX_SHARDS,
                append_meta=True,
                opts=pulumi.ResourceOptions(parent=self, depends_on=[logtail]),
            )
            index = log.StoreIndex(
                f"{name}-{store_name}-index",
                project=project,
                logstore=store.logstore_name,
                full_text=log.StoreIndexFullTextArgs(case_sensitive=False),
                field_searches=[
                    log.StoreIndexFieldSearchArgs(name=field, type="text", enable_analytics=True)
                    for field in STDOUT_FIELDS
                ],
                opts=pulumi.ResourceOptions(parent=self),
            )
            k8s.apiextensions.CustomResource(
                f"{name}-{store_name}-config",
                api_version=LOG_CONFIG_API_VERSION,
                kind=LOG_CONFIG_KIND,
                metadata=k8s.meta.v1.ObjectMetaArgs(
                    name=store_name, namespace=LOG_CONFIG_NAMESPACE
                ),
                spec=project.apply(lambda p, ns=namespace: log_config_spec(p, ns)),
                opts=pulumi.ResourceOptions(
                    parent=self,
                    provider=args.get("kubernetes_provider"),
                    # The CRD comes with logtail-ds; the logstore must exist (with its
                    # retention and index) before the controller looks for it.
                    depends_on=[logtail, store, index],
                ),
            )


def _problems(args: AckMonitoringArgs) -> list[Problem]:
    problems: list[Problem] = []
    retention = args.get("retention_days", SLS_DEFAULT_RETENTION_DAYS)
    if not 1 <= retention <= SLS_MAX_RETENTION_DAYS:
        problems.append(("retentionDays", f"1 to {SLS_MAX_RETENTION_DAYS}, not {retention}"))
    if not args.get("logs", True):
        return problems
    project = args.get("log_project")
    if isinstance(project, str) and (project_problem := sls_project_problem(project)) is not None:
        problems.append(("logProject", project_problem))
    namespaces = args.get("log_namespaces") or []
    if not namespaces:
        problems.append(("logNamespaces", "name at least one namespace whose logs to collect"))
    if "kubernetes_provider" not in args:
        problems.append(("kubernetesProvider", "required with logs (for the AliyunLogConfigs)"))
    seen: set[str] = set()
    for i, namespace in enumerate(namespaces):
        problem = logstore_name_problem(namespace)
        if namespace in seen:
            problem = f"{namespace!r} is listed twice"
        seen.add(namespace)
        if problem is not None:
            problems.append((f"logNamespaces[{i}]", problem))
    return problems


def log_config_spec(project: str, namespace: str) -> dict[str, Any]:
    """An ``AliyunLogConfig``: stdout and stderr of every container in ``namespace`` into its
    logstore of ``project`` (the default machine group: every node of the cluster)."""
    name = logstore_name(namespace)
    return {
        "project": project,
        "logstore": name,
        "logtailConfig": {
            "inputType": "plugin",
            "configName": name,
            "inputDetail": {
                "plugin": {
                    "inputs": [
                        {
                            "type": STDOUT_INPUT,
                            "detail": {
                                "Stdout": True,
                                "Stderr": True,
                                # A namespace name has no regex metacharacters.
                                "K8sNamespaceRegex": f"^{namespace}$",
                            },
                        }
                    ]
                }
            },
        },
    }


def arms_alerts(groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The alerts of ``plan.prometheus_rules`` groups as ARMS alert rules: a unique name (a capacity
    alert per pool and resource), the wait in whole minutes, the summary as the message.
    Recording rules are left out (ARMS reads them from RecordingRule.yaml only)."""
    alerts = []
    for group in groups:
        for rule in group["rules"]:
            if "alert" not in rule:
                continue
            labels = rule["labels"]
            parts = [rule["alert"]]
            if "pool" in labels:
                parts += [labels["pool"], ksm_resource(labels["resource"])]
            alerts.append(
                {
                    "name": "-".join(parts),
                    "expr": rule["expr"],
                    "duration": arms_duration(rule["for"]),
                    "message": rule["annotations"]["summary"],
                    "labels": labels,
                    "annotations": rule["annotations"],
                }
            )
    return alerts


def _slug(name: str) -> str:
    """A resource-name suffix: ``GpuXidError`` -> ``gpu-xid-error``."""
    return re.sub(r"(?<!^)(?<![-_])(?=[A-Z])", "-", name).lower().replace("_", "-")
