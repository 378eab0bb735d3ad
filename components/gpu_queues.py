"""GpuQueues: GPU quotas that lend and borrow, through Kueue (docs/queues.md).

Kueue itself, from its pinned chart, in its own namespace (Pod Security ``restricted``) on CPU
nodes, denying all traffic but what its one pod needs; then one ResourceFlavor per GPU pool, one
ClusterQueue per workload type in one cohort, and one LocalQueue per workload namespace, as
``plan.queues`` builds them from the same pools and namespaces the platform has. A
ValidatingAdmissionPolicy refuses, in the queued namespaces, a GPU workload that names no
LocalQueue (``gpu_queue_admission_cel``): it would bypass the queue. The namespaces' static
ResourceQuotas stay the hard cap beside the queues.

The workload namespaces must exist (give the components that create them as dependencies) and
carry ``gpu-platform.io/local-queue: <their LocalQueue>`` (``GpuWorkloadNamespace``'s
``localQueue``), which confines Kueue's webhooks to them.

No ``from __future__ import annotations``: the component analyzer reads the args at run time.
"""

from typing import Any, NotRequired, TypedDict, cast

import pulumi
import pulumi_kubernetes as k8s
from pulumi_kubernetes.admissionregistration import v1 as admission
from pulumi_kubernetes.meta.v1 import (
    LabelSelectorArgs,
    LabelSelectorRequirementArgs,
    ObjectMetaArgs,
)
from pulumi_kubernetes.networking import v1 as net
from pulumi_kubernetes.rbac import v1 as rbac
from pydantic import ValidationError

from gpu_facts import kueue
from gpu_facts.aks.monitor import AZURE_MONITOR_SERVICE_ACCOUNT
from gpu_platform.plan.metrics import SCRAPE_MODES, ScrapeMode
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.plan.queue_controller import controller_values, metrics_monitor_spec
from gpu_platform.plan.queue_prometheus_rules import QueueRules, queue_rule_groups
from gpu_platform.plan.queues import (
    QueuesPlan,
    device_class_mappings,
    queue_namespace,
    queue_problems,
    queues_plan,
)
from gpu_platform.settings import QueuesSettings, WorkloadSettings

from .errors import Problem, raise_if_any, shape_problems, validation_problems
from .gpu_admission_policy import VALIDATION_ACTIONS, validating_policy
from .gpu_queue_admission_cel import JUDGED_KINDS, VALIDATIONS, VARIABLES
from .nvidia.dcgm_exporter import (
    AZURE_MONITOR_GROUP,
    OPERATOR_GROUP,
    SCRAPE_POLICY,
    scrape_policy_spec,
)
from .nvidia.gpu_operator import scraper_namespace_problems
from .outputs import known_after
from .pool_args import DEFAULT_CLOUD, GpuPoolArgs, cloud_arg, validate_gpu_pools_args
from .recorded_inputs import recorded_inputs
from .system_charts import (
    release_in_own_namespace,
    system_policies,
    webhook_ingress_spec,
)
from .type_tokens import type_token

COMPONENT = "GpuQueues"
WEBHOOK_POLICY = "allow-webhook-ingress"
VISIBILITY_POLICY = "allow-visibility-ingress"
MONITOR_NAME = "kueue-metrics"
"""Our ServiceMonitor, PrometheusRule and the binding of Kueue's metrics-reader role."""
POLICY_NAME = "gpu-platform-gpu-queues"
"""The queue admission policy and its binding."""
SETTINGS_FIELDS = (
    "version",
    "namespace",
    "cohort",
    "queueing_strategy",
    "types",
    "pending_alert_minutes",
    "metrics_readers",
)
"""The args that are the ``queues`` section of the stack config, field for field."""


class GpuQueueTypeArgs(TypedDict):
    """How one workload type's ClusterQueue shares GPUs with the other types of the cohort."""

    borrow: NotRequired[bool]
    """Whether the type borrows the other types' idle quota (default: every type but
    inference)."""
    borrowing_limit_percent: NotRequired[int]
    """When it borrows: at most this percentage of its own nominal quota, per pool and GPU
    resource (default: no limit)."""
    lending_limit_percent: NotRequired[int]
    """How much of its idle nominal quota the type lends, 0 to 100 (default 100: all of it)."""
    reclaim_within_cohort: NotRequired[str]
    """``Any`` (default), ``LowerPriority`` or ``Never``: whether the type may preempt workloads
    that borrow its quota, to take it back."""
    within_cluster_queue: NotRequired[str]
    """``LowerPriority`` (default), ``LowerOrNewerEqualPriority`` or ``Never``."""
    borrow_within_cohort: NotRequired[str]
    """``Never`` (default) or ``LowerPriority``: whether a borrowing workload may preempt."""


