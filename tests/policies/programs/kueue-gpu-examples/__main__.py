"""A team's GPU workloads queued by Kueue, written as Kueue's GPU examples write them: a
ResourceFlavor that carries the GPU taint's toleration, a ClusterQueue with GPU quota on it, a
LocalQueue in the team's governed namespace, and workloads that name the LocalQueue and tolerate
nothing themselves (Kueue adds the flavour's toleration when it admits them): a LeaderWorkerSet
serving a model and a Job fine-tuning one.

Two mistakes: a Deployment in the queued namespace that names no queue (it would take GPUs past
the queue's quota; nothing adds its toleration either), and a second LeaderWorkerSet queued to a
LocalQueue whose ClusterQueue's flavour carries no toleration.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "ml-serving"
GPU = {"limits": {"nvidia.com/gpu": "1"}}
IMAGE = "vllm/vllm-openai:v0.6.3"
KUEUE = "kueue.x-k8s.io/v1beta2"

namespace = k8s.core.v1.Namespace(
    "ns", metadata={"name": NAMESPACE, "labels": {"workload": "inference"}}
)
opts = pulumi.ResourceOptions(depends_on=[namespace])
k8s.networking.v1.NetworkPolicy(
    "deny-all",
    metadata={"name": "deny-all", "namespace": NAMESPACE},
    spec={"pod_selector": {}, "policy_types": ["Ingress", "Egress"]},
    opts=opts,
)
k8s.core.v1.ResourceQuota(
    "gpu-quota",
    metadata={"name": "gpu-quota", "namespace": NAMESPACE},
    spec={"hard": {"requests.nvidia.com/gpu": "8"}},
    opts=opts,
)


def flavor(name: str, tolerations: list[dict[str, str]]) -> None:
    k8s.apiextensions.CustomResource(
        name,
        api_version=KUEUE,
        kind="ResourceFlavor",
        metadata={"name": name},
        spec={
            "nodeLabels": {"cloud.google.com/gke-accelerator": "nvidia-l4"},
            "tolerations": tolerations,
        },
    )


def queues(name: str, flavor_name: str) -> None:
    k8s.apiextensions.CustomResource(
        f"cq-{name}",
        api_version=KUEUE,
        kind="ClusterQueue",
        metadata={"name": name},
        spec={
            "namespaceSelector": {},
            "resourceGroups": [
                {
                    "coveredResources": ["nvidia.com/gpu"],
                    "flavors": [
                        {
                            "name": flavor_name,
                            "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 8}],
                        }
                    ],
                }
            ],
        },
    )
    k8s.apiextensions.CustomResource(
        f"lq-{name}",
        api_version=KUEUE,
        kind="LocalQueue",
        metadata={"name": name, "namespace": NAMESPACE},
        spec={"clusterQueue": name},
        opts=opts,
    )


flavor("gpu-l4", [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}])
queues("serving", "gpu-l4")
flavor("gpu-l4-bare", [])
queues("serving-bare", "gpu-l4-bare")


def pod(name: str) -> dict[str, object]:
    return {
        "metadata": {"labels": {"app": name, "workload": "inference"}},
        "spec": {"containers": [{"name": "vllm", "image": IMAGE, "resources": GPU}]},
    }


def leader_worker_set(name: str, queue: str) -> None:
    k8s.apiextensions.CustomResource(
        name,
        api_version="leaderworkerset.x-k8s.io/v1",
        kind="LeaderWorkerSet",
        metadata={
            "name": name,
            "namespace": NAMESPACE,
            "labels": {"kueue.x-k8s.io/queue-name": queue},
        },
        spec={
            "replicas": 2,
            "leaderWorkerTemplate": {"size": 2, "workerTemplate": pod(name)},
        },
        opts=opts,
    )


leader_worker_set("llama-serve", "serving")
leader_worker_set("llama-serve-bare", "serving-bare")
k8s.batch.v1.Job(
    "finetune",
    metadata={
        "name": "finetune",
        "namespace": NAMESPACE,
        "labels": {"kueue.x-k8s.io/queue-name": "serving"},
    },
    spec={
        "template": {
            **pod("finetune"),
            "spec": {"restartPolicy": "Never", **pod("finetune")["spec"]},
        }
    },
    opts=opts,
)
k8s.apps.v1.Deployment(
    "unqueued",
    metadata={"name": "unqueued", "namespace": NAMESPACE},
    spec={"selector": {"matchLabels": {"app": "unqueued"}}, "template": pod("unqueued")},
    opts=opts,
)
