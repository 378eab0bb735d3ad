"""pod_runtimes: a KServe predictor or a TrainJob takes the tolerations and nodeSelector it
leaves out from its runtime, when the stack declares it (judged here through the toleration
policy, which reads them)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.policies.crd_fixtures import runtime_patch
from tests.policies.harness import Case, Res, assert_case
from tests.policies.pod_fixtures import GPU_TOLERATION, gpu_pod_spec, mutated, set_spec

POLICY = "gpu-workloads-tolerate-gpu-taint"
UNTOLERATED = "does not tolerate the GPU taint"
KSERVE = "kubernetes:serving.kserve.io/v1alpha1:{}"
TRAINER = "kubernetes:trainer.kubeflow.org/v1alpha1:{}"


def isvc(runtime: str | None = None, namespace: str = "gpu-training") -> Res:
    """An InferenceService asking for a GPU, with no toleration of its own."""
    res = mutated("InferenceService.serving.kserve.io", set_spec("tolerations", []), namespace)
    model = res.props["spec"]["predictor"]["model"]
    model["modelFormat"] = {"name": "vllm"}
    if runtime is not None:
        model["runtime"] = runtime
    return res


def serving_runtime(
    kind: str = "ServingRuntime",
    name: str = "vllm-gpu",
    namespace: str = "gpu-training",
    auto_select: bool = False,
    tolerations: list[dict[str, Any]] | None = None,
) -> Res:
    metadata: dict[str, Any] = {"name": name}
    if kind == "ServingRuntime":
        metadata["namespace"] = namespace
    spec = {
        "supportedModelFormats": [{"name": "vllm", "autoSelect": auto_select}],
        "containers": [{"name": "kserve-container", "image": "vllm/vllm-openai:v0.6.3"}],
        "tolerations": [GPU_TOLERATION] if tolerations is None else tolerations,
    }
    props = {"metadata": metadata, "spec": spec}
    return Res(KSERVE.format(kind), f"{kind.lower()}-{name}", props)


KSERVE_CASES = [
    Case(POLICY, "named-runtime-in-the-namespace", (serving_runtime(), isvc("vllm-gpu"))),
    Case(
        POLICY,
        "named-cluster-runtime",
        (serving_runtime("ClusterServingRuntime"), isvc("vllm-gpu")),
    ),
    Case(
        POLICY,
        "auto-selected-runtime",
        (serving_runtime(auto_select=True), isvc()),
    ),
    Case(POLICY, "runtime-not-in-the-stack", (isvc("vllm-gpu"),), (UNTOLERATED,)),
    Case(
        POLICY,
        "runtime-in-another-namespace",
        (serving_runtime(namespace="team-b"), isvc("vllm-gpu")),
        (UNTOLERATED,),
    ),
    Case(
        POLICY,
        "format-without-auto-select",
        (serving_runtime(), isvc()),
        (UNTOLERATED,),
    ),
    Case(
        POLICY,
        "runtime-without-toleration",
        (serving_runtime(tolerations=[]), isvc("vllm-gpu")),
        (UNTOLERATED,),
    ),
]


@pytest.mark.parametrize("case", KSERVE_CASES, ids=lambda c: c.id)
def test_a_predictor_takes_its_serving_runtimes_tolerations(case: Case) -> None:
    assert_case(case)


def train_job(
    kind: str | None = None, patch: dict[str, Any] | None = None, namespace: str = "gpu-training"
) -> Res:
    """A TrainJob asking for a GPU per node, tolerating nothing itself."""
    spec = copy.deepcopy(gpu_pod_spec())
    spec.pop("tolerations")
    res = mutated("TrainJob.trainer.kubeflow.org", lambda s: s.update(spec), namespace)
    job = res.props["spec"]
    job["runtimeRef"] = {"name": "team-torch", **({"kind": kind} if kind else {})}
    job.pop("runtimePatches", None)
    if patch is not None:
        job["runtimePatches"] = [runtime_patch(patch)]
    return res


def training_runtime(
    kind: str = "ClusterTrainingRuntime", tolerations: list[dict[str, Any]] | None = None
) -> Res:
    """A runtime whose trainer job tolerates the GPU taint."""
    res = mutated(f"{kind}.trainer.kubeflow.org", lambda s: None)
    res.props["metadata"]["name"] = "team-torch"
    jobs = res.props["spec"]["template"]["spec"]["replicatedJobs"]
    pod = jobs[1]["template"]["spec"]["template"]["spec"]
    pod["containers"][0]["resources"] = {}  # the TrainJob's resourcesPerNode gives the GPUs
    pod["tolerations"] = [GPU_TOLERATION] if tolerations is None else tolerations
    return res


TRAINER_CASES = [
    Case(POLICY, "cluster-runtime-by-default", (training_runtime(), train_job())),
    Case(
        POLICY,
        "namespaced-runtime",
        (training_runtime("TrainingRuntime"), train_job("TrainingRuntime")),
    ),
    Case(POLICY, "runtime-not-in-the-stack", (train_job(),), ("(spec.trainer)",)),
    Case(
        POLICY,
        "patch-replaces-the-runtimes-tolerations",
        (training_runtime(), train_job(patch={"tolerations": [{"key": "team"}]})),
        (UNTOLERATED,),
    ),
    Case(
        POLICY,
        "patch-tolerates",
        (training_runtime(tolerations=[]), train_job(patch={"tolerations": [GPU_TOLERATION]})),
    ),
]


@pytest.mark.parametrize("case", TRAINER_CASES, ids=lambda c: c.id)
def test_a_train_job_takes_its_runtimes_tolerations(case: Case) -> None:
    assert_case(case)
