"""Where each pod-bearing kind keeps its pods: Kubernetes' own workloads, the operators' custom
resources that carry pod templates (KubeRay, Kubeflow, JobSet, LeaderWorkerSet, KServe, Argo
Workflows, Volcano, Knative), and those whose operator builds the pod from other fields (KAITO,
NVIDIA's NIM operator).

Each row names the API group and kind, the served versions, the paths to its pod templates
and their shape, and where the path was read (repository file at a tag; for the operators
/work/shared/notes/gpu-crd-pod-paths.md). A path is the keys from the object's root; ``*``
stands for every list item or every map value (``spec.pytorchReplicaSpecs.*.template``: the
Master and Worker templates). Rows are matched on group and kind, whatever the version: the
paths are the same in every version listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .operators import KAITO, NIM_OPERATOR, OperatorRelease

PodShape = Literal[
    "template",
    "podSpec",
    "inline",
    "argo",
    "trainJob",
    "kaitoWorkspace",
    "kaitoInferenceSet",
    "nimService",
    "nimPipeline",
    "nimCache",
]
"""How a path holds its pod:

- ``template``: a PodTemplateSpec (``metadata`` and ``spec``; the pod spec is at ``.spec``).
  Knative's RevisionTemplateSpec reads the same way (its ``spec`` embeds the PodSpec fields).
- ``podSpec``: a bare PodSpec.
- ``inline``: KServe's components: PodSpec fields written into the component itself, next to
  containers given as single fields (``INLINE_CONTAINER_KEYS``).
- ``argo``: an Argo WorkflowSpec: every ``templates[*]`` entry that runs containers is a pod,
  whose pod-level fields come from the template, else the steps/DAG template that calls it,
  else the workflow (``ARGO_POD_FIELDS``).
- ``trainJob``: a Kubeflow Trainer v2 TrainJob: no template; its trainer pod is its runtime's,
  with ``spec.trainer`` (image, env, ``resourcesPerNode``) in the container ``node`` and
  ``spec.runtimePatches[*]`` applied to the pod (``TRAIN_JOB_PATCH_PATH``).
- ``kaitoWorkspace`` / ``kaitoInferenceSet``: no pod but a node request (``resource``) and an
  inference preset or pod template (``inference``), at the object's root (a Workspace has no
  ``spec``) or under ``spec.template``; KAITO builds the pod (``gpu_facts.operators``).
