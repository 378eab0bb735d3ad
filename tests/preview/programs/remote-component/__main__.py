"""A component package whose Python wraps a plugin (pulumi-eks): its components are remote.
The plan shows them with their inputs; their outputs are the plugin's, so unknown."""

import pulumi
import pulumi_kubernetes as k8s


class Cluster(pulumi.ComponentResource):
    """eks.Cluster as pulumi-eks declares it."""

    kubeconfig: pulumi.Output[str]

    def __init__(self, name: str, **props: object) -> None:
        super().__init__("eks:index:Cluster", name, {**props, "kubeconfig": None}, remote=True)


class ManagedNodeGroup(pulumi.ComponentResource):
    def __init__(self, name: str, **props: object) -> None:
        super().__init__("eks:index:ManagedNodeGroup", name, props, remote=True)


cluster = Cluster("gpu", instanceType="t3.medium", desiredCapacity=1, createOidcProvider=True)
ManagedNodeGroup(
    "gpu-nodes",
    cluster=cluster,
    instanceTypes=["g5.xlarge"],
    amiType="AL2_x86_64_GPU",
    taints=[{"key": "nvidia.com/gpu", "value": "true", "effect": "NO_SCHEDULE"}],
    scalingConfig={"minSize": 0, "maxSize": 2, "desiredSize": 0},
)
provider = k8s.Provider("eks", kubeconfig=cluster.kubeconfig)
k8s.core.v1.Namespace("ml", metadata={"name": "ml"}, opts=pulumi.ResourceOptions(provider=provider))
pulumi.export("kubeconfig", cluster.kubeconfig)
