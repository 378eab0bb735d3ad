"""operator_pods: the pods KAITO and NVIDIA's NIM operator make from their custom resources, as
their controllers make them (gpu_facts.operators)."""

from __future__ import annotations

from typing import Any

from gpu_facts.operators import KAITO_TOLERATIONS
from gpu_policy_support.claims import StackClaims, gpu_demand
from gpu_policy_support.operator_pods import CREATED_CLAIM
from gpu_policy_support.pod_specs import PodSite, pod_gpu_resources, pod_sites

WORKSPACE = "kubernetes:kaito.sh/v1beta1:Workspace"
INFERENCE_SET = "kubernetes:kaito.sh/v1beta1:InferenceSet"
NIM_SERVICE = "kubernetes:apps.nvidia.com/v1alpha1:NIMService"
NIM_PIPELINE = "kubernetes:apps.nvidia.com/v1alpha1:NIMPipeline"
NIM_CACHE = "kubernetes:apps.nvidia.com/v1alpha1:NIMCache"
SELECTOR = {"matchLabels": {"apps": "phi-4"}}
PROFILE = "tensorrt_llm-a100-bf16-tp1-throughput"
"""A NIM profile of an optimized NIM, as a NIMService names the one its NIMCache cached."""


def site(type_: str, props: dict[str, Any]) -> PodSite:
    (found,) = pod_sites(type_, props)
    return found


def workspace(**fields: Any) -> dict[str, Any]:
    return {"metadata": {"name": "phi-4", "namespace": "llm"}, **fields}


def test_a_preset_workspace_asks_for_its_sizes_gpus_and_tolerates_the_gpu_taint() -> None:
    resource = {"instanceType": "Standard_NC96ads_A100_v4", "labelSelector": SELECTOR}
    pod = site(WORKSPACE, workspace(resource=resource, inference={"preset": {"name": "phi-4"}}))
    (container,) = pod.spec["containers"]
    assert (pod.where, container["name"]) == ("inference.preset", "phi-4")
    assert container["resources"] == {
        "requests": {"nvidia.com/gpu": 4},
        "limits": {"nvidia.com/gpu": 4},
    }
    assert pod.spec["tolerations"] == list(KAITO_TOLERATIONS)
    terms = pod.spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert terms["nodeSelectorTerms"] == [
        {"matchExpressions": [{"key": "apps", "operator": "In", "values": ["phi-4"]}]}
    ]
    assert pod.labels is None  # KAITO sets a preset pod's labels itself


def test_a_mig_partition_asks_for_one_slice_and_tolerates_its_key() -> None:
    resource = {"labelSelector": SELECTOR, "partition": {"mode": "mig", "profile": "1g.10gb"}}
    pod = site(WORKSPACE, workspace(resource=resource, inference={"preset": {"name": "phi-4"}}))
    assert pod_gpu_resources(pod.spec) == {"nvidia.com/mig-1g.10gb"}
    assert pod.spec["tolerations"][-1] == {
        "key": "nvidia.com/mig-1g.10gb",
        "operator": "Exists",
        "effect": "NoSchedule",
    }


def test_a_template_keeps_its_resources_gets_kaitos_tolerations_and_affinity() -> None:
    template = {
        "metadata": {"labels": {"workload": "inference"}},
        "spec": {
            "containers": [{"name": "vllm", "resources": {"limits": {"nvidia.com/gpu": 2}}}],
            "tolerations": [{"key": "team", "operator": "Exists"}],
            "affinity": {"podAntiAffinity": {}},
        },
    }
    resource = {"instanceType": "Standard_NC24ads_A100_v4"}
    pod = site(WORKSPACE, workspace(resource=resource, inference={"template": template}))
    assert pod.where == "inference.template"
    assert pod_gpu_resources(pod.spec) == {"nvidia.com/gpu"}
    assert pod.spec["tolerations"] == [{"key": "team", "operator": "Exists"}, *KAITO_TOLERATIONS]
    assert pod.spec["affinity"] is None  # replaced: no labelSelector, no affinity
    assert dict(pod.labels or {}) == {"workload": "inference", "kaito.sh/workspace": "phi-4"}


