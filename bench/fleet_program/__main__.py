"""make bench's fleet-scale team program: ``fleet:teams`` GPU teams, ten resources each.

Each team is what the pack wants of a GPU workload namespace (a deny-all NetworkPolicy, a GPU
quota, GPU pods that tolerate the GPU taint and ask for whole GPUs with pinned CUDA images) and
the workloads of a team: a training Deployment, an inference Deployment and its Service, a
nightly Job, their ConfigMap and ServiceAccount. ``bench/fleet.py`` previews it at 1,000, 5,000
and 20,000 resources; the cluster's device plugin is one Helm release for the whole fleet.
"""

import pulumi
import pulumi_kubernetes as k8s

RESOURCES_PER_TEAM = 10
IMAGE = "nvidia/cuda:12.1.1-base-ubuntu22.04"
TOLERATION = k8s.core.v1.TolerationArgs(
    key="nvidia.com/gpu", operator="Exists", effect="NoSchedule"
)

teams = pulumi.Config("fleet").require_int("teams")


def gpu_pod(name: str, gpus: int, restart_policy: str | None = None) -> k8s.core.v1.PodSpecArgs:
    return k8s.core.v1.PodSpecArgs(
        restart_policy=restart_policy,
        service_account_name="runner",
        tolerations=[TOLERATION],
        containers=[
            k8s.core.v1.ContainerArgs(
                name=name,
                image=IMAGE,
                args=["--epochs", "10"],
                env=[k8s.core.v1.EnvVarArgs(name="RUN", value=name)],
                env_from=[
                    k8s.core.v1.EnvFromSourceArgs(
                        config_map_ref=k8s.core.v1.ConfigMapEnvSourceArgs(name="settings")
                    )
                ],
                resources=k8s.core.v1.ResourceRequirementsArgs(
                    requests={"cpu": "4", "memory": "16Gi"},
                    limits={"nvidia.com/gpu": str(gpus), "memory": "16Gi"},
                ),
            )
        ],
    )


def deployment(team: str, name: str, gpus: int, opts: pulumi.ResourceOptions) -> None:
    labels = {"app": name, "team": team}
    k8s.apps.v1.Deployment(
        f"{team}-{name}",
        metadata=k8s.meta.v1.ObjectMetaArgs(name=name, namespace=team, labels=labels),
        spec=k8s.apps.v1.DeploymentSpecArgs(
            replicas=2,
            selector=k8s.meta.v1.LabelSelectorArgs(match_labels=labels),
            template=k8s.core.v1.PodTemplateSpecArgs(
                metadata=k8s.meta.v1.ObjectMetaArgs(labels=labels), spec=gpu_pod(name, gpus)
            ),
        ),
        opts=opts,
    )


def team(index: int) -> None:
    name = f"team-{index:05d}"
    namespace = k8s.core.v1.Namespace(
        name, metadata=k8s.meta.v1.ObjectMetaArgs(name=name, labels={"team": name})
    )
    opts = pulumi.ResourceOptions(depends_on=[namespace])
    meta = {"namespace": name, "labels": {"team": name}}
    k8s.networking.v1.NetworkPolicy(
        f"{name}-deny-all",
        metadata=k8s.meta.v1.ObjectMetaArgs(name="deny-all", **meta),
        spec=k8s.networking.v1.NetworkPolicySpecArgs(
            pod_selector=k8s.meta.v1.LabelSelectorArgs(), policy_types=["Ingress", "Egress"]
        ),
        opts=opts,
    )
    k8s.core.v1.ResourceQuota(
        f"{name}-gpu-quota",
        metadata=k8s.meta.v1.ObjectMetaArgs(name="gpu", **meta),
        spec=k8s.core.v1.ResourceQuotaSpecArgs(hard={"requests.nvidia.com/gpu": "8"}),
        opts=opts,
    )
    k8s.core.v1.ConfigMap(
        f"{name}-settings",
        metadata=k8s.meta.v1.ObjectMetaArgs(name="settings", **meta),
        data={"BATCH_SIZE": "64", "DATASET": f"s3://datasets/{name}"},
        opts=opts,
    )
    k8s.core.v1.ServiceAccount(
        f"{name}-runner", metadata=k8s.meta.v1.ObjectMetaArgs(name="runner", **meta), opts=opts
    )
    deployment(name, "train", 4, opts)
    deployment(name, "serve", 1, opts)
    k8s.core.v1.Service(
        f"{name}-serve",
        metadata=k8s.meta.v1.ObjectMetaArgs(name="serve", **meta),
        spec=k8s.core.v1.ServiceSpecArgs(
            selector={"app": "serve", "team": name},
            ports=[k8s.core.v1.ServicePortArgs(port=80, target_port=8080)],
        ),
        opts=opts,
    )
    k8s.batch.v1.Job(
        f"{name}-eval",
        metadata=k8s.meta.v1.ObjectMetaArgs(name="eval", **meta),
        spec=k8s.batch.v1.JobSpecArgs(
            template=k8s.core.v1.PodTemplateSpecArgs(
                metadata=k8s.meta.v1.ObjectMetaArgs(labels={"team": name}),
                spec=gpu_pod("eval", 1, restart_policy="Never"),
            )
        ),
        opts=opts,
    )
    k8s.core.v1.LimitRange(
        f"{name}-limits",
        metadata=k8s.meta.v1.ObjectMetaArgs(name="limits", **meta),
        spec=k8s.core.v1.LimitRangeSpecArgs(
            limits=[
                k8s.core.v1.LimitRangeItemArgs(
                    type="Container", default={"cpu": "2", "memory": "8Gi"}
                )
            ]
        ),
        opts=opts,
    )


for i in range(teams):
    team(i)

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
