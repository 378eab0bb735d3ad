"""A GPU workload that follows the GPU practices (see docs/policies.md).

`make preview PROGRAM=examples/good-gpu-workload` passes the policy pack with no violation:
a workload namespace with a deny-all NetworkPolicy and a GPU quota, the device plugin with
GPU Feature Discovery, and GPU pods that tolerate the GPU taint and ask for whole GPUs.
"""

import pulumi
import pulumi_kubernetes as k8s

config = pulumi.Config()
image = config.require("image")
gpus = config.require_int("gpus")
gpu_quota = config.require_int("gpuQuota")

NAMESPACE = "gpu-training"
labels = {"app": "trainer", "workload": "training"}
gpu_toleration = k8s.core.v1.TolerationArgs(
    key="nvidia.com/gpu", operator="Exists", effect="NoSchedule"
)

namespace = k8s.core.v1.Namespace(
    "training",
    metadata=k8s.meta.v1.ObjectMetaArgs(name=NAMESPACE, labels={"workload": "training"}),
)
in_namespace = pulumi.ResourceOptions(depends_on=[namespace])

k8s.networking.v1.NetworkPolicy(
    "deny-all",
    metadata=k8s.meta.v1.ObjectMetaArgs(name="deny-all", namespace=NAMESPACE),
    spec=k8s.networking.v1.NetworkPolicySpecArgs(
        pod_selector=k8s.meta.v1.LabelSelectorArgs(),
        policy_types=["Ingress", "Egress"],
    ),
    opts=in_namespace,
)
k8s.core.v1.ResourceQuota(
    "gpu-quota",
    metadata=k8s.meta.v1.ObjectMetaArgs(name="gpu", namespace=NAMESPACE),
    spec=k8s.core.v1.ResourceQuotaSpecArgs(hard={"requests.nvidia.com/gpu": str(gpu_quota)}),
    opts=in_namespace,
)


def gpu_pod(name: str, restart_policy: str | None = None) -> k8s.core.v1.PodSpecArgs:
    return k8s.core.v1.PodSpecArgs(
        restart_policy=restart_policy,
        tolerations=[gpu_toleration],
        containers=[
            k8s.core.v1.ContainerArgs(
                name=name,
                image=image,
                resources=k8s.core.v1.ResourceRequirementsArgs(
                    limits={"nvidia.com/gpu": str(gpus)},
                ),
            )
        ],
    )


k8s.apps.v1.Deployment(
    "trainer",
    metadata=k8s.meta.v1.ObjectMetaArgs(name="trainer", namespace=NAMESPACE, labels=labels),
    spec=k8s.apps.v1.DeploymentSpecArgs(
        replicas=1,
        selector=k8s.meta.v1.LabelSelectorArgs(match_labels=labels),
        template=k8s.core.v1.PodTemplateSpecArgs(
            metadata=k8s.meta.v1.ObjectMetaArgs(labels=labels), spec=gpu_pod("train")
        ),
    ),
    opts=in_namespace,
)
k8s.batch.v1.CronJob(
    "nightly-eval",
    metadata=k8s.meta.v1.ObjectMetaArgs(name="nightly-eval", namespace=NAMESPACE, labels=labels),
    spec=k8s.batch.v1.CronJobSpecArgs(
        schedule="0 2 * * *",
        job_template=k8s.batch.v1.JobTemplateSpecArgs(
            spec=k8s.batch.v1.JobSpecArgs(
                template=k8s.core.v1.PodTemplateSpecArgs(
                    metadata=k8s.meta.v1.ObjectMetaArgs(labels=labels),
                    spec=gpu_pod("eval", restart_policy="Never"),
                )
            )
        ),
    ),
    opts=in_namespace,
)

k8s.helm.v3.Release(
    "device-plugin",
    chart="nvidia-device-plugin",
    version="0.20.0",
    namespace="nvidia-device-plugin",
    create_namespace=True,
    repository_opts=k8s.helm.v3.RepositoryOptsArgs(
        repo="https://nvidia.github.io/k8s-device-plugin"
    ),
    values={"gfd": {"enabled": True}, "migStrategy": "none"},
)