def test_a_tuning_workspace_has_no_inference_pod() -> None:
    assert pod_sites(WORKSPACE, workspace(tuning={"preset": {"name": "phi-4"}})) == []


def test_an_inference_set_builds_workspaces_with_its_label_selector() -> None:
    props = {
        "metadata": {"name": "phi-4", "namespace": "llm"},
        "spec": {
            "replicas": 3,
            "labelSelector": SELECTOR,
            "template": {
                "resource": {"instanceType": "Standard_NC24ads_A100_v4"},
                "inference": {"preset": {"name": "phi-4"}},
            },
        },
    }
    pod = site(INFERENCE_SET, props)
    assert pod.where == "spec.template.inference.preset"
    assert pod.spec["containers"][0]["resources"]["limits"] == {"nvidia.com/gpu": 1}
    assert "affinity" in pod.spec


def nim(**spec: Any) -> dict[str, Any]:
    base = {
        "image": {"repository": "nvcr.io/nim/meta/llama-3.1-8b-instruct", "tag": "1.3.3"},
        "authSecret": "ngc-api-secret",
        "storage": {"nimCache": {"name": "llama", "profile": PROFILE}},
    }
    return {"metadata": {"name": "llama", "namespace": "nim"}, "spec": {**base, **spec}}


def test_the_operator_adds_the_gpu_a_nimservice_from_a_nimcache_does_not_name() -> None:
    pod = site(NIM_SERVICE, nim(resources={"limits": {"cpu": "8"}}))
    (container,) = pod.spec["containers"]
    assert container["name"] == "llama-ctr"
    assert container["image"] == "nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3"
    assert container["resources"] == {
        "requests": {"nvidia.com/gpu": 1},
        "limits": {"cpu": "8", "nvidia.com/gpu": 1},
    }
    assert "tolerations" not in pod.spec  # no toleration of the operator's own
    multi = site(NIM_SERVICE, nim(multiNode={"parallelism": {"tensor": 8.0}}))
    assert multi.spec["containers"][0]["resources"]["limits"] == {"nvidia.com/gpu": 8}


def test_the_operator_adds_no_gpu_when_the_spec_or_its_claims_say_how_many() -> None:
    asked = {"limits": {"nvidia.com/gpu": 2}, "requests": {"nvidia.com/gpu": 2}}
    assert site(NIM_SERVICE, nim(resources=asked)).spec["containers"][0]["resources"] == asked
    claims = nim(draResources=[{"resourceClaimTemplateName": "one-gpu"}])
    pod = site(NIM_SERVICE, claims)
    assert pod_gpu_resources(pod.spec) == set()
    assert pod.spec["resourceClaims"] == [{"name": "dra-0", "resourceClaimTemplateName": "one-gpu"}]
    assert pod.spec["containers"][0]["resources"]["claims"] == [{"name": "dra-0"}]
    # Inline: the template the operator makes of claimCreationSpec, NIM's defaults filled in.
    inline = {
        "devices": [
            {"name": "gpu"},
            {"name": "mig", "deviceClassName": "mig.nvidia.com", "count": 2},
        ]
    }
    pod = site(NIM_SERVICE, nim(draResources=[{"claimCreationSpec": inline}]))
    assert pod_gpu_resources(pod.spec) == set()
    assert pod.spec["resourceClaims"] == [
        {
            "name": "dra-0",
            CREATED_CLAIM: {
                "requests": [
                    {"name": "gpu", "deviceClassName": "gpu.nvidia.com", "count": 1},
                    {"name": "mig", "deviceClassName": "mig.nvidia.com", "count": 2},
                ]
            },
        }
    ]
    demand = gpu_demand(pod.spec, "nim", StackClaims())
    assert dict(demand.classes) == {"gpu.nvidia.com": 1, "mig.nvidia.com": 2}
    assert demand.describe() == (
        "claims gpu.nvidia.com, mig.nvidia.com (the claim the operator creates)"
    )
    from_pvc = nim(storage={"pvc": {"name": "model"}})
    assert pod_gpu_resources(site(NIM_SERVICE, from_pvc).spec) == set()


