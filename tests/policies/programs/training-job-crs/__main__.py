"""A training team's program: a Kubeflow PyTorchJob (``kubeflow.org/v1``, Master and Workers on
GPUs) and a JobSet (``jobset.x-k8s.io/v1alpha2``) that evaluates checkpoints, both queued by
Kueue, in the team's governed namespace.

The PyTorchJob is written as the practices ask. The JobSet's evaluator shares a GPU by asking
for half of one and picks its GPU itself with ``NVIDIA_VISIBLE_DEVICES`` (a Docker habit):
extended resources cannot be split, and the variable bypasses the scheduler's device ledger.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "ml-training"
QUEUE = {"kueue.x-k8s.io/queue-name": "gpu-team"}
TOLERATE_GPU = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
IMAGE = "nvcr.io/nvidia/pytorch:24.05-py3"

namespace = k8s.core.v1.Namespace(
    "ns", metadata={"name": NAMESPACE, "labels": {"workload": "training"}}
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
    spec={"hard": {"requests.nvidia.com/gpu": "16"}},
    opts=opts,
)


def trainer_pod(gpus: str) -> dict[str, object]:
    return {
        "metadata": {"labels": {"workload": "training"}},
        "spec": {
            "tolerations": TOLERATE_GPU,
            "containers": [
                {
                    "name": "pytorch",
                    "image": IMAGE,
                    "command": ["torchrun", "/workspace/train.py"],
                    "resources": {"limits": {"nvidia.com/gpu": gpus}},
                }
            ],
        },
    }


k8s.apiextensions.CustomResource(
    "llama-finetune",
    api_version="kubeflow.org/v1",
    kind="PyTorchJob",
    metadata={"name": "llama-finetune", "namespace": NAMESPACE, "labels": QUEUE},
    spec={
        "runPolicy": {"cleanPodPolicy": "None"},
        "pytorchReplicaSpecs": {
            "Master": {"replicas": 1, "restartPolicy": "OnFailure", "template": trainer_pod("8")},
            "Worker": {"replicas": 3, "restartPolicy": "OnFailure", "template": trainer_pod("8")},
        },
    },
    opts=opts,
)

evaluator = {
    "metadata": {"labels": {"workload": "training"}},
    "spec": {
        "restartPolicy": "Never",
        "tolerations": TOLERATE_GPU,
        "containers": [
            {
                "name": "evaluate",
                "image": IMAGE,
                "env": [{"name": "NVIDIA_VISIBLE_DEVICES", "value": "all"}],
                "resources": {"limits": {"nvidia.com/gpu": "0.5"}},
            }
        ],
    },
}
k8s.apiextensions.CustomResource(
    "checkpoint-eval",
    api_version="jobset.x-k8s.io/v1alpha2",
    kind="JobSet",
    metadata={"name": "checkpoint-eval", "namespace": NAMESPACE, "labels": QUEUE},
    spec={
        "replicatedJobs": [
            {
                "name": "evaluators",
                "replicas": 1,
                "template": {"spec": {"parallelism": 2, "completions": 2, "template": evaluator}},
            }
        ]
    },
    opts=opts,
)
