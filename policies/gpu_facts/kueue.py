"""Facts about Kueue, the Kubernetes project's job-queueing system: its chart, its API, how a job
names its queue, what it writes into admitted pods, its metrics.

Sources (each fact names its file): kubernetes-sigs/kueue at tag v0.19.2 (8eab6877, 2026-08-20):
the chart ``charts/kueue`` (``values.yaml``, ``templates/``; the copy in
``../shared/reference/kueue-0.19.2`` is that chart), the CRDs
``config/components/crd/bases/kueue.x-k8s.io_*.yaml``, the configuration API
``apis/config/v1beta2/{configuration_types,defaults}.go``, ``pkg/features/kube_features.go``,
``pkg/podset/podset.go``, ``pkg/controller/constants/constants.go``,
``pkg/controller/jobs/*/``, ``pkg/metrics/metrics.go``, ``cmd/kueue/main.go``,
``hack/helm-chart-package.sh``; and /work/shared/notes/dra-kueue-facts.md section 3.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .scheduling import PLATFORM_LABEL_DOMAIN

# --- the chart ------------------------------------------------------------------------------

CHART_NAME = "kueue"
CHART_REPO = "oci://registry.k8s.io/kueue/charts"
"""``helm install kueue oci://registry.k8s.io/kueue/charts/kueue --version 0.19.2``
(``charts/kueue/README.md``)."""
DEFAULT_VERSION = "0.19.2"
"""The chart's ``version`` (no ``v``); its ``appVersion`` is ``v0.19.2``."""
MIN_VERSION = "0.19.0"
"""Oldest chart the platform installs: the ClusterQueues cover GPU resources only, which needs
``resources.quotaCheckStrategy: IgnoreUndeclared`` and its feature gate ``QuotaCheckStrategy``,
beta and on by default from 0.19 (alpha, off, in 0.18: ``pkg/features/kube_features.go``)."""
DEFAULT_NAMESPACE = "kueue-system"
"""The namespace of Kueue's install guide (``--namespace kueue-system``)."""
RELEASE_NAME = "kueue"
"""Our release's name. The chart names its objects ``kueue.fullname``: the release name alone
when it contains the chart's name (``_helpers.tpl``), so ``kueue-controller-manager``."""
FULLNAME = RELEASE_NAME
IMAGE_REPOSITORY = "registry.k8s.io/kueue/kueue"
"""The released image: ``hack/helm-chart-package.sh`` sets ``controllerManager.manager.image``
to ``registry.k8s.io/kueue/kueue:<tag>`` (pull policy ``IfNotPresent``) when it packages a
release; the chart in the repository says a staging image and ``Always``."""


def image_tag(version: str) -> str:
    """The controller image's tag for a chart version: the git tag, ``v<version>``."""
    return f"v{version.lstrip('v')}"


CONTROLLER_DEPLOYMENT = f"{FULLNAME}-controller-manager"
"""The controller's Deployment (``templates/manager/manager.yaml``)."""
CONTROLLER_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "app.kubernetes.io/name": CHART_NAME,
        "app.kubernetes.io/instance": RELEASE_NAME,
        "control-plane": "controller-manager",
    }
)
"""``kueue.selectorLabels``: the controller's pods (one pod serves the webhooks, the metrics and
the visibility API)."""
WEBHOOK_PORT = 9443
"""``webhook.port`` and the ``webhook-server`` container port: the API server calls the mutating
and validating webhooks there (``failurePolicy: Fail`` on the jobs' webhooks)."""
VISIBILITY_PORT = 8082
"""The ``visibility`` container port behind the APIServices ``v1beta1``/``v1beta2
.visibility.kueue.x-k8s.io`` (``templates/visibility/``, always rendered): the API server
proxies the visibility API to it, and API discovery fails while it is unreachable."""
METRICS_PORT = 8443
"""``metrics.bindAddress``: HTTPS, each request authenticated and authorized by the API server
(``cmd/kueue/main.go``: ``SecureServing: true``, ``filters.WithAuthenticationAndAuthorization``).
A scraper needs ``get`` on the non-resource URL ``/metrics``: the chart's ClusterRole
``<fullname>-metrics-reader`` (``templates/rbac/metrics_reader_role.yaml``)."""
METRICS_READER_ROLE = f"{FULLNAME}-metrics-reader"
METRICS_SERVICE = f"{FULLNAME}-controller-manager-metrics-service"
"""``templates/manager/auth_proxy_service.yaml``: port ``https`` 8443."""
METRICS_SERVICE_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "app.kubernetes.io/name": CHART_NAME,
        "app.kubernetes.io/instance": RELEASE_NAME,
        "app.kubernetes.io/component": "metrics-service",
    }
)
"""Labels of the metrics Service a ServiceMonitor selects (``kueue.metricsService.labels``)."""

