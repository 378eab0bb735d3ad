"""The team's shared Pulumi library: lookups of the platform's resources, and the inference
server component every team service uses."""

from dataclasses import dataclass

import pulumi
import pulumi_azure_native as azure_native
import pulumi_kubernetes as k8s

PLATFORM_QUOTA_URN = (
    "urn:pulumi:prod::gpu-platform::kubernetes:core/v1:ResourceQuota::gpu-inference"
)


@dataclass
class PlatformLookups:
    resource_group: azure_native.resources.ResourceGroup
    namespace: k8s.core.v1.Namespace
    quota: k8s.core.v1.ResourceQuota


def platform_lookups(namespace: str) -> PlatformLookups:
    """The platform stack's resources this team builds on: read, never managed here."""
    return PlatformLookups(
        resource_group=azure_native.resources.ResourceGroup.get(
            "platform-rg",
            "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/gpu-platform",
        ),
        namespace=k8s.core.v1.Namespace.get("platform-namespace", namespace),
        quota=k8s.core.v1.ResourceQuota(
            "platform-quota", opts=pulumi.ResourceOptions(urn=PLATFORM_QUOTA_URN)
        ),
    )


class InferenceServer(pulumi.ComponentResource):
    """One GPU inference Deployment, tolerating the GPU taint."""

    deployment: k8s.apps.v1.Deployment

    def __init__(self, name: str, namespace: str, after: pulumi.Resource) -> None:
        super().__init__("team:serving:InferenceServer", name)
        labels = {"app": name}
        self.deployment = k8s.apps.v1.Deployment(
            f"{name}-deployment",
            metadata={"name": name, "namespace": namespace},
            spec={
                "selector": {"match_labels": labels},
                "template": {
                    "metadata": {"labels": labels},
                    "spec": {
                        "tolerations": [
                            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
                        ],
                        "containers": [
                            {
                                "name": "tei",
                                "image": "ghcr.io/huggingface/text-embeddings-inference:1.5",
                                "resources": {"limits": {"nvidia.com/gpu": "1"}},
                            }
                        ],
                    },
                },
            },
            opts=pulumi.ResourceOptions(parent=self, depends_on=[after]),
        )
        self.register_outputs({"deployment": self.deployment})