- ``nimService`` / ``nimPipeline`` / ``nimCache``: flattened pod fields under ``spec`` (each
  service's ``spec`` of a NIMPipeline); NVIDIA's NIM operator builds the pod.
"""

ANY = "*"
"""In a path: every item of a list, or every value of a map."""


@dataclass(frozen=True, slots=True)
class PodPath:
    """One place in an object that holds pods."""

    keys: tuple[str, ...]
    shape: PodShape = "template"

    def __str__(self) -> str:
        return ".".join("[*]" if k == ANY else k for k in self.keys).replace(".[*]", "[*]")


@dataclass(frozen=True, slots=True)
class PodBearingKind:
    """A kind whose objects make pods, and where its pods are written."""

    group: str
    """API group (``core`` for the core group, as Pulumi's type tokens write it)."""
    kind: str
    versions: tuple[str, ...]
    paths: tuple[PodPath, ...]
    source: str
    cluster_scoped: bool = False
    """Cluster-scoped objects (cluster-wide runtimes and templates) have no namespace: their
    pods run in the namespace of the object that uses them."""
    made_by: OperatorRelease | None = None
    """The operator that builds the pods from fields that are no pod: they are judged as the
    release in ``gpu_facts.operators`` builds them."""
    gpu_free: bool = False
    """Its pods never ask for a GPU: the type has no field that could (a NIMCache's download
    Job has CPU and memory only)."""

    @property
    def builtin(self) -> bool:
        return self.group in BUILTIN_GROUPS

    @property
    def label(self) -> str:
        """``Deployment`` for Kubernetes' kinds, ``RayCluster.ray.io`` (kubectl's form) for
        the operators'."""
        return self.kind if self.builtin else f"{self.kind}.{self.group}"


def _paths(*paths: str, shape: PodShape = "template") -> tuple[PodPath, ...]:
    return tuple(PodPath(tuple(p.split(".")), shape) for p in paths)


BUILTIN_GROUPS: frozenset[str] = frozenset({"core", "apps", "extensions", "batch"})
"""Kubernetes' own workload groups (``extensions`` and ``batch/v1beta1`` are older versions of
the same kinds)."""

_K8S = "Kubernetes API reference (k8s.io/api core/v1, apps/v1, batch/v1)"
_KUBERAY = "ray-project/kuberay ray-operator/apis/ray/v1/{}_types.go @v1.7.0 (59d663a)"
_TRAINING_V1 = "kubeflow/trainer pkg/apis/kubeflow.org/v1/{}_types.go @v1.9.4 (4445c12)"
_TRAINER_V2 = "kubeflow/trainer pkg/apis/trainer/v1alpha1/{}_types.go @v2.3.0 (658725b)"
_KSERVE = "kserve/kserve pkg/apis/serving/{} @v0.20.0 (1fb7810)"
_ARGO = (
    "argoproj/argo-workflows pkg/apis/workflow/v1alpha1/{}_types.go @v4.1.2 (16a52d6); "
    "template fallbacks: workflow/controller/workflowpod.go"
)
_VOLCANO = "volcano-sh/apis pkg/apis/{} @v1.15.0 (f8d9adf)"
_KNATIVE = "knative/serving pkg/apis/serving/v1/{}_types.go @knative-v1.23.0 (7ed4aa2)"
_KAITO = f"{KAITO.source} api/v1beta1/{{}}_types.go; pods: gpu_facts.operators"
_NIM = f"{NIM_OPERATOR.source} api/apps/v1alpha1/{{}}_types.go; pods: gpu_facts.operators"
_TEMPLATE = ("spec", "template")

_RAY_CLUSTER = ("headGroupSpec.template", "workerGroupSpecs.*.template")
_RAY_JOB = (*(f"rayClusterSpec.{p}" for p in _RAY_CLUSTER), "submitterPodTemplate")
_TRAINING_RUNTIME = "spec.template.spec.replicatedJobs.*.template.spec.template"
_LWS = ("leaderWorkerTemplate.leaderTemplate", "leaderWorkerTemplate.workerTemplate")
_ISVC = (
    "spec.predictor",
    "spec.predictor.workerSpec",
    "spec.transformer",
    "spec.explainer",
    "spec.canary.*.predictor",
)
_LLM_ISVC = (
    "spec.template",
    "spec.worker",
    "spec.prefill.template",
    "spec.prefill.worker",
    "spec.router.scheduler.template",
)


def _replica_specs(field: str) -> tuple[PodPath, ...]:
    return _paths(f"spec.{field}.*.template")


POD_BEARING_KINDS: tuple[PodBearingKind, ...] = (
    # Kubernetes' own workloads.
    PodBearingKind("core", "Pod", ("v1",), _paths("spec", shape="podSpec"), _K8S),
    *(
        PodBearingKind(group, kind, ("v1",), _paths(".".join(_TEMPLATE)), _K8S)
        for group in ("apps", "extensions")
        for kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet")
        if not (group == "extensions" and kind == "StatefulSet")
    ),
    PodBearingKind("batch", "Job", ("v1",), _paths("spec.template"), _K8S),
    PodBearingKind(
        "batch", "CronJob", ("v1", "v1beta1"), _paths("spec.jobTemplate.spec.template"), _K8S
    ),
    # KubeRay (ray.io/v1alpha1 is still served, deprecated, slated for removal in 1.9).
    PodBearingKind(
        "ray.io",
        "RayCluster",
        ("v1", "v1alpha1"),
        _paths(*(f"spec.{p}" for p in _RAY_CLUSTER)),
        _KUBERAY.format("raycluster"),
    ),
    PodBearingKind(
        "ray.io",
        "RayJob",
        ("v1", "v1alpha1"),
        _paths(*(f"spec.{p}" for p in _RAY_JOB)),
        _KUBERAY.format("rayjob"),
    ),
    PodBearingKind(
        "ray.io",
        "RayService",
        ("v1", "v1alpha1"),
        _paths(*(f"spec.rayClusterConfig.{p}" for p in _RAY_CLUSTER)),
        _KUBERAY.format("rayservice"),
    ),
    PodBearingKind(
        "ray.io",
        "RayCronJob",
        ("v1",),
        _paths(*(f"spec.jobTemplate.{p}" for p in _RAY_JOB)),
        _KUBERAY.format("raycronjob") + "; alpha, feature gate RayCronJob",
    ),
    # Kubeflow Training Operator v1: every replica type's template (map keys are the types).
    PodBearingKind(
        "kubeflow.org",
        "PyTorchJob",
        ("v1",),
        _replica_specs("pytorchReplicaSpecs"),
        _TRAINING_V1.format("pytorch"),
    ),
    PodBearingKind(
        "kubeflow.org",
        "TFJob",
        ("v1",),
        _replica_specs("tfReplicaSpecs"),
        _TRAINING_V1.format("tensorflow"),
    ),
    PodBearingKind(
        "kubeflow.org",
        "MPIJob",
        ("v1", "v2beta1"),
        _replica_specs("mpiReplicaSpecs"),
        _TRAINING_V1.format("mpi")
        + "; v2beta1: kubeflow/mpi-operator pkg/apis/kubeflow/v2beta1/types.go @v0.8.0",
    ),
    PodBearingKind(
        "kubeflow.org",
        "XGBoostJob",
        ("v1",),
        _replica_specs("xgbReplicaSpecs"),
        _TRAINING_V1.format("xgboost"),
    ),
    PodBearingKind(
        "kubeflow.org",
        "PaddleJob",
        ("v1",),
        _replica_specs("paddleReplicaSpecs"),
        _TRAINING_V1.format("paddlepaddle"),
    ),
    PodBearingKind(
        "kubeflow.org",
        "JAXJob",
        ("v1",),
        _replica_specs("jaxReplicaSpecs"),
        _TRAINING_V1.format("jax"),
    ),
    # Kubeflow Trainer v2: runtimes hold JobSet templates; a TrainJob patches its runtime's.
    PodBearingKind(
        "trainer.kubeflow.org",
        "TrainingRuntime",
        ("v1alpha1",),
        _paths(_TRAINING_RUNTIME),
        _TRAINER_V2.format("trainingruntime"),
    ),
    PodBearingKind(
        "trainer.kubeflow.org",
        "ClusterTrainingRuntime",
        ("v1alpha1",),
        _paths(_TRAINING_RUNTIME),
        _TRAINER_V2.format("trainingruntime"),
        cluster_scoped=True,
    ),
    PodBearingKind(
        "trainer.kubeflow.org",
        "TrainJob",
        ("v1alpha1",),
        _paths("spec", shape="trainJob"),
        _TRAINER_V2.format("trainjob") + "; merge: pkg/runtime/core/trainingruntime.go",
    ),
    # JobSet, LeaderWorkerSet (a missing leaderTemplate means the leader is a worker).
    PodBearingKind(
        "jobset.x-k8s.io",
        "JobSet",
        ("v1alpha2",),
        _paths("spec.replicatedJobs.*.template.spec.template"),
        "kubernetes-sigs/jobset api/jobset/v1alpha2/jobset_types.go @v0.12.0 (f22e565)",
    ),
    PodBearingKind(
        "leaderworkerset.x-k8s.io",
        "LeaderWorkerSet",
        ("v1",),
        _paths(*(f"spec.{p}" for p in _LWS)),
        "kubernetes-sigs/lws api/leaderworkerset/v1/leaderworkerset_types.go @v0.10.0 (2161f38)",
    ),
    PodBearingKind(
        "disaggregatedset.x-k8s.io",
        "DisaggregatedSet",
        ("v1",),
        _paths(*(f"spec.roles.*.spec.{p}" for p in _LWS)),
        "kubernetes-sigs/lws api/disaggregatedset/v1/disaggregatedset_types.go @v0.10.0",
    ),
    # KServe.
    PodBearingKind(
        "serving.kserve.io",
        "InferenceService",
        ("v1beta1",),
        _paths(*_ISVC, shape="inline"),
        _KSERVE.format("v1beta1/{inference_service,predictor,transformer,explainer,podspec}.go"),
    ),
    PodBearingKind(
        "serving.kserve.io",
        "ServingRuntime",
        ("v1alpha1",),
        _paths("spec", "spec.workerSpec", shape="inline"),
        _KSERVE.format("v1alpha1/servingruntime_types.go"),
    ),
    PodBearingKind(
        "serving.kserve.io",
        "ClusterServingRuntime",
        ("v1alpha1",),
        _paths("spec", "spec.workerSpec", shape="inline"),
        _KSERVE.format("v1alpha1/servingruntime_types.go"),
        cluster_scoped=True,
    ),
    *(
        PodBearingKind(
            "serving.kserve.io",
            kind,
            ("v1alpha2", "v1alpha1"),
            _paths(*_LLM_ISVC, shape="podSpec"),
            _KSERVE.format("v1alpha2/llm_inference_service_types.go"),
        )
        for kind in ("LLMInferenceService", "LLMInferenceServiceConfig")
    ),
    # Argo Workflows: templates, not PodSpecs.
    *(
        PodBearingKind(
            "argoproj.io",
            kind,
            ("v1alpha1",),
            _paths("spec", shape="argo"),
            _ARGO.format(source),
            cluster_scoped=kind == "ClusterWorkflowTemplate",
        )
        for kind, source in (
            ("Workflow", "workflow"),
            ("WorkflowTemplate", "workflow_template"),
            ("ClusterWorkflowTemplate", "workflow_template"),
        )
    ),
    PodBearingKind(
        "argoproj.io",
        "CronWorkflow",
        ("v1alpha1",),
        _paths("spec.workflowSpec", shape="argo"),
        _ARGO.format("cron_workflow"),
    ),
    # Volcano.
    PodBearingKind(
        "batch.volcano.sh",
        "Job",
        ("v1alpha1",),
        _paths("spec.tasks.*.template"),
        _VOLCANO.format("batch/v1alpha1/job.go"),
    ),
    PodBearingKind(
        "flow.volcano.sh",
        "JobTemplate",
        ("v1alpha1",),
        _paths("spec.tasks.*.template"),
        _VOLCANO.format("flow/v1alpha1/jobtemplate_types.go"),
    ),
    PodBearingKind(
        "training.volcano.sh",
        "HyperJob",
        ("v1alpha1",),
        _paths("spec.replicatedJobs.*.templateSpec.tasks.*.template"),
        _VOLCANO.format("training/v1alpha1/hyperjob.go"),
    ),
    # Knative Serving: the RevisionSpec embeds the PodSpec fields.
    *(
        PodBearingKind(
            "serving.knative.dev",
            kind,
            ("v1",),
            _paths("spec.template"),
            _KNATIVE.format("{service,configuration,revision}"),
        )
        for kind in ("Service", "Configuration")
    ),
    # Operators that build the pods themselves: KAITO, NVIDIA's NIM operator.
    PodBearingKind(
        KAITO.api_group,
        "Workspace",
        ("v1beta1", "v1alpha1"),
        (PodPath((), "kaitoWorkspace"),),
        _KAITO.format("workspace"),
        made_by=KAITO,
    ),
    PodBearingKind(
        KAITO.api_group,
        "InferenceSet",
        ("v1beta1", "v1alpha1"),
        _paths("spec", shape="kaitoInferenceSet"),
        _KAITO.format("inferenceset"),
        made_by=KAITO,
    ),
    PodBearingKind(
        NIM_OPERATOR.api_group,
        "NIMService",
        ("v1alpha1",),
        _paths("spec", shape="nimService"),
        _NIM.format("nimservice"),
        made_by=NIM_OPERATOR,
    ),
    PodBearingKind(
        NIM_OPERATOR.api_group,
        "NIMPipeline",
        ("v1alpha1",),
        _paths("spec", shape="nimPipeline"),
        _NIM.format("nimpipeline"),
        made_by=NIM_OPERATOR,
    ),
    PodBearingKind(
        NIM_OPERATOR.api_group,
        "NIMCache",
        ("v1alpha1",),
        _paths("spec", shape="nimCache"),
        _NIM.format("nimcache"),
        made_by=NIM_OPERATOR,
        gpu_free=True,
    ),
)

_BY_GROUP_KIND = {(k.group, k.kind): k for k in POD_BEARING_KINDS}


def pod_bearing_kind(group: str, kind: str) -> PodBearingKind | None:
    """The row of ``group`` and ``kind``; None for a kind that makes no pods."""
    return _BY_GROUP_KIND.get((group, kind))


# --- KServe components (shape ``inline``) ---------------------------------------------------

KSERVE_CONTAINER = "kserve-container"
"""The name KServe gives the model server's container (``model``, a framework shortcut, or the
ServingRuntime's container it is merged with)."""
INLINE_CONTAINER_KEYS: tuple[str, ...] = (
    "model",
    "sklearn",
    "xgboost",
    "tensorflow",
    "pytorch",
    "triton",
    "onnx",
    "huggingface",
    "pmml",
    "lightgbm",
    "paddle",
    "art",
)
"""Fields of a KServe component that inline a Container (``predictor.model`` and the framework
shortcuts; ``explainer.art``); the rest of the component is PodSpec fields
(``containers``, ``tolerations``, ``nodeSelector``, ``hostIPC``...). Trap: the component's own
``resources`` is the pod-level resources field, not the model container's."""
KSERVE_RUNTIME_KINDS: tuple[str, ...] = ("ServingRuntime", "ClusterServingRuntime")
"""Where an InferenceService's runtime is looked up: the namespace's ServingRuntimes first,
then the ClusterServingRuntimes (``model.runtime`` names it; otherwise one whose
``supportedModelFormats`` has the model's format with ``autoSelect``). Its ``tolerations`` and
``nodeSelector`` are merged under the predictor's (pkg/controller/v1beta1/inferenceservice/
utils/utils.go)."""

# --- Kubeflow Trainer v2 TrainJob (shape ``trainJob``) --------------------------------------

TRAINER_CONTAINER = "node"
"""The trainer container of a runtime's trainer job: ``spec.trainer`` (image, command, args,
env, ``resourcesPerNode``) is merged into it."""
TRAINER_STEP_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step"
TRAINER_STEP = "trainer"
"""A runtime's replicated job labelled ``TRAINER_STEP_LABEL: trainer`` is the one
``spec.trainer`` overrides."""
TRAIN_JOB_DEFAULT_RUNTIME_KIND = "ClusterTrainingRuntime"
"""``spec.runtimeRef.kind`` when not given (a namespaced TrainingRuntime must be in the
TrainJob's namespace)."""
TRAIN_JOB_PATCH_PATH: tuple[str, ...] = (
    "trainingRuntimeSpec",
    "template",
    "spec",
    "replicatedJobs",
    ANY,
    "template",
    "spec",
    "template",
    "spec",
)
"""From each ``spec.runtimePatches[*]`` to the pod spec patch it applies (v2.2 and later; it
may set ``tolerations``, ``nodeSelector``, ``affinity``, ``securityContext``, ``volumes`` and
``containers[*]`` / ``initContainers[*]`` ``env``, ``volumeMounts``, ``securityContext``, but
no container resources and no ``hostIPC``)."""

# --- Argo Workflows (shape ``argo``) --------------------------------------------------------

ARGO_MAIN_CONTAINER = "main"
"""The name Argo gives a ``container`` or ``script`` template's container."""
ARGO_POD_FIELDS: tuple[str, ...] = ("tolerations", "nodeSelector", "affinity", "securityContext")
"""Pod-level fields a template takes from itself, else from the steps/DAG template that calls
it, else from the workflow's spec: the first non-empty value wins, levels are not merged
(workflow/controller/workflowpod.go). ``templateDefaults`` fill in the template's own."""
ARGO_WORKFLOW_ONLY_FIELDS: tuple[str, ...] = ("hostNetwork",)
"""Pod fields only the workflow's spec sets."""
ARGO_POD_SPEC_PATCH = "podSpecPatch"
"""A string (YAML or JSON) strategic-merge patch on the pod spec, on a template or the
workflow; it can add GPU limits or ``hostIPC``."""