KNOWN_VALUE_PATHS: frozenset[str] = frozenset(
    {
        "enablePrometheus",
        "controllerManager",
        "controllerManager.replicas",
        "controllerManager.tolerations",
        "controllerManager.nodeSelector",
        "controllerManager.podDisruptionBudget",
        "controllerManager.podDisruptionBudget.enabled",
        "controllerManager.podDisruptionBudget.minAvailable",
        "controllerManager.manager",
        "controllerManager.manager.image",
        "controllerManager.manager.image.repository",
        "controllerManager.manager.image.tag",
        "controllerManager.manager.image.pullPolicy",
        "controllerManager.manager.podAnnotations",
        "managerConfig",
        "managerConfig.controllerManagerConfigYaml",
    }
)
"""The chart values we set (``values.yaml``); a test renders the chart with them."""

# --- the manager's configuration (config.kueue.x-k8s.io/v1beta2) -----------------------------

CONFIG_API_VERSION = "config.kueue.x-k8s.io/v1beta2"
LEADER_ELECTION_ID = "c1f6bfd2.kueue.x-k8s.io"
"""The chart's ``leaderElection.resourceName``, kept: a new one would run two leaders while an
upgrade rolls."""
IGNORE_UNDECLARED = "IgnoreUndeclared"
"""``resources.quotaCheckStrategy``: only the resources a ClusterQueue covers are checked
against its quota; the rest (CPU, memory) are not (``configuration_types.go``). The default,
``BlockUndeclared``, leaves a workload asking for an uncovered resource inadmissible."""

DEVICE_CLASS_MAPPINGS_MAX = 16
"""``resources.deviceClassMappings``: at most 16 (``pkg/config/validation.go``). Each maps the
DeviceClasses it names to one quota resource, ``name``, a qualified resource name; Kueue charges
a workload's ResourceClaimTemplate requests (``exactly.deviceClassName``, ``ExactCount``) to it.
Beta and on since 0.18 (feature gate ``KueueDRAIntegration``); needs Kubernetes 1.34
(``resource.k8s.io/v1``) (``site/content/en/docs/concepts/dynamic_resource_allocation.md``)."""
DRA_CLAIM_BY_NAME_REFUSED = "use of resource claims is not supported"
"""A queued workload whose pods name a ResourceClaim (``resourceClaimName``) is inadmissible and
stays pending: "KueueDRAIntegration feature does not support use of resource claims"
(``pkg/controller/core/workload_controller.go``, ``workload.HasResourceClaim``)."""
DRA_TEMPLATE_REQUESTS_REFUSED: Mapping[str, str] = MappingProxyType(
    {
        "firstAvailable": "FirstAvailable device selection is not supported",
        "adminAccess": "AdminAccess is not supported",
        "allocationMode": "only allocationMode ExactCount is supported",
    }
)
"""What in a ResourceClaimTemplate's request leaves the queued workload inadmissible (pending),
with Kueue's words: a ``firstAvailable`` request, ``adminAccess: true``, an ``allocationMode``
other than ``ExactCount`` (``All``) (``pkg/dra/claims.go`` ``countDevicesPerClass``), as is a
DeviceClass its configuration does not map (``deviceClassMappings``). Device ``constraints``
and per-request ``config``, which the docs list as unsupported
(``dynamic_resource_allocation.md``, Limitations), are not refused: the requests' counts are
charged and the workload is admitted, the constraints and config left to the scheduler."""
EXACT_COUNT = "ExactCount"
"""``allocationMode``'s default (``resource.k8s.io``), the one Kueue charges."""

