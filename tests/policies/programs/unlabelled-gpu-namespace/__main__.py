"""GPU workloads in a namespace the program declares without any GPU label, and in one it
does not declare at all. Both are GPU namespaces: the declared one is judged for its deny-all
NetworkPolicy and GPU quota, the undeclared one gets an advisory saying it cannot be judged.
"""

import pulumi
import pulumi_kubernetes as k8s

TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def gpu_pod(name: str) -> dict[str, object]:
    return {
        "tolerations": [TOLERATION],
        "restart_policy": "Never",
        "containers": [
            {
                "name": name,
                "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                "resources": {"limits": {"nvidia.com/gpu": "1"}},
            }
        ],
    }


team_a = k8s.core.v1.Namespace("team-a", metadata={"name": "team-a"})
k8s.batch.v1.Job(
    "finetune",
    metadata={"name": "finetune", "namespace": "team-a"},
    spec={"template": {"spec": gpu_pod("finetune")}},
    opts=pulumi.ResourceOptions(depends_on=[team_a]),
)
# team-b is made by hand (or another stack): this program only deploys into it.
k8s.batch.v1.Job(
    "evaluate",
    metadata={"name": "evaluate", "namespace": "team-b"},
    spec={"template": {"spec": gpu_pod("evaluate")}},
)
