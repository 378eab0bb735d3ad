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
        "command": main.get("command", ["torchrun", "/app/train.py"]),
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
    labels = {"labels": t["metadata"]["labels"]} if t["metadata"].get("labels") else {}
    return {
        "minReplicas": 1,
        **labels,
        **pod,
        "model": model,
        **({"containers": others} if others else {}),
    }


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
        **({"labels": t["metadata"]["labels"]} if t["metadata"].get("labels") else {}),
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


# --- Operators that build the pod themselves (gpu_facts.operators) ---------------------------

KAITO_RESOURCE = {
    "instanceType": "Standard_NC24ads_A100_v4",
    "labelSelector": {"matchLabels": {"apps": "llm"}},
}


def _kaito_workspace(t: dict[str, Any]) -> dict[str, Any]:
    """A Workspace with the pod as its inference template (KAITO adds its tolerations and
    replaces the affinity); a Workspace has no ``spec``: these are root fields."""
    return {"resource": dict(KAITO_RESOURCE), "inference": {"template": t}}


def _kaito_inference_set(t: dict[str, Any]) -> dict[str, Any]:
    return {
        "replicas": 2,
        "labelSelector": {"matchLabels": {"apps": "llm"}},
        "template": {
            "resource": {"instanceType": KAITO_RESOURCE["instanceType"]},
            "inference": {"template": t},
        },
    }


_NIM_POD_FIELDS = {
    "containers",
    "initContainers",
    "tolerations",
    "nodeSelector",
    "affinity",
    "runtimeClassName",
    "schedulerName",
    "priorityClassName",
}
_NIM_CONTAINER_FIELDS = {"name", "image", "command", "args", "env"}
NIM_PROFILE = "tensorrt_llm-a100-bf16-tp1-throughput"
"""The cached profile a NIMService names: with it, the operator adds the GPU."""


def _nim_image(image: str) -> dict[str, str]:
    repository, _, tag = (
        image.rpartition(":") if ":" in image.rsplit("/", 1)[-1] else (image, "", "")
    )
    return {"repository": repository, "tag": tag} if tag else {"repository": repository}


def _unprivileged(container: dict[str, Any]) -> dict[str, Any]:
    """The container without a securityContext that only says what NIM's pods are anyway
    (not privileged): the NIM kinds have no field for it."""
    if container.get("securityContext") == {"privileged": False}:
        return {k: v for k, v in container.items() if k != "securityContext"}
    return container


def _nim_container(container: dict[str, Any]) -> dict[str, Any]:
    """An init or sidecar container as a NIMContainerSpec (no resources, no securityContext)."""
    container = _unprivileged(container)
    if set(container) - _NIM_CONTAINER_FIELDS:
        raise Inexpressible("a NIM init or sidecar container has no resources or securityContext")
    return {**container, "image": _nim_image(container["image"])}


def nim_service_spec(t: dict[str, Any]) -> dict[str, Any]:
    """A NIMService serving the pod's first container from a NIMCache's profile (so the operator
    adds a GPU when the spec names none); its other containers are sidecars."""
    pod = dict(t["spec"])
    if set(pod) - _NIM_POD_FIELDS:
        raise Inexpressible("a NIMService sets only these pod fields")
    main, *others = pod.pop("containers")
    main = _unprivileged(main)
    if set(main) - {*_NIM_CONTAINER_FIELDS, "resources"}:
        raise Inexpressible("the NIM container has no securityContext")
    spec: dict[str, Any] = {
        "image": _nim_image(main["image"]),
        "authSecret": "ngc-api-secret",
        "storage": {"nimCache": {"name": "llama-3-1-8b", "profile": NIM_PROFILE}},
        "expose": {"service": {"type": "ClusterIP", "port": 8000}},
        "labels": dict(t["metadata"].get("labels") or {}),
        **{k: v for k, v in main.items() if k in ("command", "args", "env", "resources")},
    }
    if others:
        spec["sidecarContainers"] = [_nim_container(c) for c in others]
    if "initContainers" in pod:
        spec["initContainers"] = [_nim_container(c) for c in pod.pop("initContainers")]
    return {**spec, **pod}


NIM_KINDS = frozenset({"NIMService.apps.nvidia.com", "NIMPipeline.apps.nvidia.com"})
"""Kinds whose GPU pod is a NIMService's (served from a NIMCache by default)."""


