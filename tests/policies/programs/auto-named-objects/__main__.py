"""Idiomatic Pulumi: the team lets the provider name its Namespace and ResourceClaimTemplate and
passes the names on as outputs (``namespace.metadata.name``). pulumi-kubernetes' Check names
them (``<name>-<8 hex>``) and a preview knows those names, so the pack judges the workloads as
``pulumi preview`` would: the namespace has no deny-all NetworkPolicy and no quota, the claim
pod and the Job tolerate nothing."""

import pulumi_kubernetes as k8s

namespace = k8s.core.v1.Namespace("ml", metadata={"labels": {"team": "ml"}})
ns = namespace.metadata.name
template = k8s.resource.v1.ResourceClaimTemplate(
    "gpu",
    metadata={"namespace": ns},
    spec={
        "spec": {
            "devices": {
                "requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}}]
            }
        }
    },
)
image = "nvcr.io/nvidia/pytorch:24.05-py3"
k8s.apps.v1.Deployment(
    "serve",
    metadata={"namespace": ns},
    spec={
        "selector": {"matchLabels": {"app": "serve"}},
        "template": {
            "metadata": {"labels": {"app": "serve"}},
            "spec": {
                "resourceClaims": [
                    {"name": "gpu", "resourceClaimTemplateName": template.metadata.name}
                ],
                "containers": [
                    {"name": "serve", "image": image, "resources": {"claims": [{"name": "gpu"}]}}
                ],
            },
        },
    },
)
k8s.batch.v1.Job(
    "train",
    metadata={"namespace": ns},
    spec={
        "template": {
            "spec": {
                "restartPolicy": "Never",
                "containers": [
                    {
                        "name": "train",
                        "image": image,
                        "resources": {"limits": {"nvidia.com/gpu": 1}},
                    }
                ],
            }
        }
    },
)
