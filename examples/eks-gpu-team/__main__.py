"""An EKS cluster with a GPU managed node group, the NVIDIA device plugin and GPU workloads.

Written the way a platform team writes it, with its own SDKs (requirements.txt): the offline
preview installs them into a cached virtualenv and judges the program with our policy pack.

    .venv/bin/python -m gpu_platform.offline_preview --program examples/eks-gpu-team
"""

import json

import pulumi
import pulumi_aws as aws
import pulumi_eks as eks
import pulumi_kubernetes as k8s

config = pulumi.Config()
gpu_instance_type = config.get("gpuInstanceType") or "g5.xlarge"

# The default VPC: data sources a real preview reads from the account.
vpc = aws.ec2.get_vpc(default=True)
subnets = aws.ec2.get_subnets(
    filters=[aws.ec2.GetSubnetsFilterArgs(name="vpc-id", values=[vpc.id])]
)

node_role = aws.iam.Role(
    "gpu-node-role",
    assume_role_policy=json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Effect": "Allow",
                    "Principal": {"Service": "ec2.amazonaws.com"},
                    "Action": "sts:AssumeRole",
                }
            ],
        }
    ),
)
for i, policy in enumerate(
    [
        "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
        "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
        "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly",
    ]
):
    aws.iam.RolePolicyAttachment(f"gpu-node-policy-{i}", role=node_role, policy_arn=policy)

cluster = eks.Cluster(
    "gpu",
    vpc_id=vpc.id,
    subnet_ids=subnets.ids,
    instance_type="t3.medium",
    desired_capacity=2,
    min_size=1,
    max_size=3,
    instance_roles=[node_role],
    create_oidc_provider=True,
)

gpu_nodes = eks.ManagedNodeGroup(
    "gpu-nodes",
    cluster=cluster,
    node_role=node_role,
    instance_types=[gpu_instance_type],
    ami_type="AL2_x86_64_GPU",
    disk_size=200,
    scaling_config=aws.eks.NodeGroupScalingConfigArgs(min_size=0, desired_size=1, max_size=4),
    labels={"workload": "gpu"},
    taints=[aws.eks.NodeGroupTaintArgs(key="nvidia.com/gpu", value="true", effect="NO_SCHEDULE")],
)

provider = k8s.Provider("eks", kubeconfig=cluster.kubeconfig.apply(json.dumps))
in_cluster = pulumi.ResourceOptions(provider=provider)

# The device plugin, as the NVIDIA docs install it, tolerating the GPU taint.
k8s.helm.v3.Release(
    "nvidia-device-plugin",
    chart="nvidia-device-plugin",
    version="0.17.0",
    namespace="kube-system",
    repository_opts=k8s.helm.v3.RepositoryOptsArgs(
        repo="https://nvidia.github.io/k8s-device-plugin"
    ),
    values={
        "gfd": {"enabled": True},
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
    },
    opts=in_cluster,
)

namespace = k8s.core.v1.Namespace("ml", metadata={"name": "ml"}, opts=in_cluster)
in_namespace = pulumi.ResourceOptions(provider=provider, depends_on=[namespace])
gpu_toleration = {
    "key": "nvidia.com/gpu",
    "operator": "Equal",
    "value": "true",
    "effect": "NoSchedule",
}

k8s.batch.v1.Job(
    "cuda-vector-add",
    metadata={"name": "cuda-vector-add", "namespace": "ml"},
    spec={
        "backoffLimit": 1,
        "template": {
            "spec": {
                "restartPolicy": "Never",
                "tolerations": [gpu_toleration],
                "containers": [
                    {
                        "name": "vector-add",
                        "image": "nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda12.5.0",
                        "resources": {"limits": {"nvidia.com/gpu": 1}},
                    }
                ],
            }
        },
    },
    opts=in_namespace,
)

k8s.apps.v1.Deployment(
    "inference",
    metadata={"name": "inference", "namespace": "ml"},
    spec={
        "replicas": 1,
        "selector": {"matchLabels": {"app": "inference"}},
        "template": {
            "metadata": {"labels": {"app": "inference"}},
            "spec": {
                "tolerations": [gpu_toleration],
                "containers": [
                    {
                        "name": "triton",
                        "image": "nvcr.io/nvidia/tritonserver:24.05-py3",
                        "resources": {"limits": {"nvidia.com/gpu": 1}},
                    }
                ],
            },
        },
    },
    opts=in_namespace,
)

pulumi.export("kubeconfig", cluster.kubeconfig)
pulumi.export("gpuNodeGroup", gpu_nodes.node_group.node_group_name)