def test_the_operator_adds_no_gpu_for_a_nimcache_without_a_named_profile() -> None:
    """v3.1.2 sets the model profile from ``storage.nimCache.profile`` alone and assigns GPUs
    only with one: a cache without it (or with it empty) gets the pod no GPU."""
    for cache in ({"name": "llama"}, {"name": "llama", "profile": ""}):
        pod = site(NIM_SERVICE, nim(storage={"nimCache": cache}))
        assert pod_gpu_resources(pod.spec) == set()


def test_scheduling_fields_and_labels_are_copied_as_written() -> None:
    toleration = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    props = nim(
        tolerations=[toleration],
        nodeSelector={"pool": "a100"},
        labels={"workload": "inference"},
        sidecarContainers=[{"name": "proxy", "image": {"repository": "envoy", "tag": "v1.31"}}],
    )
    pod = site(NIM_SERVICE, props)
    assert (pod.spec["tolerations"], pod.spec["nodeSelector"]) == ([toleration], {"pool": "a100"})
    assert [c["image"] for c in pod.spec["containers"]] == [
        "nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3",
        "envoy:v1.31",
    ]
    assert dict(pod.labels or {}) == {"app": "llama", "workload": "inference"}


def test_a_nim_pipeline_makes_a_pod_per_enabled_service() -> None:
    services = [
        {"name": "llm", "enabled": True, "spec": nim()["spec"]},
        {"name": "embedder", "enabled": False, "spec": nim()["spec"]},
        {"name": "reranker", "spec": nim()["spec"]},
    ]
    props = {"metadata": {"name": "rag", "namespace": "nim"}, "spec": {"services": services}}
    sites = pod_sites(NIM_PIPELINE, props)
    assert [s.where for s in sites] == ["spec.services[llm]", "spec.services[reranker]"]
    assert sites[0].spec["containers"][0]["name"] == "llm-ctr"


def test_a_nimcache_job_has_the_model_puller_and_no_gpu() -> None:
    props = {
        "metadata": {"name": "llama", "namespace": "nim"},
        "spec": {
            "source": {"ngc": {"modelPuller": "nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3"}},
            "resources": {"cpu": "4", "memory": "16Gi"},
            "env": [{"name": "NIM_LOG_LEVEL", "value": "INFO"}],
            "tolerations": [{"key": "dedicated", "operator": "Exists"}],
        },
    }
    pod = site(NIM_CACHE, props)
    (container,) = pod.spec["containers"]
    assert container["name"] == "nim-cache-ctr"
    assert container["resources"]["limits"] == {"cpu": "4", "memory": "16Gi"}
    assert container["env"] == [{"name": "NIM_LOG_LEVEL", "value": "INFO"}]
    assert pod_gpu_resources(pod.spec) == set()


def test_a_template_with_a_mig_partition_gets_kaitos_default_tolerations_only() -> None:
    """KAITO adds the MIG profile's toleration on the preset path alone: a template gets
    ``defaultTolerations`` (``template_inference.go``), so its MIG taint is its own to tolerate."""
    template = {"spec": {"containers": [{"name": "vllm"}]}}
    resource = {"labelSelector": SELECTOR, "partition": {"mode": "mig", "profile": "1g.10gb"}}
    pod = site(WORKSPACE, workspace(resource=resource, inference={"template": template}))
    assert pod.spec["tolerations"] == list(KAITO_TOLERATIONS)