class GpuQueueNamespaceArgs(TypedDict):
    """One workload namespace whose GPU workloads are queued."""

    name: str
    """The namespace (it must exist and carry ``gpu-platform.io/local-queue: <type>``)."""
    type: str
    """Its workload type: its ClusterQueue, and the name of its LocalQueue."""
    gpu_quota: NotRequired[int]
    """GPU quota for every GPU resource its pools expose; give this or
    ``gpuQuotaPerResource``."""
    gpu_quota_per_resource: NotRequired[dict[str, int]]
    """GPU quota per resource name; resources it does not name get 0."""
    pools: NotRequired[list[str]]
    """Names of the pools (of ``pools``) it may use; unset: every pool that is neither shared
    nor AMD."""


class GpuQueuesArgs(TypedDict):
    """Kueue and the queues of a cluster's GPU workload namespaces."""

    pools: list[GpuPoolArgs]
    """The cluster's GPU pools: one ResourceFlavor each."""
    namespaces: list[GpuQueueNamespaceArgs]
    """The workload namespaces: one LocalQueue each, one ClusterQueue per type."""
    cloud: NotRequired[str]
    """``aks``, ``ack`` or ``existing`` (default): the API server's ports, the pools'
    sharing."""
    version: NotRequired[str]
    """Kueue chart version, 0.19.0 or newer (default 0.19.2)."""
    namespace: NotRequired[str]
    """Namespace of Kueue's controller (default ``kueue-system``)."""
    cohort: NotRequired[str]
    """The cohort of the ClusterQueues (default ``gpu-platform``)."""
    queueing_strategy: NotRequired[str]
    """``BestEffortFIFO`` (default) or ``StrictFIFO``."""
    types: NotRequired[dict[str, GpuQueueTypeArgs]]
    """Per workload type: borrowing, lending, preemption (default: docs/queues.md)."""
    pending_alert_minutes: NotRequired[int]
    """With ``serviceMonitor``: the PrometheusRule alerts when a ClusterQueue's GPU requests
    have been pending this long (default 30)."""
    metrics_readers: NotRequired[list[str]]
    """Service accounts (``namespace/name``) allowed to read Kueue's metrics (default: the AKS
    metrics add-on's with ``azureMonitor``, else none)."""
    scrape: NotRequired[str]
    """How Prometheus finds Kueue's metrics: ``azureMonitor`` (an ``azmonitoring.coreos.com``
    ServiceMonitor) or ``serviceMonitor`` (the chart's ``monitoring.coreos.com`` one, and a
    PrometheusRule); other modes and unset: not scraped."""
    scraper_namespaces: NotRequired[list[str]]
    """Namespaces whose pods may reach Kueue's metrics port."""
    admission_action: NotRequired[str]
    """What the queue admission policy does: ``Deny`` (default), ``Warn`` or ``Audit``."""


def kueue_policies(cloud: str, scraper_namespaces: list[str]) -> dict[str, Any]:
    """Kueue's namespace's NetworkPolicies: deny all, then what its controller needs: the API
    server (it watches and writes every queue and job), and the API server's calls to its
    webhooks (9443) and its visibility API (8082); the scrapers' namespaces on 8443. No DNS: it
    reaches the API server by the service address Kubernetes gives every pod."""
    pods = dict(kueue.CONTROLLER_LABELS)
    specs: dict[str, net.NetworkPolicySpecArgs] = {
        **system_policies(cloud, {}),
        WEBHOOK_POLICY: webhook_ingress_spec(pods, kueue.WEBHOOK_PORT),
        VISIBILITY_POLICY: webhook_ingress_spec(pods, kueue.VISIBILITY_PORT),
    }
    if scraper_namespaces:
        specs[SCRAPE_POLICY] = scrape_policy_spec(scraper_namespaces, pods, kueue.METRICS_PORT)
    return specs


def metrics_readers(args: GpuQueuesArgs, scrape: str | None) -> list[str]:
    """Who may read Kueue's metrics: as given, else the AKS metrics add-on with Azure Monitor."""
    if "metrics_readers" in args:
        return list(args["metrics_readers"])
    return [AZURE_MONITOR_SERVICE_ACCOUNT] if scrape == "azureMonitor" else []


