"""DcgmExporter: NVIDIA's dcgm-exporter on exactly the GPU nodes, every GPU attributed to its pod.

One exporter pod per GPU node (it tolerates the GPU taint and selects the NVIDIA plugin's nodes
by its labels and ACK's shared pools' nodes by our pool label, never a CPU node), told every
resource name it can attribute so that time-sliced and MPS GPUs are attributed too, with
per-pod series on shared GPUs. On ACK's shared pools it measures the GPUs but cannot name the
pods holding ``aliyun.com/gpu-mem``
(``gpu_facts.nvidia.dcgm_exporter_chart.UNATTRIBUTABLE_RESOURCES``).
Its namespace denies all traffic but the scrape: ingress on the metrics port from the scraper's
namespaces. No egress, but to the API server when its DRA attribution is on (an exporter that
reads ``resource.k8s.io/v1`` ResourceSlices, on DRA pools: ``plan.metrics.dra_attribution``):
otherwise the chart grants it no API access (templates/clusterrole.yaml) and it reads the
kubelet's pod-resources socket on the node.
How the scraper finds it is the caller's choice (``plan.metrics.SCRAPE_MODES``); nothing that
needs a CRD is created unless asked, so the release installs where the CRD does not exist.
"""

from typing import Any, NotRequired, TypedDict, cast, get_args

import pulumi
import pulumi_kubernetes as k8s
from pulumi_kubernetes.meta.v1 import LabelSelectorArgs, ObjectMetaArgs
from pulumi_kubernetes.networking import v1 as net

from gpu_facts.ack.addons import ARMS_DISCOVERY_ANNOTATION, ARMS_NAMESPACE
from gpu_facts.aks.monitor import AZURE_MONITOR_SCRAPER_NAMESPACE
from gpu_facts.nvidia.dcgm_exporter_chart import (
    CHART_NAME,
    CHART_REPO,
    DEFAULT_NAMESPACE,
    DEFAULT_VERSION,
    METRICS_PORT,
)
from gpu_platform.plan.metrics import (
    ScrapeMode,
    exporter_problems,
    exporter_values,
    exposed_resources,
    reads_resource_slices,
    target_relabelings,
)
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.plan.prometheus_rules import rule_groups

from ..errors import Problem, raise_if_any, shape_problems
from ..gpu_workload_namespace import DENY_ALL_POLICY, NAMESPACE_NAME_LABEL, deny_all_spec
from ..pool_args import DEFAULT_CLOUD, GpuPoolArgs, cloud_arg, validate_gpu_pools_args
from ..recorded_inputs import recorded_inputs
from ..system_charts import API_SERVER_POLICY, api_server_egress_spec, release_in_own_namespace
from ..type_tokens import formerly, type_token

COMPONENT = "DcgmExporter"
SCRAPE_POLICY = "allow-scrape"
"""The NetworkPolicy that lets the scrapers' namespaces read a metrics port
(``scrape_policy_spec``), in each namespace whose exporter is scraped."""
AZURE_MONITOR_GROUP = "azmonitoring.coreos.com/v1"
"""The group AKS managed Prometheus reads PodMonitors from (not ``monitoring.coreos.com``)."""
OPERATOR_GROUP = "monitoring.coreos.com/v1"
"""The Prometheus Operator's group; ACK's managed Prometheus agent reads it too."""
DEFAULT_SCRAPERS: dict[str, list[str]] = {
    "azureMonitor": [AZURE_MONITOR_SCRAPER_NAMESPACE],
    "armsPrometheus": [ARMS_NAMESPACE],
}
"""Where the managed collectors run: the namespaces let in when none are given."""
EXPORTER_SELECTOR = {"app.kubernetes.io/name": CHART_NAME}
"""The chart's selector label on the exporter pods (templates/_helpers.tpl)."""


class DcgmExporterArgs(TypedDict):
    """GPU metrics for the GPU pools of one cluster."""

    pools: list[GpuPoolArgs]
    """The cluster's GPU pools: every one gets the exporter, which is told every resource name
    the NVIDIA device plugin's pools expose (ACK's ``aliyun.com/gpu-mem`` it cannot attribute)."""
    cloud: NotRequired[str]
    """``aks``, ``ack`` or ``existing`` (default): how a pool's sharing mode is read."""
    version: NotRequired[str]
    """Chart version, 4.0.0 or newer (default 4.8.2)."""
    namespace: NotRequired[str]
    """Namespace of the release (default ``gpu-metrics``)."""
    scrape: NotRequired[str]
    """How Prometheus finds the exporter: ``annotations`` (default: ``prometheus.io/*`` pod
    annotations), ``serviceMonitor`` (Prometheus Operator), ``azureMonitor`` (AKS managed
    Prometheus: an ``azmonitoring.coreos.com`` PodMonitor) or ``armsPrometheus`` (ACK managed
    Prometheus: a ``monitoring.coreos.com`` PodMonitor marked for its agent)."""
    scraper_namespaces: NotRequired[list[str]]
    """Namespaces whose pods may scrape the exporter (default ``kube-system`` with
    ``azureMonitor``, ``arms-prom`` with ``armsPrometheus``)."""
    prometheus_rules: NotRequired[bool]
    """With ``serviceMonitor``: also create a ``PrometheusRule`` with the GPU rules and alerts
    (``plan.prometheus_rules``)."""
    values: NotRequired[dict[str, Any]]
    """Extra chart values, merged over ours."""