FRAMEWORKS: tuple[str, ...] = (
    "batch/job",
    "kubeflow.org/mpijob",
    "ray.io/rayjob",
    "ray.io/rayservice",
    "ray.io/raycluster",
    "jobset.x-k8s.io/jobset",
    "kubeflow.org/paddlejob",
    "kubeflow.org/pytorchjob",
    "kubeflow.org/tfjob",
    "kubeflow.org/xgboostjob",
    "kubeflow.org/jaxjob",
    "workload.codeflare.dev/appwrapper",
    "trainer.kubeflow.org/trainjob",
    "pod",
    "deployment",
    "statefulset",
    "leaderworkerset.x-k8s.io/leaderworkerset",
)
"""``integrations.frameworks`` we enable: the chart's shipped list plus the Kubeflow training
jobs it leaves commented out (the ``FrameworkName`` of each ``pkg/controller/jobs/*``). A
framework whose CRD is not installed is set up once the CRD appears
(``pkg/controller/jobframework/setup.go``: "No matching API in the server for job framework,
deferring setting up controller")."""

# --- the API (kueue.x-k8s.io) ----------------------------------------------------------------

API_GROUP = "kueue.x-k8s.io"
API_VERSION = f"{API_GROUP}/v1beta2"
"""Storage version since v0.15.0; ``v1beta1`` is still served (the CRDs)."""
RESOURCE_FLAVOR = "ResourceFlavor"
CLUSTER_QUEUE = "ClusterQueue"
LOCAL_QUEUE = "LocalQueue"
RESOURCE_FLAVORS, CLUSTER_QUEUES, LOCAL_QUEUES = "resourceflavors", "clusterqueues", "localqueues"
"""Their plural names (the API paths)."""
FLAVOR_NODE_LABELS_MAX = 8
"""``ResourceFlavor.spec.nodeLabels``: at most 8 (``maxProperties``); ``nodeTaints`` and
``tolerations`` at most 8 items each."""
FLAVOR_TAINTS_MAX = 8
RESOURCE_GROUPS_MAX = 16
"""``ClusterQueue.spec.resourceGroups``: at most 16; each covers at most 64 resources with at
most 64 flavours, every flavour listing exactly the covered resources (a CEL rule)."""
COVERED_RESOURCES_MAX = 64
FLAVORS_MAX = 64
ACTIVE_CONDITION = "Active"
"""A ClusterQueue's and a LocalQueue's status condition: ``True`` when it can admit."""

QUEUE_NAME_LABEL = "kueue.x-k8s.io/queue-name"
"""How a job names its LocalQueue: a label on the top-level object
(``pkg/controller/constants/constants.go`` ``QueueLabel``); the annotation of the same key was
removed in v0.15. A CronJob's Jobs take it from ``spec.jobTemplate.metadata.labels``."""
DEFAULT_LOCAL_QUEUE = "default"
"""LocalQueue defaulting: a workload that names no queue, in a namespace Kueue manages
(``managedJobsNamespaceSelector``) that holds a LocalQueue of this name, gets
``QUEUE_NAME_LABEL: default`` from Kueue's mutating webhook, every job kind's and the ``pod``
framework's alike, unless an owner up its chain is a job Kueue manages
(``pkg/controller/jobframework/defaults.go``
``ApplyDefaultLocalQueueWithManagedJobsNamespaceSelector``,
``pkg/controller/jobs/pod/pod_webhook.go``, ``constants.DefaultLocalQueueName``). Its feature gate
``LocalQueueDefaulting`` was alpha in 0.10, beta and on in 0.12, GA and locked on in 0.17, and is
gone in 0.19: always on (``pkg/features/kube_features.go`` at v0.18.6 and v0.19.2). Mutating
webhooks run before validating admission policies, so those see the label; a CronJob is not
mutated, its Jobs are."""
QUEUE_NAMESPACE_LABEL = f"{PLATFORM_LABEL_DOMAIN}/local-queue"
"""Ours: a workload namespace whose GPU workloads are queued carries it, its value the name of
the namespace's LocalQueue. The in-cluster admission policy and the policy pack read it, and it
confines Kueue's webhooks (``managedJobsNamespaceSelector``) to those namespaces."""
PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class"
ADMISSION_GATE = "kueue.x-k8s.io/admission"
"""The scheduling gate that holds a plain pod until Kueue admits it."""

