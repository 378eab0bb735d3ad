"""An EKS team's program built on pulumi-eks: a ``Cluster`` without its default node group, a CPU
``ManagedNodeGroup`` for the pods that tolerate nothing, and a GPU ``ManagedNodeGroup`` tainted
``nvidia.com/gpu=true:NoSchedule`` (the team's convention, not the device plugin chart's
``present``), NVIDIA's dcgm-exporter and a training Deployment, both tolerating ``Equal "true"``.

pulumi-eks's components are *remote*: its plugin builds their children (the node group's
``aws:eks/nodeGroup:NodeGroup`` with the same taints), so offline their outputs are unknown.
They are registered here as pulumi-eks's Python SDK registers them (``remote=True``, the real
type tokens and wire keys), so no pulumi-eks install is needed. The toleration policy must
judge the workload against the taint the program gave the node group.
"""

import pulumi
import pulumi_kubernetes as k8s


class Cluster(pulumi.ComponentResource):
    """``eks.Cluster`` as pulumi-eks's SDK registers it."""

    kubeconfig: pulumi.Output[str]

    def __init__(self, name: str, **props: object) -> None:
        super().__init__("eks:index:Cluster", name, {**props, "kubeconfig": None}, remote=True)


class ManagedNodeGroup(pulumi.ComponentResource):
    """``eks.ManagedNodeGroup`` as pulumi-eks's SDK registers it."""

    def __init__(self, name: str, **props: object) -> None:
        super().__init__("eks:index:ManagedNodeGroup", name, props, remote=True)


cluster = Cluster("ml", skipDefaultNodeGroup=True, createOidcProvider=True)
# Untainted nodes for what tolerates no GPU taint (CoreDNS, the exporter's own scrapers).
ManagedNodeGroup(
    "system",
    cluster=cluster,
    nodeGroupName="system",
    instanceTypes=["m6i.large"],
    amiType="AL2023_x86_64_STANDARD",
    scalingConfig={"minSize": 2, "desiredSize": 2, "maxSize": 3},
)
ManagedNodeGroup(
    "gpu",
    cluster=cluster,
    nodeGroupName="gpu",
    instanceTypes=["g5.2xlarge"],
    amiType="AL2023_x86_64_NVIDIA",
    labels={"accelerator": "nvidia"},
    taints=[{"key": "nvidia.com/gpu", "value": "true", "effect": "NO_SCHEDULE"}],
    scalingConfig={"minSize": 0, "desiredSize": 0, "maxSize": 4},
)
provider = k8s.Provider("eks", kubeconfig=cluster.kubeconfig)

TOLERATE_TRUE = {"key": "nvidia.com/gpu", "operator": "Equal", "value": "true"}
NAMESPACE = "ml-training"
k8s.helm.v3.Release(
    "dcgm-exporter",
    chart="dcgm-exporter",
    version="4.8.2",
    namespace="gpu-metrics",
    repository_opts={"repo": "https://nvidia.github.io/dcgm-exporter/helm-charts"},
    values={
        "tolerations": [{**TOLERATE_TRUE, "effect": "NoSchedule"}],
        "nodeSelector": {"accelerator": "nvidia"},
        "serviceMonitor": {"enabled": False},
    },
    opts=pulumi.ResourceOptions(provider=provider),
)
namespace = k8s.core.v1.Namespace(
    "ns",
    metadata={"name": NAMESPACE, "labels": {"workload": "training"}},
    opts=pulumi.ResourceOptions(provider=provider),
)
opts = pulumi.ResourceOptions(provider=provider, depends_on=[namespace])
k8s.networking.v1.NetworkPolicy(
    "deny-all",
    metadata={"name": "deny-all", "namespace": NAMESPACE},
    spec={"pod_selector": {}, "policy_types": ["Ingress", "Egress"]},
    opts=opts,
)
k8s.core.v1.ResourceQuota(
    "gpu-quota",
    metadata={"name": "gpu-quota", "namespace": NAMESPACE},
    spec={"hard": {"requests.nvidia.com/gpu": "4"}},
    opts=opts,
)
labels = {"app": "trainer", "workload": "training"}
k8s.apps.v1.Deployment(
    "trainer",
    metadata={"name": "trainer", "namespace": NAMESPACE},
    spec={
        "selector": {"match_labels": labels},
        "template": {
            "metadata": {"labels": labels},
            "spec": {
                "node_selector": {"accelerator": "nvidia"},
                "tolerations": [TOLERATE_TRUE],
                "containers": [
                    {
                        "name": "train",
                        "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                        "resources": {"limits": {"nvidia.com/gpu": "1"}},
                    }
                ],
            },
        },
    },
    opts=opts,
)
