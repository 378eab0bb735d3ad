"""Outputs a preview knows only after create: an EKS cluster's endpoint and CA, a Service's
status, and what is made of them (a namespace named after the status). Every apply below
would fail if it ran on them. An auto-named Kubernetes object's name is known: the provider's
Check names it, and a preview shows that name."""

import pulumi
import pulumi_kubernetes as k8s


class Cluster(pulumi.CustomResource):
    """aws.eks.Cluster as pulumi-aws declares it: outputs None in the property map."""

    endpoint: pulumi.Output[str]
    certificateAuthority: pulumi.Output[dict]  # noqa: N815 - the wire name

    def __init__(self, name: str, role_arn: str) -> None:
        props = {"roleArn": role_arn, "endpoint": None, "certificateAuthority": None}
        super().__init__("aws:eks/cluster:Cluster", name, props)


def must_not_run(value: object) -> str:
    raise AssertionError(f"an apply ran on a value only known after create: {value!r}")


cluster = Cluster("gpu", role_arn="arn:aws:iam::123456789012:role/eks")
kubeconfig = pulumi.Output.all(cluster.endpoint, cluster.certificateAuthority).apply(
    lambda args: must_not_run(args[1]["data"])
)
namespace = k8s.core.v1.Namespace("team")  # auto-named: known
service = k8s.core.v1.Service(
    "svc", metadata={"name": "svc", "namespace": "team"}, spec={"ports": [{"port": 80}]}
)
team_namespace = service.status.apply(must_not_run)  # made of an unknown: unknown
k8s.apps.v1.Deployment(
    "trainer",
    metadata={"namespace": team_namespace, "name": "trainer"},
    spec={
        "selector": {"matchLabels": {"app": "trainer"}},
        "template": {
            "metadata": {"labels": {"app": "trainer"}},
            "spec": {"containers": [{"name": "t", "image": "nvcr.io/nvidia/pytorch:24.05-py3"}]},
        },
    },
)
service.status.apply(lambda status: must_not_run(status["loadBalancer"]))
pulumi.export("endpoint", cluster.endpoint)
pulumi.export("kubeconfig", kubeconfig)
pulumi.export("namespace", namespace.metadata.name)
settings = k8s.core.v1.ConfigMap("settings", metadata={"labels": {"team": "ml"}}, data={"a": "b"})
pulumi.export("roleArn", cluster.roleArn)  # an input: known
pulumi.export("settingsName", settings.metadata.name)  # auto-named: known
pulumi.export("settingsLabels", settings.metadata.labels)  # given: known