RECLAIM_POLICIES: tuple[str, ...] = ("Never", "LowerPriority", "Any")
"""``preemption.reclaimWithinCohort`` (default ``Never``): whether a workload that fits its
ClusterQueue's nominal quota may preempt workloads of other ClusterQueues of the cohort that
borrow (the ClusterQueue CRD)."""
WITHIN_QUEUE_POLICIES: tuple[str, ...] = ("Never", "LowerPriority", "LowerOrNewerEqualPriority")
"""``preemption.withinClusterQueue`` (default ``Never``)."""
BORROW_POLICIES: tuple[str, ...] = ("Never", "LowerPriority")
"""``preemption.borrowWithinCohort.policy`` (default ``Never``); anything but ``Never`` needs
``reclaimWithinCohort`` other than ``Never`` (a CEL rule of the CRD)."""
QUEUEING_STRATEGIES: tuple[str, ...] = ("BestEffortFIFO", "StrictFIFO")
"""``queueingStrategy`` (default ``BestEffortFIFO``)."""


@dataclass(frozen=True, slots=True)
class QueuedKind:
    """A kind Kueue admits as one workload, named by ``QUEUE_NAME_LABEL`` on the object."""

    group: str
    """API group (``core`` for the core group, as ``gpu_facts.pod_templates`` writes it)."""
    kind: str
    resource: str
    """Plural name (what an admission policy's rules match)."""
    framework: str
    """The ``integrations.frameworks`` entry that turns it on (CronJob: its Jobs')."""
    pods_by_template: bool = False
    """Its pods are queued one by one, each its own workload, when only its pod template names
    the queue (the object itself naming none): the object's webhook then leaves it alone, and
    the ``pod`` framework's gates each pod by its own label, no Kueue-managed owner above it
    (``pkg/controller/jobs/{deployment,statefulset}/*_webhook.go``,
    ``pkg/controller/jobs/pod/pod_webhook.go``, ``jobframework.FindAncestorJobManagedByKueue``).
    Said of the kinds whose pods serve independently (a chart often exposes only
    ``podLabels``); a StatefulSet named on the object is admitted whole instead. A Job's pods
    would be queued one by one too, which breaks its all-or-nothing admission: a Job names its
    queue on itself."""


QUEUED_KINDS: tuple[QueuedKind, ...] = (
    QueuedKind("core", "Pod", "pods", "pod"),
    QueuedKind("apps", "Deployment", "deployments", "deployment", pods_by_template=True),
    QueuedKind("apps", "StatefulSet", "statefulsets", "statefulset", pods_by_template=True),
    QueuedKind("batch", "Job", "jobs", "batch/job"),
    QueuedKind("batch", "CronJob", "cronjobs", "batch/job"),
    QueuedKind("jobset.x-k8s.io", "JobSet", "jobsets", "jobset.x-k8s.io/jobset"),
    QueuedKind(
        "leaderworkerset.x-k8s.io",
        "LeaderWorkerSet",
        "leaderworkersets",
        "leaderworkerset.x-k8s.io/leaderworkerset",
    ),
    QueuedKind("ray.io", "RayJob", "rayjobs", "ray.io/rayjob"),
    QueuedKind("ray.io", "RayCluster", "rayclusters", "ray.io/raycluster"),
    QueuedKind("ray.io", "RayService", "rayservices", "ray.io/rayservice"),
    QueuedKind("kubeflow.org", "PyTorchJob", "pytorchjobs", "kubeflow.org/pytorchjob"),
    QueuedKind("kubeflow.org", "TFJob", "tfjobs", "kubeflow.org/tfjob"),
    QueuedKind("kubeflow.org", "MPIJob", "mpijobs", "kubeflow.org/mpijob"),
    QueuedKind("kubeflow.org", "XGBoostJob", "xgboostjobs", "kubeflow.org/xgboostjob"),
    QueuedKind("kubeflow.org", "PaddleJob", "paddlejobs", "kubeflow.org/paddlejob"),
    QueuedKind("kubeflow.org", "JAXJob", "jaxjobs", "kubeflow.org/jaxjob"),
    QueuedKind("trainer.kubeflow.org", "TrainJob", "trainjobs", "trainer.kubeflow.org/trainjob"),
)
"""Every pod-bearing kind of ``gpu_facts.pod_templates`` Kueue queues with the frameworks we
enable. Deployments, StatefulSets and LeaderWorkerSets are queued pod by pod: Kueue's webhook
copies the queue label into their pod templates
(``pkg/controller/jobs/deployment/deployment_webhook.go``). Not queued: DaemonSets,
ReplicaSets (their pods only if the template carries the label), and the operators' kinds
without a framework (KServe, Argo, Volcano, Knative)."""

