"""Two teams' GPU workloads that get their GPUs through claims (DRA), each in its own governed
namespace, in every shape a claim takes:

- a Deployment whose pods each claim a whole GPU from a ResourceClaimTemplate (by template);
- a Job whose pods share one ResourceClaim on a MIG device (by name);
- a RayCluster whose GPU workers claim from a template declared in the same manifest, as
  NVIDIA's quickstart specs are written (inline, through a yaml/v2 ConfigGroup).

Team ``vision`` does it right: every GPU pod tolerates the GPU taint and carries its
namespace's workload type (``workload: inference``), none runs privileged,
``NVIDIA_VISIBLE_DEVICES=void`` (no GPU) is fine, and its quota caps both DeviceClasses its pods
claim. Team ``speech`` does it wrong: its GPU pods carry no workload type, its Deployment and
RayCluster workers tolerate nothing,
its Job runs privileged with ``NVIDIA_VISIBLE_DEVICES=all``, its quota caps ``nvidia.com/gpu``
only (its claims are uncapped), and it adds a DeviceClass that maps ``nvidia.com/gpu``.
"""

from typing import Any

import pulumi
import pulumi_kubernetes as k8s

TOLERATE_GPU = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
IMAGE = "nvcr.io/nvidia/pytorch:24.05-py3"


def pod(claim: dict[str, str], right: bool, env: str) -> dict[str, Any]:
    """A pod spec whose one container uses the claim ``claim`` names."""
    container: dict[str, Any] = {
        "name": "main",
        "image": IMAGE,
        "resources": {"claims": [{"name": "gpu"}]},
        "env": [{"name": "NVIDIA_VISIBLE_DEVICES", "value": env}],
    }
    spec: dict[str, Any] = {"containers": [container], "resourceClaims": [{"name": "gpu", **claim}]}
    if right:
        spec["tolerations"] = TOLERATE_GPU
    return spec


def request(device_class: str) -> dict[str, Any]:
    return {"requests": [{"name": "gpu", "exactly": {"deviceClassName": device_class}}]}


def team(namespace: str, right: bool, hard: dict[str, str]) -> None:
    ns = k8s.core.v1.Namespace(
        namespace, metadata={"name": namespace, "labels": {"workload": "inference"}}
    )
    opts = pulumi.ResourceOptions(depends_on=[ns])
    k8s.networking.v1.NetworkPolicy(
        f"{namespace}-deny-all",
        metadata={"name": "deny-all", "namespace": namespace},
        spec={"pod_selector": {}, "policy_types": ["Ingress", "Egress"]},
        opts=opts,
    )
    k8s.core.v1.ResourceQuota(
        f"{namespace}-gpu-quota",
        metadata={"name": "gpu-quota", "namespace": namespace},
        spec={"hard": hard},
        opts=opts,
    )
    k8s.resource.v1.ResourceClaimTemplate(
        f"{namespace}-one-gpu",
        metadata={"name": "one-gpu", "namespace": namespace},
        spec={"spec": {"devices": request("gpu.nvidia.com")}},
        opts=opts,
    )
    k8s.resource.v1.ResourceClaim(
        f"{namespace}-shared-mig",
        metadata={"name": "shared-mig", "namespace": namespace},
        spec={"devices": request("mig.nvidia.com")},
        opts=opts,
    )
    labels = {"app": "serve"}
    pod_labels = {"workload": "inference"} if right else {}
    k8s.apps.v1.Deployment(
        f"{namespace}-serve",
        metadata={"name": "serve", "namespace": namespace},
        spec={
            "selector": {"match_labels": labels},
            "template": {
                "metadata": {"labels": {**labels, **pod_labels}},
                "spec": pod({"resourceClaimTemplateName": "one-gpu"}, right, "void"),
            },
        },
        opts=opts,
    )
    evaluate = pod({"resourceClaimName": "shared-mig"}, True, "void" if right else "all")
    evaluate["containers"][0]["securityContext"] = {"privileged": not right}
    k8s.batch.v1.Job(
        f"{namespace}-evaluate",
        metadata={"name": "evaluate", "namespace": namespace},
        spec={
            "template": {
                "metadata": {"labels": pod_labels},
                "spec": {"restartPolicy": "Never", **evaluate},
            }
        },
        opts=opts,
    )
    worker = {
        "groupName": "gpu-workers",
        "replicas": 2,
        "rayStartParams": {},
        "template": {
            "metadata": {"labels": pod_labels},
            "spec": pod({"resourceClaimTemplateName": "ray-gpu"}, right, ""),
        },
    }
    head = {
        "rayStartParams": {},
        "template": {"spec": {"containers": [{"name": "head", "image": "rayproject/ray:2.9.0"}]}},
    }
    k8s.yaml.v2.ConfigGroup(
        f"{namespace}-ray",
        objs=[
            {
                "apiVersion": "resource.k8s.io/v1",
                "kind": "ResourceClaimTemplate",
                "metadata": {"name": "ray-gpu", "namespace": namespace},
                "spec": {"spec": {"devices": request("gpu.nvidia.com")}},
            },
            {
                "apiVersion": "ray.io/v1",
                "kind": "RayCluster",
                "metadata": {"name": "ray", "namespace": namespace},
                "spec": {"headGroupSpec": head, "workerGroupSpecs": [worker]},
            },
        ],
        opts=opts,
    )


team(
    "vision",
    True,
    {
        "gpu.nvidia.com.deviceclass.resource.k8s.io/devices": "8",
        "mig.nvidia.com.deviceclass.resource.k8s.io/devices": "14",
    },
)
team("speech", False, {"requests.nvidia.com/gpu": "8"})
k8s.resource.v1.DeviceClass(
    "speech-gpus",
    metadata={"name": "speech-gpus.example.com"},
    spec={
        "selectors": [{"cel": {"expression": "device.driver == 'gpu.nvidia.com'"}}],
        "extended_resource_name": "nvidia.com/gpu",
    },
)
