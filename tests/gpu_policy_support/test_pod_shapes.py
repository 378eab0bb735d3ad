"""pod_shapes: the pod of a KServe component, a TrainJob and an Argo template, as their
operators build it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pulumi_policy.proxy import UNKNOWN_ARRAY_VALUE, UnknownValueError, unknown_checking_proxy

from gpu_policy_support.pod_shapes import (
    RuntimeRef,
    argo_pods,
    inline_pod,
    merge_patch,
    train_job_pod,
)
from gpu_policy_support.pod_specs import containers, pod_gpu_resources
from tests.policies.crd_fixtures import runtime_patch

GPU = {"limits": {"nvidia.com/gpu": 1}}
TOLERATE = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]


def names(spec: Any) -> list[str]:
    return [c.label for c in containers(spec)]


# --- KServe ---------------------------------------------------------------------------------


def test_a_predictor_is_its_inline_pod_spec_with_the_model_as_kserve_container() -> None:
    predictor = {
        "minReplicas": 1,
        "resources": {"limits": {"cpu": "4"}},  # pod-level resources, not a container's
        "tolerations": TOLERATE,
        "model": {"modelFormat": {"name": "huggingface"}, "resources": GPU},
        "containers": [{"name": "agent", "image": "kserve/agent:v0.14.0"}],
    }
    spec, runtime = inline_pod(predictor, predictor=True)
    assert names(spec) == ["containers[kserve-container]", "containers[agent]"]
    assert pod_gpu_resources(spec) == {"nvidia.com/gpu"}
    assert spec.get("tolerations") == TOLERATE
    assert runtime == RuntimeRef(
        "serving.kserve.io", ("ServingRuntime", "ClusterServingRuntime"), None, "huggingface"
    )


@pytest.mark.parametrize("shortcut", ["pytorch", "triton", "huggingface", "sklearn"])
def test_framework_shortcuts_are_containers_too(shortcut: str) -> None:
    spec, runtime = inline_pod({shortcut: {"name": "server", "resources": GPU}}, predictor=True)
    assert names(spec) == ["containers[server]"]
    assert runtime is None  # only ``model`` names a runtime or a format to pick one by


def test_a_named_runtime_and_components_without_one() -> None:
    model = {"runtime": "vllm-gpu", "modelFormat": {"name": "vllm"}}
    _, runtime = inline_pod({"model": model}, predictor=True)
    assert runtime is not None and (runtime.name, runtime.model_format) == ("vllm-gpu", "vllm")
    _, transformer_runtime = inline_pod({"model": model}, predictor=False)
    assert transformer_runtime is None


def test_an_unknown_field_stops_only_what_reads_it() -> None:
    props = unknown_checking_proxy(
        {"tolerations": UNKNOWN_ARRAY_VALUE, "model": {"resources": GPU}}
    )
    spec, _ = inline_pod(props, predictor=True)
    assert pod_gpu_resources(spec) == {"nvidia.com/gpu"}
    with pytest.raises(UnknownValueError):
        spec.get("tolerations")


# --- Kubeflow Trainer v2 --------------------------------------------------------------------


def test_a_train_job_is_its_trainer_container_and_pod_patches() -> None:
    spec, runtime = train_job_pod(
        {
            "runtimeRef": {"name": "torch-distributed"},
            "trainer": {
                "image": "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime",
                "env": [{"name": "EPOCHS", "value": "3"}],
                "resourcesPerNode": GPU,
            },
            "runtimePatches": [
                runtime_patch(
                    {
                        "tolerations": TOLERATE,
                        "nodeSelector": {"pool": "a100"},
                        "containers": [{"name": "node", "securityContext": {"runAsUser": 1000}}],
                    }
                ),
                runtime_patch({"nodeSelector": {"zone": "a"}, "tolerations": TOLERATE[:1]}),
            ],
        }
    )
    (node,) = containers(spec)
    assert node.spec == {
        "name": "node",
        "securityContext": {"runAsUser": 1000},
        "image": "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime",
        "env": [{"name": "EPOCHS", "value": "3"}],
        "resources": GPU,
    }
    assert spec.get("tolerations") == TOLERATE * 2
    assert spec.get("nodeSelector") == {"pool": "a100", "zone": "a"}
    assert spec.get("hostIPC") is None
    assert runtime == RuntimeRef(
        "trainer.kubeflow.org", ("ClusterTrainingRuntime",), "torch-distributed"
    )


def test_a_train_job_without_patches_leaves_its_pod_fields_to_its_runtime() -> None:
    ref = {"name": "team-torch", "kind": "TrainingRuntime"}
    spec, runtime = train_job_pod({"runtimeRef": ref, "trainer": {"resourcesPerNode": GPU}})
    assert (spec.get("tolerations"), spec.get("nodeSelector"), spec.get("affinity")) == (
        None,
        None,
        None,
    )
    assert runtime is not None and runtime.kinds == ("TrainingRuntime",)


# --- Argo Workflows -------------------------------------------------------------------------


def _workflow(**spec: Any) -> dict[str, Any]:
    train = {"name": "train", "container": {"image": "nvcr.io/nvidia/pytorch:24.05-py3"}}
    return {
        "entrypoint": "main",
        "templates": [
            {"name": "main", "steps": [[{"name": "prep", "template": "prep"}]]},
            {"name": "prep", "dag": {"tasks": [{"name": "train", "template": "train"}]}},
            train,
            {"name": "wait", "suspend": {}},
        ],
        **spec,
    }


def pods(workflow: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: dict(spec) for name, spec, _ in argo_pods(workflow)}


def test_only_templates_that_run_containers_are_pods() -> None:
    workflow = _workflow()
    workflow["templates"].append(
        {
            "name": "eval",
            "script": {"image": "python:3.12", "source": "print(1)"},
            "sidecars": [{"name": "nim", "image": "nvcr.io/nim/llama:1.0", "resources": GPU}],
        }
    )
    workflow["templates"].append(
        {"name": "shards", "containerSet": {"containers": [{"name": "a"}, {"name": "b"}]}}
    )
    found = pods(workflow)
    assert list(found) == ["train", "eval", "shards"]
    assert names(found["train"]) == ["containers[main]"]
    assert names(found["eval"]) == ["containers[main]", "containers[nim]"]
    assert names(found["shards"]) == ["containers[a]", "containers[b]"]


WORKFLOW_TOLERATES = [{"key": "dedicated", "operator": "Exists"}]
CALLER_TOLERATES = [{"key": "team", "operator": "Exists"}]


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ("template", TOLERATE),
        ("defaults", TOLERATE),
        ("caller", CALLER_TOLERATES),
        ("workflow", WORKFLOW_TOLERATES),
    ],
)
def test_a_template_takes_pod_fields_from_itself_its_caller_then_the_workflow(
    where: str, expected: list[dict[str, Any]]
) -> None:
    workflow = _workflow(tolerations=WORKFLOW_TOLERATES)
    templates = {t["name"]: t for t in workflow["templates"]}
    if where in ("template", "defaults", "caller"):
        templates["main"]["tolerations"] = CALLER_TOLERATES  # called two levels up
    if where == "template":
        templates["train"]["tolerations"] = TOLERATE
    if where == "defaults":
        workflow["templateDefaults"] = {"tolerations": TOLERATE}
    assert pods(workflow)["train"]["tolerations"] == expected


def test_pod_spec_patches_are_applied_workflow_first() -> None:
    workflow = _workflow(podSpecPatch=json.dumps({"hostIPC": True, "priorityClassName": "low"}))
    templates = {t["name"]: t for t in workflow["templates"]}
    templates["train"]["podSpecPatch"] = (
        "priorityClassName: high\n"
        "containers:\n"
        "  - name: main\n"
        "    resources:\n"
        "      limits:\n"
        "        nvidia.com/gpu: 2\n"
    )
    pod = pods(workflow)["train"]
    assert (pod["hostIPC"], pod["priorityClassName"]) == (True, "high")
    (main,) = pod["containers"]
    assert main == {
        "image": "nvcr.io/nvidia/pytorch:24.05-py3",
        "name": "main",
        "resources": {"limits": {"nvidia.com/gpu": 2}},
    }


@pytest.mark.parametrize("patch", ["", "{not: [yaml", "[1, 2]", 7])
def test_a_patch_that_is_no_mapping_changes_nothing(patch: Any) -> None:
    workflow = _workflow()
    workflow["templates"][2]["podSpecPatch"] = patch
    assert pods(workflow)["train"] == pods(_workflow())["train"]


def test_merge_patch_merges_containers_by_name_and_maps_by_key() -> None:
    base = {
        "containers": [{"name": "main", "resources": {"limits": {"cpu": "1"}}}],
        "nodeSelector": {"a": "1"},
        "tolerations": TOLERATE,
    }
    patch = {
        "containers": [
            {"name": "main", "resources": {"limits": {"nvidia.com/gpu": 1}}},
            {"name": "sidecar", "image": "busybox:1.36"},
        ],
        "nodeSelector": {"b": "2"},
        "tolerations": [],
    }
    assert merge_patch(base, patch) == {
        "containers": [
            {"name": "main", "resources": {"limits": {"cpu": "1", "nvidia.com/gpu": 1}}},
            {"name": "sidecar", "image": "busybox:1.36"},
        ],
        "nodeSelector": {"a": "1", "b": "2"},
        "tolerations": [],
    }
