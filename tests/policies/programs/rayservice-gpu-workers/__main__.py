"""An inference team's program on a platform cluster: a KubeRay RayService (``ray.io/v1``) whose
CPU head serves the API and whose GPU worker group runs vLLM, in the team's governed namespace.

As first written the GPU workers do not tolerate the GPU taint: on a cluster whose only GPU
nodes are tainted they stay Pending for ever, and the head never gets a replica to serve with.
Stack ``fixed`` (``tolerateGpuTaint: true``) adds the toleration to the worker group.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "llm-serving"
config = pulumi.Config()
TOLERATE_GPU = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]

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

RAY_IMAGE = "rayproject/ray-llm:2.9.0-py311"
head = {
    "metadata": {"labels": {"role": "head"}},
    "spec": {
        "containers": [
            {
                "name": "ray-head",
                "image": RAY_IMAGE,
                "ports": [{"containerPort": 8000, "name": "serve"}],
                "resources": {"limits": {"cpu": "4", "memory": "16Gi"}},
            }
        ]
    },
}
worker_pod: dict[str, object] = {
    "containers": [
        {
            "name": "ray-worker",
            "image": RAY_IMAGE,
            "resources": {"limits": {"cpu": "8", "memory": "48Gi", "nvidia.com/gpu": "1"}},
        }
    ]
}
if config.get_bool("tolerateGpuTaint"):
    worker_pod["tolerations"] = TOLERATE_GPU

k8s.apiextensions.CustomResource(
    "llm",
    api_version="ray.io/v1",
    kind="RayService",
    metadata={"name": "llm", "namespace": NAMESPACE},
    spec={
        "serveConfigV2": "applications:\n  - name: llm\n    import_path: serve:app\n",
        "rayClusterConfig": {
            "rayVersion": "2.9.0",
            "headGroupSpec": {"rayStartParams": {"dashboard-host": "0.0.0.0"}, "template": head},
            "workerGroupSpecs": [
                {
                    "groupName": "gpu-workers",
                    "replicas": 2,
                    "minReplicas": 1,
                    "maxReplicas": 4,
                    "rayStartParams": {},
                    "template": {
                        "metadata": {"labels": {"role": "worker", "workload": "inference"}},
                        "spec": worker_pod,
                    },
                }
            ],
        },
    },
    opts=opts,
)