_QUEUED = {(k.group, k.kind): k for k in QUEUED_KINDS}


def queued_kind(group: str, kind: str) -> QueuedKind | None:
    """The queued kind of an API group and kind (``core`` for the core group), else None."""
    return _QUEUED.get((group, kind))


# --- pods that name their queue themselves (pkg/controller/jobs/pod/pod_webhook.go) ----------
# The ``pod`` framework's webhook gates a pod that carries ``QUEUE_NAME_LABEL`` unless one of
# its owners up the controller chain is a job Kueue already manages (one that names a queue:
# ``jobframework.FindAncestorJobManagedByKueue``); a gated pod is its own workload. So the pods
# an operator builds from a custom resource (``gpu_facts.operators``) are queued when the labels
# the program gives them name the queue, whatever the objects the operator makes in between
# carry: a NIMService's ``spec.labels`` (on its Deployment and pods), a KAITO inference
# template's ``metadata.labels`` (on the pods only: KAITO's StatefulSet carries none).

# --- what Kueue writes into an admitted workload's pods (pkg/podset/podset.go) ----------------
# ``FromAssignment`` copies each assigned flavour's ``nodeLabels`` into the pod template's
# ``nodeSelector`` (``Merge`` fails the admission when the template already has one of those
# keys with another value) and appends the flavour's ``tolerations`` (skipping duplicates).
# A flavour's ``nodeTaints`` are not written: at admission a flavour is eligible only if the
# pod set's tolerations plus the flavour's tolerate its NoSchedule and NoExecute taints
# (``pkg/scheduler/flavorassigner/flavorassigner.go``).

# --- metrics (pkg/metrics/metrics.go; prefix ``kueue_``) ---------------------------------------

PENDING_WORKLOADS = "kueue_pending_workloads"
"""Gauge per ``cluster_queue`` and ``status`` (``active``: in the admission queue;
``inadmissible``: an admission attempt failed and waits for the cluster to change)."""
ADMITTED_ACTIVE_WORKLOADS = "kueue_admitted_active_workloads"
"""Gauge per ``cluster_queue``."""
CLUSTER_QUEUE_STATUS = "kueue_cluster_queue_status"
"""1 for the ``cluster_queue``'s ``status``: ``pending``, ``active`` or ``terminated``."""
RESOURCE_USAGE = "kueue_cluster_queue_resource_usage"
"""Gauge per ``cohort``, ``cluster_queue``, ``flavor`` and ``resource`` (admitted usage);
like the three below, only with ``metrics.enableClusterQueueResources: true``."""
NOMINAL_QUOTA = "kueue_cluster_queue_nominal_quota"
RESOURCE_PENDING = "kueue_cluster_queue_resource_pending"
"""Gauge per ``cluster_queue`` and ``resource``: what pending workloads ask for."""
BORROWING_LIMIT = "kueue_cluster_queue_borrowing_limit"
ADMISSION_WAIT = "kueue_admission_wait_time_seconds"
"""Histogram per ``cluster_queue``: creation (or requeue) to admission."""
CLUSTER_QUEUE_LABEL = "cluster_queue"