def served_from_pvc(res: Res) -> Res:
    """A NIM kind's workload with its model on a PVC instead of a NIMCache: the operator then
    adds no GPU to what ``spec.resources`` asks for."""
    specs = [res.props["spec"]]
    if res.props["kind"] == "NIMPipeline":
        specs = [service["spec"] for service in res.props["spec"]["services"]]
    for spec in specs:
        spec["storage"] = {"pvc": {"name": "llama-3-1-8b-model"}}
    return res


def _nim_pipeline(t: dict[str, Any]) -> dict[str, Any]:
    embedder = {"name": "embedder", "enabled": False, "spec": nim_service_spec(_cpu_nim())}
    return {"services": [embedder, {"name": "llm", "enabled": True, "spec": nim_service_spec(t)}]}


def _cpu_nim() -> dict[str, Any]:
    cpu = _cpu()
    cpu["spec"]["containers"][0]["image"] = "nvcr.io/nim/nvidia/nv-embedqa-e5-v5:1.5.0"
    return cpu


def _nim_cache(t: dict[str, Any]) -> dict[str, Any]:
    """A NIMCache whose download Job is the pod: its image the model puller, its env and CPU and
    memory; a NIMCache has no field for GPUs, init containers' resources or security."""
    pod = dict(t["spec"])
    if set(pod) - {"containers", "tolerations", "nodeSelector", "runtimeClassName"}:
        raise Inexpressible("a NIMCache sets only tolerations, nodeSelector and runtimeClassName")
    (main,) = pod.pop("containers")
    main = _unprivileged(main)
    limits = (main.get("resources") or {}).get("limits") or {}
    if set(main) - {"name", "image", "env", "resources"} or set(limits) - {"cpu", "memory"}:
        raise Inexpressible("a NIMCache's Job has an image, env, CPU and memory only")
    source = {
        "ngc": {
            "modelPuller": main["image"],
            "pullSecret": "ngc-secret",
            "authSecret": "ngc-api-secret",
        }
    }
    spec: dict[str, Any] = {
        "source": source,
        "storage": {"pvc": {"create": True, "size": "50Gi", "volumeAccessMode": "ReadWriteOnce"}},
        "resources": dict(limits),
        **pod,
    }
    if "env" in main:
        spec["env"] = main["env"]
    return spec


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
    "Workspace.kaito.sh": ("kubernetes:kaito.sh/v1beta1:Workspace", _kaito_workspace),
    "InferenceSet.kaito.sh": ("kubernetes:kaito.sh/v1beta1:InferenceSet", _kaito_inference_set),
    "NIMService.apps.nvidia.com": (
        "kubernetes:apps.nvidia.com/v1alpha1:NIMService",
        nim_service_spec,
    ),
    "NIMPipeline.apps.nvidia.com": (
        "kubernetes:apps.nvidia.com/v1alpha1:NIMPipeline",
        _nim_pipeline,
    ),
    "NIMCache.apps.nvidia.com": ("kubernetes:apps.nvidia.com/v1alpha1:NIMCache", _nim_cache),
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
ROOT_FIELDS: frozenset[str] = frozenset({"Workspace.kaito.sh"})
"""Kinds whose fields sit at the object's root (a KAITO Workspace has no ``spec``)."""
GPU_FREE: frozenset[str] = frozenset({"NIMCache.apps.nvidia.com"})
"""Kinds whose pods never ask for a GPU (the type has no field for one)."""
OPERATOR_TOLERATES: frozenset[str] = frozenset({"Workspace.kaito.sh", "InferenceSet.kaito.sh"})
"""Kinds whose operator adds the NVIDIA GPU toleration to every pod (KAITO)."""


def custom_resource(label: str, template: dict[str, Any], metadata: dict[str, Any]) -> Res:
    """The custom resource ``label`` with ``template`` as its GPU pod."""
    type_token, build = CUSTOM_RESOURCES[label]
    api_version = type_token.split(":")[1]
    fields = build(template)
    props = {
        "apiVersion": api_version,
        "kind": label.split(".", maxsplit=1)[0],
        "metadata": metadata,
        **(fields if label in ROOT_FIELDS else {"spec": fields}),
    }
    return Res(type_token, metadata["name"], props)
