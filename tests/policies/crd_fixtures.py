"""Operators' custom resources carrying a pod, written by us in the shapes their CRDs take
(the API types named in docs/policies.md), in the wire shape the Kubernetes SDK sends a
``CustomResource``: ``kubernetes:<group>/<version>:<Kind>`` with the object's own keys.

Each builder takes the pod template (``metadata`` and ``spec``) of the GPU pod and returns the
object's ``spec``, with the GPU pod where a team puts it (a RayCluster's worker group, a
PyTorchJob's Worker) next to CPU pods (the Ray head, the Master). A builder raises
``Inexpressible`` when the kind has no field for part of the pod (a TrainJob cannot set
``hostIPC``; a ServingRuntime has no init containers): such a case does not exist for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .harness import Res


class Inexpressible(ValueError):
    """The kind has no field for part of this pod."""


CPU_TEMPLATE: dict[str, Any] = {
    "metadata": {"labels": {"role": "coordinator"}},
    "spec": {
        "containers": [
            {
                "name": "coordinator",
                "image": "rayproject/ray:2.9.0",
                "resources": {"limits": {"cpu": "2", "memory": "8Gi"}},
            }
        ]
    },
}


def _cpu() -> dict[str, Any]:
    return json.loads(json.dumps(CPU_TEMPLATE))


def _ray_cluster(t: dict[str, Any]) -> dict[str, Any]:
    return {
        "rayVersion": "2.9.0",
        "headGroupSpec": {"rayStartParams": {"dashboard-host": "0.0.0.0"}, "template": _cpu()},
        "workerGroupSpecs": [
            {
                "groupName": "gpu",
                "replicas": 2,
                "minReplicas": 0,
                "maxReplicas": 4,
                "rayStartParams": {},
                "template": t,
            }
        ],
    }


def _ray_job(t: dict[str, Any]) -> dict[str, Any]:
    return {
        "entrypoint": "python /app/train.py",
        "shutdownAfterJobFinishes": True,
        "rayClusterSpec": _ray_cluster(t),
    }


def _replicas(field: str, cpu_role: str | None, gpu_role: str = "Worker") -> Callable[..., Any]:
    def build(t: dict[str, Any]) -> dict[str, Any]:
        specs: dict[str, Any] = {}
        if cpu_role:
            specs[cpu_role] = {"replicas": 1, "restartPolicy": "OnFailure", "template": _cpu()}
        specs[gpu_role] = {"replicas": 2, "restartPolicy": "OnFailure", "template": t}
        return {field: specs}

    return build


TRAINER_STEP = {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}


def _training_runtime(t: dict[str, Any]) -> dict[str, Any]:
    initializer = {"metadata": {"labels": {"step": "dataset"}}, "spec": {"template": _cpu()}}
    return {
        "mlPolicy": {"numNodes": 1, "torch": {"numProcPerNode": "auto"}},
        "template": {
            "spec": {
                "replicatedJobs": [
                    {"name": "dataset-initializer", "template": initializer},
                    {
                        "name": "node",
                        "template": {"metadata": {"labels": TRAINER_STEP}, "spec": {"template": t}},
                    },
                ]
            }
        },
    }


def runtime_patch(pod_patch: dict[str, Any], job: str = "node") -> dict[str, Any]:
    """A TrainJob ``runtimePatches`` entry patching the pod of ``job`` (trainer v2.2+)."""
    pod = {"template": {"spec": {"template": {"spec": pod_patch}}}}
    return {
        "manager": "ml-platform.example.com/team",
        "trainingRuntimeSpec": {"template": {"spec": {"replicatedJobs": [{"name": job, **pod}]}}},
    }


def _train_job(t: dict[str, Any]) -> dict[str, Any]:
    spec = t["spec"]
    if set(spec) - {"containers", "tolerations", "nodeSelector"} or len(spec["containers"]) > 1:
        raise Inexpressible("a TrainJob sets the trainer container and pod patches only")
    main = spec["containers"][0]
    trainer = {
        "image": main["image"],
        "command": ["torchrun", "/app/train.py"],
        "numNodes": 2,
        **({"env": main["env"]} if "env" in main else {}),
        **({"resourcesPerNode": main["resources"]} if "resources" in main else {}),
    }
    patch = {k: spec[k] for k in ("tolerations", "nodeSelector") if k in spec}
    if "securityContext" in main:
        patch["containers"] = [{"name": "node", "securityContext": main["securityContext"]}]
    job: dict[str, Any] = {"runtimeRef": {"name": "torch-distributed"}, "trainer": trainer}
    if patch:
        job["runtimePatches"] = [runtime_patch(patch)]
    return job


def _job_set(t: dict[str, Any]) -> dict[str, Any]:
    job = {"parallelism": 2, "completions": 2, "backoffLimit": 0, "template": t}
    return {"replicatedJobs": [{"name": "workers", "replicas": 1, "template": {"spec": job}}]}


def _lws(t: dict[str, Any]) -> dict[str, Any]:
    return {
        "replicas": 1,
        "leaderWorkerTemplate": {"size": 2, "leaderTemplate": _cpu(), "workerTemplate": t},
    }


def _disaggregated_set(t: dict[str, Any]) -> dict[str, Any]:
    role = {"replicas": 1, "leaderWorkerTemplate": {"size": 1, "workerTemplate": t}}
    return {"roles": [{"name": "decode", "spec": role}]}


def _predictor(t: dict[str, Any]) -> dict[str, Any]:
    """The pod as a predictor: its first container as the model (KServe's kserve-container)."""
    pod = dict(t["spec"])
    main, *others = pod.pop("containers")
    model = {k: v for k, v in main.items() if k != "name"}
    model.update(modelFormat={"name": "huggingface"}, args=["--model_id=meta-llama/Llama-3.1-8B"])
    return {"minReplicas": 1, **pod, "model": model, **({"containers": others} if others else {})}


def _inference_service(t: dict[str, Any]) -> dict[str, Any]:
    transformer = {"containers": _cpu()["spec"]["containers"]}
    return {"predictor": _predictor(t), "transformer": transformer}


_SERVING_RUNTIME_FIELDS = {
    "containers",
    "volumes",
    "nodeSelector",
    "affinity",
    "tolerations",
    "labels",
    "annotations",
    "imagePullSecrets",
    "hostIPC",
}


def _serving_runtime(t: dict[str, Any]) -> dict[str, Any]:
    if set(t["spec"]) - _SERVING_RUNTIME_FIELDS:
        raise Inexpressible("a ServingRuntime's pod has only ServingRuntimePodSpec's fields")
    return {
        "supportedModelFormats": [{"name": "vllm", "version": "1", "autoSelect": True}],
        "protocolVersions": ["v2"],
        **t["spec"],
    }


def _llm_inference_service(t: dict[str, Any]) -> dict[str, Any]:
    return {"model": {"uri": "hf://meta-llama/Llama-3.1-8B"}, "replicas": 1, "template": t["spec"]}


_ARGO_TEMPLATE_FIELDS = ("tolerations", "nodeSelector", "affinity", "securityContext")


def _argo_workflow(t: dict[str, Any]) -> dict[str, Any]:
    """The pod as an Argo ``container`` template called from a DAG; fields a template has no
    key for go in its ``podSpecPatch``, as Argo's docs show."""
    pod = dict(t["spec"])
    main, *others = pod.pop("containers")
    template: dict[str, Any] = {"name": "train", "metadata": t["metadata"], "container": main}
    if others:
        template["sidecars"] = others
    if "initContainers" in pod:
        template["initContainers"] = pod.pop("initContainers")
    for key in _ARGO_TEMPLATE_FIELDS:
        if key in pod:
            template[key] = pod.pop(key)
    if pod:
        template["podSpecPatch"] = json.dumps(pod)
    dag = {"name": "main", "dag": {"tasks": [{"name": "train", "template": "train"}]}}
    return {"entrypoint": "main", "templates": [dag, template]}


def _volcano_tasks(t: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"name": "ps", "replicas": 1, "template": _cpu()},
        {"name": "worker", "replicas": 2, "template": t},
    ]


