"""An inference team's NVIDIA NIM program: a ``NIMCache`` that downloads Llama 3.1 8B, a
``NIMService`` that serves one of its profiles, and a ``NIMPipeline`` of a retriever and a
reranker, in the team's governed namespace.

NVIDIA's NIM operator makes a Deployment of each service. The NIMService names no GPU: served
a named profile of an optimized NIM's cache, the operator gives it ``nvidia.com/gpu`` itself,
and copies the service's tolerations as written, adding none. As first written neither the
NIMService nor the pipeline's services tolerate the GPU taint; stack ``fixed``
(``tolerateGpuTaint: true``) adds it. The NIMCache's download Job asks for no GPU and needs
none. The operator's version is the platform team's: ``policy-config.json`` names it.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "nim"
config = pulumi.Config()
TOLERATIONS = (
    [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
    if config.get_bool("tolerateGpuTaint")
    else []
)
LABELS = {"workload": "inference"}

namespace = k8s.core.v1.Namespace("nim", metadata={"name": NAMESPACE, "labels": LABELS})
opts = pulumi.ResourceOptions(depends_on=[namespace])
k8s.networking.v1.NetworkPolicy(
    "deny-all",
    metadata={"name": "deny-all", "namespace": NAMESPACE},
    spec={"pod_selector": {}, "policy_types": ["Ingress", "Egress"]},
    opts=opts,
)
k8s.core.v1.ResourceQuota(
    "nim-gpus",
    metadata={"name": "nim-gpus", "namespace": NAMESPACE},
    spec={"hard": {"requests.nvidia.com/gpu": "4"}},
    opts=opts,
)

IMAGE = {"repository": "nvcr.io/nim/meta/llama-3.1-8b-instruct", "tag": "1.3.3"}
PROFILE = "tensorrt_llm-a100-bf16-tp1-throughput"
"""The cached profile the NIMService runs: named, the operator gives its pod the GPUs."""
k8s.apiextensions.CustomResource(
    "llama-cache",
    api_version="apps.nvidia.com/v1alpha1",
    kind="NIMCache",
    metadata={"name": "llama-3-1-8b", "namespace": NAMESPACE},
    spec={
        "source": {
            "ngc": {
                "modelPuller": f"{IMAGE['repository']}:{IMAGE['tag']}",
                "pullSecret": "ngc-secret",
                "authSecret": "ngc-api-secret",
                "model": {"engine": "tensorrt_llm", "tensorParallelism": "1"},
            }
        },
        "storage": {"pvc": {"create": True, "size": "50Gi", "volumeAccessMode": "ReadWriteOnce"}},
        "resources": {"cpu": "4", "memory": "16Gi"},
    },
    opts=opts,
)


def service(image: dict[str, str], cache: str | None) -> dict[str, object]:
    """A NIMService spec: from a NIMCache (the operator adds the GPU) or asking one itself."""
    spec: dict[str, object] = {
        "image": image,
        "authSecret": "ngc-api-secret",
        "expose": {"service": {"type": "ClusterIP", "port": 8000}},
        "labels": LABELS,
        "tolerations": TOLERATIONS,
    }
    if cache:
        spec["storage"] = {"nimCache": {"name": cache, "profile": PROFILE}}
    else:
        spec["storage"] = {"pvc": {"create": True, "size": "20Gi"}}
        spec["resources"] = {"limits": {"nvidia.com/gpu": 1}}
    return spec


k8s.apiextensions.CustomResource(
    "llama",
    api_version="apps.nvidia.com/v1alpha1",
    kind="NIMService",
    metadata={"name": "llama", "namespace": NAMESPACE},
    spec=service(IMAGE, "llama-3-1-8b"),
    opts=opts,
)
retriever = {"repository": "nvcr.io/nim/nvidia/llama-3.2-nv-embedqa-1b-v2", "tag": "1.3.0"}
reranker = {"repository": "nvcr.io/nim/nvidia/llama-3.2-nv-rerankqa-1b-v2", "tag": "1.3.0"}
k8s.apiextensions.CustomResource(
    "rag",
    api_version="apps.nvidia.com/v1alpha1",
    kind="NIMPipeline",
    metadata={"name": "rag", "namespace": NAMESPACE},
    spec={
        "services": [
            {"name": "embedder", "enabled": True, "spec": service(retriever, None)},
            {"name": "reranker", "enabled": True, "spec": service(reranker, None)},
        ]
    },
    opts=opts,
)
