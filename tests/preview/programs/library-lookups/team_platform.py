"""A team's platform library: a namespace component that reads what another stack made.

- ``Namespace.get`` / ``ResourceGroup.get``: a read by the cloud ID;
- ``ResourceOptions(urn=...)``: a resource of the stack's state by its URN (the engine's
  ``pulumi:pulumi:getResource``), which a real preview reads from the state;
- ``register_outputs`` with resources in it, which the SDK sends as resource references.
"""

import pulumi
import pulumi_azure_native as azure_native
import pulumi_kubernetes as k8s

SHARED_QUOTA_URN = "urn:pulumi:prod::platform::kubernetes:core/v1:ResourceQuota::shared-gpu"


class TeamNamespace(pulumi.ComponentResource):
    namespace: k8s.core.v1.Namespace

    def __init__(self, name: str, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("team:platform:TeamNamespace", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        self.namespace = k8s.core.v1.Namespace(
            f"{name}-ns", metadata={"name": f"team-{name}"}, opts=child
        )
        self.existing = k8s.core.v1.Namespace.get(f"{name}-existing", "platform", opts=child)
        self.shared_quota = k8s.core.v1.ResourceQuota(
            f"{name}-shared-quota", opts=pulumi.ResourceOptions(urn=SHARED_QUOTA_URN)
        )
        self.resource_group = azure_native.resources.ResourceGroup.get(
            f"{name}-rg", "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/gpu"
        )
        self.register_outputs({"namespace": self.namespace, "existing": self.existing})