def _queue_workloads(
    namespaces: list[GpuQueueNamespaceArgs], pool_names: set[str]
) -> tuple[list[WorkloadSettings], list[Problem]]:
    workloads: list[WorkloadSettings] = []
    problems: list[Problem] = []
    for i, ns in enumerate(namespaces):
        raw = queue_namespace(ns)
        given = [k for k in ("gpu_quota", "gpu_quota_per_resource") if k in ns]
        if len(given) != 1:
            problems.append(
                (f"namespaces[{i}].gpuQuota", "give gpuQuota or gpuQuotaPerResource (one)")
            )
            raw["gpu_quota"] = 0
        for j, pool in enumerate(ns.get("pools") or []):
            if pool not in pool_names:
                problems.append((f"namespaces[{i}].pools[{j}]", f"no pool named {pool!r}"))
        try:
            workloads.append(WorkloadSettings.model_validate(raw))
        except ValidationError as err:
            problems += validation_problems(err, "namespaces", i)
    return workloads, problems


def validate_queues_args(
    name: str, args: GpuQueuesArgs
) -> tuple[QueuesSettings, list[PoolFacts], list[WorkloadSettings]]:
    """The args as queue settings, the pools' facts and the namespaces, or one
    ``InputPropertiesError`` naming every bad property."""
    raise_if_any(COMPONENT, name, shape_problems(args, GpuQueuesArgs))
    pools, problems = validate_gpu_pools_args(
        args.get("cloud", DEFAULT_CLOUD), args["pools"], "pools"
    )
    settings: QueuesSettings | None = None
    try:
        given = {k: v for k, v in args.items() if k in SETTINGS_FIELDS}
        settings = QueuesSettings.model_validate(given)
    except ValidationError as err:
        problems += validation_problems(err)
    workloads, found = _queue_workloads(args["namespaces"], {pf.name for pf in pools})
    problems += found
    problems += scraper_namespace_problems(args.get("scraper_namespaces", []))
    scrape = args.get("scrape")
    if scrape is not None and scrape not in SCRAPE_MODES:
        problems.append(("scrape", f"one of {', '.join(SCRAPE_MODES)}, not {scrape!r}"))
    action = args.get("admission_action", "Deny")
    if action not in VALIDATION_ACTIONS:
        problems.append(("admissionAction", f"must be Deny, Warn or Audit, not {action!r}"))
    if settings is not None and not problems:
        problems += queue_problems(settings, pools, workloads)
    raise_if_any(COMPONENT, name, problems)
    assert settings is not None
    return settings, pools, workloads


