"""An ACK team's program: an ACK Pro cluster with two shared-GPU node pools, one cGPU
(``ack.node.gpu.schedule=cgpu``) and one MPS (``=mps``), both tainted for GPUs, beside a
system pool; NVIDIA's dcgm-exporter, and a GPU-memory pod for each GPU pool.

cGPU isolates GPU memory in the driver: its pods ask for ``aliyun.com/gpu-mem`` and need no
host IPC. MPS clients do: the pod on the MPS pool forgot ``hostIPC: true`` and cannot reach the
MPS control daemon. Resources are declared with their real type tokens (``pulumi.
CustomResource``), so no pulumi-alicloud SDK is needed.
"""

import pulumi
import pulumi_kubernetes as k8s

cluster = pulumi.CustomResource(
    "alicloud:cs/managedKubernetes:ManagedKubernetes",
    "ack",
    {
        "name": "ml-ack",
        "clusterSpec": "ack.pro.small",
        "workerVswitchIds": ["vsw-0a"],
        "addons": [
            {"name": "terway-eniip", "config": '{"NetworkPolicy": "true"}'},
            {"name": "arms-prometheus"},
        ],
    },
)


def gpu_pool(name: str, mode: str) -> None:
    pulumi.CustomResource(
        "alicloud:cs/nodePool:NodePool",
        name,
        {
            "clusterId": "ack-id",
            "nodePoolName": name,
            "vswitchIds": ["vsw-0a"],
            "instanceTypes": ["ecs.gn7i-c8g1.2xlarge"],
            "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}],
            "labels": [
                {"key": "ack.node.gpu.schedule", "value": mode},
                {"key": "pool", "value": name},
            ],
            "desiredSize": "0",
        },
        opts=pulumi.ResourceOptions(depends_on=[cluster]),
    )


gpu_pool("a10-cgpu", "cgpu")
gpu_pool("a10-mps", "mps")
pulumi.CustomResource(
    "alicloud:cs/nodePool:NodePool",
    "system",
    {
        "clusterId": "ack-id",
        "nodePoolName": "system",
        "vswitchIds": ["vsw-0a"],
        "instanceTypes": ["ecs.g7.xlarge"],
        "desiredSize": "2",
    },
    opts=pulumi.ResourceOptions(depends_on=[cluster]),
)

TOLERATE_GPU = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
k8s.helm.v3.Release(
    "dcgm-exporter",
    chart="dcgm-exporter",
    version="4.8.2",
    namespace="gpu-metrics",
    repository_opts={"repo": "https://nvidia.github.io/dcgm-exporter/helm-charts"},
    values={"tolerations": TOLERATE_GPU, "serviceMonitor": {"enabled": False}},
)

NAMESPACE = "shared-gpu"
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
    "gpu-mem-quota",
    metadata={"name": "gpu-mem-quota", "namespace": NAMESPACE},
    spec={"hard": {"requests.aliyun.com/gpu-mem": "48"}},
    opts=opts,
)


def gpu_mem_server(name: str, pool: str) -> None:
    labels = {"app": name, "workload": "inference"}
    k8s.apps.v1.Deployment(
        name,
        metadata={"name": name, "namespace": NAMESPACE},
        spec={
            "selector": {"match_labels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "node_selector": {"pool": pool},
                    "tolerations": TOLERATE_GPU,
                    "containers": [
                        {
                            "name": "server",
                            "image": "vllm/vllm-openai:v0.6.3",
                            "resources": {"limits": {"aliyun.com/gpu-mem": "8"}},
                        }
                    ],
                },
            },
        },
        opts=opts,
    )


gpu_mem_server("cgpu-server", "a10-cgpu")
gpu_mem_server("mps-server", "a10-mps")
