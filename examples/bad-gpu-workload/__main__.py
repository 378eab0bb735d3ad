"""A GPU workload that breaks the GPU practices on purpose (see docs/policies.md).

`make preview PROGRAM=examples/bad-gpu-workload` must fail with the policies named in
tests/policies/test_examples.py; every mistake below is one a team really makes.
"""

import pulumi
import pulumi_kubernetes as k8s

config = pulumi.Config()
image = config.get("image") or "nvidia/cuda:latest"
gpus = config.get("gpus") or "1"

labels = {"app": "trainer"}

# No namespace (so: default), no toleration of the GPU taint, a fractional GPU, the GPU
# picked by hand through NVIDIA_VISIBLE_DEVICES, a privileged container, an unpinned image.
k8s.apps.v1.Deployment(
    "trainer",
    metadata=k8s.meta.v1.ObjectMetaArgs(name="trainer", labels=labels),
    spec=k8s.apps.v1.DeploymentSpecArgs(
        replicas=1,
        selector=k8s.meta.v1.LabelSelectorArgs(match_labels=labels),
        template=k8s.core.v1.PodTemplateSpecArgs(
            metadata=k8s.meta.v1.ObjectMetaArgs(labels=labels),
            spec=k8s.core.v1.PodSpecArgs(
                host_ipc=True,
                containers=[
                    k8s.core.v1.ContainerArgs(
                        name="train",
                        image=image,
                        env=[k8s.core.v1.EnvVarArgs(name="NVIDIA_VISIBLE_DEVICES", value="all")],
                        resources=k8s.core.v1.ResourceRequirementsArgs(
                            limits={"nvidia.com/gpu": gpus},
                        ),
                        security_context=k8s.core.v1.SecurityContextArgs(privileged=True),
                    )
                ],
            ),
        ),
    ),
)

# A GPU workload namespace with neither a deny-all NetworkPolicy nor a GPU quota.
k8s.core.v1.Namespace(
    "research",
    metadata=k8s.meta.v1.ObjectMetaArgs(name="gpu-research", labels={"workload": "research"}),
)

# An old device plugin without GPU Feature Discovery, GFD installed on its own, and the GPU
# Operator deploying a second device plugin.
k8s.helm.v3.Release(
    "device-plugin",
    chart="nvidia-device-plugin",
    version="0.14.5",
    namespace="nvidia-device-plugin",
    repository_opts=k8s.helm.v3.RepositoryOptsArgs(
        repo="https://nvidia.github.io/k8s-device-plugin"
    ),
)
k8s.helm.v3.Release(
    "gfd",
    chart="gpu-feature-discovery",
    version="0.8.2",
    namespace="gpu-feature-discovery",
    repository_opts=k8s.helm.v3.RepositoryOptsArgs(
        repo="https://nvidia.github.io/gpu-feature-discovery"
    ),
)
k8s.helm.v3.Release(
    "gpu-operator",
    chart="gpu-operator",
    version="v25.3.0",
    namespace="gpu-operator",
    repository_opts=k8s.helm.v3.RepositoryOptsArgs(repo="https://helm.ngc.nvidia.com/nvidia"),
)