class GpuQueues(pulumi.ComponentResource):
    """Kueue, a ResourceFlavor per GPU pool, a ClusterQueue per workload type, a LocalQueue per
    workload namespace, and the admission policy that keeps GPU workloads in their queue."""

    namespace: pulumi.Output[str]
    """Namespace of Kueue's controller."""
    flavors: pulumi.Output[list[str]]
    """The ResourceFlavors (one per GPU pool, named after it)."""
    cluster_queues: pulumi.Output[dict[str, dict[str, dict[str, int]]]]
    """Per ClusterQueue (workload type): flavour -> GPU resource -> nominal quota."""
    local_queues: pulumi.Output[dict[str, str]]
    """Per workload namespace: the LocalQueue its GPU workloads name."""

    def __init__(
        self, name: str, args: GpuQueuesArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        # Validate before registering anything: bad input changes nothing.
        settings, pools, workloads = validate_queues_args(name, args)
        plan = queues_plan(settings, {pf.name: pf for pf in pools}, workloads)
        scrape = cast(ScrapeMode | None, args.get("scrape"))
        kueue_scrape = scrape if scrape in ("azureMonitor", "serviceMonitor") else None
        super().__init__(type_token(COMPONENT), name, recorded_inputs(args), opts)
        for warning in plan.warnings:
            pulumi.log.warn(warning, self)

        home = settings.namespace
        scrapers = list(args.get("scraper_namespaces", [])) if kueue_scrape else []
        namespace, release = release_in_own_namespace(
            self,
            name,
            namespace=home,
            pod_security="restricted",
            policies=kueue_policies(cloud_arg(args), scrapers),
            chart=kueue.CHART_NAME,
            repo=kueue.CHART_REPO,
            version=settings.version,
            values=controller_values(settings.version, kueue_scrape, device_class_mappings(pools)),
        )
        # Kueue's CRDs and webhooks come with the release.
        after_release = pulumi.ResourceOptions(parent=self, depends_on=[release])
        self._queue_objects(name, plan, after_release)
        self._admission(name, args.get("admission_action", "Deny"))
        if kueue_scrape is not None:
            self._metrics(
                name,
                home=home,
                args=args,
                scrape=kueue_scrape,
                settings=settings,
                opts=after_release,
            )

        self.namespace = known_after(home, namespace)
        self.flavors = pulumi.Output.from_input([f.name for f in plan.flavors])
        self.cluster_queues = pulumi.Output.from_input(
            {q.name: {f: dict(r) for f, r in q.quotas.items()} for q in plan.cluster_queues}
        )
        self.local_queues = pulumi.Output.from_input(
            {q.namespace: q.name for q in plan.local_queues}
        )
        self.register_outputs(
            {
                "namespace": self.namespace,
                "flavors": self.flavors,
                "clusterQueues": self.cluster_queues,
                "localQueues": self.local_queues,
            }
        )

    def _queue_objects(self, name: str, plan: QueuesPlan, opts: pulumi.ResourceOptions) -> None:
        """The flavours, ClusterQueues and LocalQueues (their namespaces by name, known at
        preview; the components that create them are this component's dependencies)."""
        for flavor in plan.flavors:
            _kueue_object(
                name,
                kueue.RESOURCE_FLAVOR,
                flavor.name,
                namespace=None,
                spec=flavor.spec(),
                opts=opts,
            )
        for queue in plan.cluster_queues:
            _kueue_object(
                name, kueue.CLUSTER_QUEUE, queue.name, namespace=None, spec=queue.spec(), opts=opts
            )
        for local in plan.local_queues:
            _kueue_object(
                name,
                kueue.LOCAL_QUEUE,
                local.name,
                namespace=local.namespace,
                spec=local.spec(),
                opts=opts,
            )

    def _admission(self, name: str, action: str) -> None:
        """The queue admission policy on every kind it judges, in the queued namespaces."""
        groups: dict[str, list[str]] = {}
        for judged in JUDGED_KINDS:
            groups.setdefault("" if judged.group == "core" else judged.group, []).append(
                judged.resource
            )
        queued = LabelSelectorArgs(
            match_expressions=[
                LabelSelectorRequirementArgs(key=kueue.QUEUE_NAMESPACE_LABEL, operator="Exists")
            ]
        )
        validating_policy(
            self,
            name,
            policy_name=POLICY_NAME,
            namespace_selector=queued,
            resource_rules=[
                admission.NamedRuleWithOperationsArgs(
                    api_groups=[group],
                    api_versions=["*"],
                    resources=sorted(resources),
                    operations=["CREATE", "UPDATE"],
                )
                for group, resources in sorted(groups.items())
            ],
            variables=VARIABLES,
            validations=VALIDATIONS,
            actions=VALIDATION_ACTIONS[action],
        )

    def _metrics(
        self,
        name: str,
        *,
        home: str,
        args: GpuQueuesArgs,
        scrape: ScrapeMode,
        settings: QueuesSettings,
        opts: pulumi.ResourceOptions,
    ) -> None:
        """Kueue's metrics scraped: a ServiceMonitor where the chart brings none, the readers
        bound to the chart's metrics-reader role, and (Prometheus Operator) the queue rules."""
        if scrape == "azureMonitor":
            k8s.apiextensions.CustomResource(
                f"{name}-service-monitor",
                api_version=AZURE_MONITOR_GROUP,
                kind="ServiceMonitor",
                metadata=ObjectMetaArgs(name=MONITOR_NAME, namespace=home),
                spec=metrics_monitor_spec(),
                opts=opts,
            )
        readers = metrics_readers(args, scrape)
        if readers:
            rbac.ClusterRoleBinding(
                f"{name}-metrics-readers",
                metadata=ObjectMetaArgs(name=MONITOR_NAME),
                role_ref=rbac.RoleRefArgs(
                    api_group="rbac.authorization.k8s.io",
                    kind="ClusterRole",
                    name=kueue.METRICS_READER_ROLE,
                ),
                subjects=[
                    rbac.SubjectArgs(
                        kind="ServiceAccount",
                        namespace=reader.split("/", 1)[0],
                        name=reader.split("/", 1)[1],
                    )
                    for reader in readers
                ],
                opts=opts,
            )
        if scrape == "serviceMonitor":
            k8s.apiextensions.CustomResource(
                f"{name}-rules",
                api_version=OPERATOR_GROUP,
                kind="PrometheusRule",
                metadata=ObjectMetaArgs(name=MONITOR_NAME, namespace=home),
                spec={
                    "groups": queue_rule_groups(QueueRules(home, settings.pending_alert_minutes))
                },
                opts=opts,
            )


def _kueue_object(
    name: str,
    kind: str,
    object_name: str,
    *,
    namespace: str | None,
    spec: dict[str, Any],
    opts: pulumi.ResourceOptions,
) -> k8s.apiextensions.CustomResource:
    suffix = f"{namespace}-{object_name}" if namespace else object_name
    return k8s.apiextensions.CustomResource(
        f"{name}-{kind.lower()}-{suffix}",
        api_version=kueue.API_VERSION,
        kind=kind,
        metadata=ObjectMetaArgs(name=object_name, namespace=namespace),
        spec=spec,
        opts=opts,
    )