CUSTOM_RESOURCES: dict[str, tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = {
    "RayCluster.ray.io": ("kubernetes:ray.io/v1:RayCluster", _ray_cluster),
    "RayJob.ray.io": ("kubernetes:ray.io/v1:RayJob", _ray_job),
    "RayService.ray.io": (
        "kubernetes:ray.io/v1:RayService",
        lambda t: {"serveConfigV2": "applications: []", "rayClusterConfig": _ray_cluster(t)},
    ),
    "RayCronJob.ray.io": (
        "kubernetes:ray.io/v1:RayCronJob",
        lambda t: {"schedule": "0 2 * * *", "jobTemplate": _ray_job(t)},
    ),
    "PyTorchJob.kubeflow.org": (
        "kubernetes:kubeflow.org/v1:PyTorchJob",
        _replicas("pytorchReplicaSpecs", "Master"),
    ),
    "TFJob.kubeflow.org": ("kubernetes:kubeflow.org/v1:TFJob", _replicas("tfReplicaSpecs", "PS")),
    "MPIJob.kubeflow.org": (
        "kubernetes:kubeflow.org/v2beta1:MPIJob",
        _replicas("mpiReplicaSpecs", "Launcher"),
    ),
    "XGBoostJob.kubeflow.org": (
        "kubernetes:kubeflow.org/v1:XGBoostJob",
        _replicas("xgbReplicaSpecs", "Master"),
    ),
    "PaddleJob.kubeflow.org": (
        "kubernetes:kubeflow.org/v1:PaddleJob",
        _replicas("paddleReplicaSpecs", None),
    ),
    "JAXJob.kubeflow.org": (
        "kubernetes:kubeflow.org/v1:JAXJob",
        _replicas("jaxReplicaSpecs", None),
    ),
    "TrainingRuntime.trainer.kubeflow.org": (
        "kubernetes:trainer.kubeflow.org/v1alpha1:TrainingRuntime",
        _training_runtime,
    ),
    "ClusterTrainingRuntime.trainer.kubeflow.org": (
        "kubernetes:trainer.kubeflow.org/v1alpha1:ClusterTrainingRuntime",
        _training_runtime,
    ),
    "TrainJob.trainer.kubeflow.org": (
        "kubernetes:trainer.kubeflow.org/v1alpha1:TrainJob",
        _train_job,
    ),
    "JobSet.jobset.x-k8s.io": ("kubernetes:jobset.x-k8s.io/v1alpha2:JobSet", _job_set),
    "LeaderWorkerSet.leaderworkerset.x-k8s.io": (
        "kubernetes:leaderworkerset.x-k8s.io/v1:LeaderWorkerSet",
        _lws,
    ),
    "DisaggregatedSet.disaggregatedset.x-k8s.io": (
        "kubernetes:disaggregatedset.x-k8s.io/v1:DisaggregatedSet",
        _disaggregated_set,
    ),
    "InferenceService.serving.kserve.io": (
        "kubernetes:serving.kserve.io/v1beta1:InferenceService",
        _inference_service,
    ),
    "ServingRuntime.serving.kserve.io": (
        "kubernetes:serving.kserve.io/v1alpha1:ServingRuntime",
        _serving_runtime,
    ),
    "ClusterServingRuntime.serving.kserve.io": (
        "kubernetes:serving.kserve.io/v1alpha1:ClusterServingRuntime",
        _serving_runtime,
    ),
    "LLMInferenceService.serving.kserve.io": (
        "kubernetes:serving.kserve.io/v1alpha1:LLMInferenceService",
        _llm_inference_service,
    ),
    "LLMInferenceServiceConfig.serving.kserve.io": (
        "kubernetes:serving.kserve.io/v1alpha2:LLMInferenceServiceConfig",
        lambda t: {"template": t["spec"]},
    ),
    "Workflow.argoproj.io": ("kubernetes:argoproj.io/v1alpha1:Workflow", _argo_workflow),
    "WorkflowTemplate.argoproj.io": (
        "kubernetes:argoproj.io/v1alpha1:WorkflowTemplate",
        _argo_workflow,
    ),
    "ClusterWorkflowTemplate.argoproj.io": (
        "kubernetes:argoproj.io/v1alpha1:ClusterWorkflowTemplate",
        _argo_workflow,
    ),
    "CronWorkflow.argoproj.io": (
        "kubernetes:argoproj.io/v1alpha1:CronWorkflow",
        lambda t: {"schedules": ["0 3 * * *"], "workflowSpec": _argo_workflow(t)},
    ),
    "Job.batch.volcano.sh": (
        "kubernetes:batch.volcano.sh/v1alpha1:Job",
        lambda t: {"schedulerName": "volcano", "minAvailable": 3, "tasks": _volcano_tasks(t)},
    ),
    "JobTemplate.flow.volcano.sh": (
        "kubernetes:flow.volcano.sh/v1alpha1:JobTemplate",
        lambda t: {"tasks": _volcano_tasks(t)},
    ),
    "HyperJob.training.volcano.sh": (
        "kubernetes:training.volcano.sh/v1alpha1:HyperJob",
        lambda t: {
            "replicatedJobs": [
                {"name": "trainer", "replicas": 2, "templateSpec": {"tasks": _volcano_tasks(t)}}
            ]
        },
    ),
    "Service.serving.knative.dev": (
        "kubernetes:serving.knative.dev/v1:Service",
        lambda t: {"template": t},
    ),
    "Configuration.serving.knative.dev": (
        "kubernetes:serving.knative.dev/v1:Configuration",
        lambda t: {"template": t},
    ),
}
"""Label -> (type token, builder of the object's spec from the GPU pod's template)."""

CLUSTER_SCOPED: frozenset[str] = frozenset(
    {
        "ClusterTrainingRuntime.trainer.kubeflow.org",
        "ClusterServingRuntime.serving.kserve.io",
        "ClusterWorkflowTemplate.argoproj.io",
    }
)
"""Cluster-wide runtimes and templates: no namespace of their own."""


def custom_resource(label: str, template: dict[str, Any], metadata: dict[str, Any]) -> Res:
    """The custom resource ``label`` with ``template`` as its GPU pod."""
    type_token, build = CUSTOM_RESOURCES[label]
    api_version = type_token.split(":")[1]
    props = {
        "apiVersion": api_version,
        "kind": label.split(".", maxsplit=1)[0],
        "metadata": metadata,
        "spec": build(template),
    }
    return Res(type_token, metadata["name"], props)