class DcgmExporter(pulumi.ComponentResource):
    """NVIDIA's dcgm-exporter on the GPU nodes, its deny-all namespace and its scrape path."""

    namespace: pulumi.Output[str]
    """Namespace of the release."""
    resource_names: pulumi.Output[list[str]]
    """The GPU resource names the exporter attributes to pods."""

    def __init__(
        self, name: str, args: DcgmExporterArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("DcgmExporter", name, shape_problems(args, DcgmExporterArgs))
        pools, scrape, problems = validate_dcgm_exporter_args(args)
        raise_if_any(COMPONENT, name, problems)
        super().__init__(
            type_token("DcgmExporter"),
            name,
            recorded_inputs(args),
            formerly("gpu-platform:gpu:DcgmExporter", opts),
        )

        namespace = args.get("namespace", DEFAULT_NAMESPACE)
        scrapers = args.get("scraper_namespaces") or DEFAULT_SCRAPERS.get(scrape, [])
        version = args.get("version", DEFAULT_VERSION)
        values = exporter_values(pools, scrape, args.get("values"), version)
        policies = {DENY_ALL_POLICY: deny_all_spec()}
        if scrapers:
            policies[SCRAPE_POLICY] = scrape_policy_spec(scrapers)
        if reads_resource_slices(values):
            # DRA attribution reads the node's ResourceSlices (and pods) from the API server.
            policies[API_SERVER_POLICY] = api_server_egress_spec(cloud_arg(args), EXPORTER_SELECTOR)
        # SYS_ADMIN for the profiling counters: only Pod Security "privileged" admits it.
        ns, release = release_in_own_namespace(
            self,
            name,
            namespace=namespace,
            pod_security="privileged",
            policies=policies,
            chart=CHART_NAME,
            repo=CHART_REPO,
            version=version,
            values=values,
        )
        after_release = pulumi.ResourceOptions(parent=self, depends_on=[ns, release])
        if scrape in ("azureMonitor", "armsPrometheus"):
            arms = scrape == "armsPrometheus"
            _monitor(
                f"{name}-pod-monitor",
                api_version=OPERATOR_GROUP if arms else AZURE_MONITOR_GROUP,
                kind="PodMonitor",
                namespace=namespace,
                spec=pod_monitor_spec(),
                annotations={ARMS_DISCOVERY_ANNOTATION: "true"} if arms else None,
                opts=after_release,
            )
        if scrape == "serviceMonitor" and args.get("prometheus_rules", False):
            _monitor(
                f"{name}-rules",
                api_version=OPERATOR_GROUP,
                kind="PrometheusRule",
                namespace=namespace,
                spec={"groups": rule_groups(pools, namespace)},
                opts=after_release,
            )

        self.namespace = pulumi.Output.from_input(namespace)
        self.resource_names = pulumi.Output.from_input(exposed_resources(pools))
        self.register_outputs({"namespace": self.namespace, "resourceNames": self.resource_names})


def validate_dcgm_exporter_args(
    args: DcgmExporterArgs,
) -> tuple[list[PoolFacts], ScrapeMode, list[Problem]]:
    """The args resolved, or every problem with its property path."""
    pools, problems = validate_gpu_pools_args(
        args.get("cloud", DEFAULT_CLOUD), args["pools"], "pools"
    )
    scrape = cast(ScrapeMode, args.get("scrape", "annotations"))
    if scrape not in get_args(ScrapeMode):
        problems.append(("scrape", f"one of {', '.join(get_args(ScrapeMode))}, not {scrape!r}"))
    problems += exporter_problems(args.get("version", DEFAULT_VERSION), args.get("values") or {})
    return pools, scrape, problems


def scrape_policy_spec(
    scraper_namespaces: list[str],
    selector: dict[str, str] = EXPORTER_SELECTOR,
    port: int = METRICS_PORT,
) -> net.NetworkPolicySpecArgs:
    """Ingress to the exporter pods on the metrics port from the scrapers' namespaces only."""
    return net.NetworkPolicySpecArgs(
        pod_selector=LabelSelectorArgs(match_labels=selector),
        policy_types=["Ingress"],
        ingress=[
            net.NetworkPolicyIngressRuleArgs(
                from_=[
                    net.NetworkPolicyPeerArgs(
                        namespace_selector=LabelSelectorArgs(
                            match_labels={NAMESPACE_NAME_LABEL: scraper}
                        )
                    )
                    for scraper in scraper_namespaces
                ],
                ports=[net.NetworkPolicyPortArgs(protocol="TCP", port=port)],
            )
        ],
    )


def pod_monitor_spec() -> dict[str, Any]:
    """The PodMonitor of the exporter pods: the chart's ``metrics`` container port, the
    exporter's pod attribution kept (``plan.metrics.DROPPED_TARGET_LABELS``)."""
    return {
        "selector": {"matchLabels": EXPORTER_SELECTOR},
        "podMetricsEndpoints": [
            {
                "port": "metrics",
                "path": "/metrics",
                "honorLabels": True,
                "relabelings": target_relabelings(),
            }
        ],
    }


def _monitor(
    resource_name: str,
    *,
    api_version: str,
    kind: str,
    namespace: str,
    spec: dict[str, Any],
    opts: pulumi.ResourceOptions,
    annotations: dict[str, str] | None = None,
) -> k8s.apiextensions.CustomResource:
    object_name = f"{CHART_NAME}-{kind.lower()}"
    return k8s.apiextensions.CustomResource(
        resource_name,
        api_version=api_version,
        kind=kind,
        metadata=ObjectMetaArgs(name=object_name, namespace=namespace, annotations=annotations),
        spec=spec,
        opts=opts,
    )
