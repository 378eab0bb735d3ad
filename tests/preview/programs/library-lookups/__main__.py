"""A library-style program: its module builds a component that looks resources up and hands
them on as outputs."""

import pulumi
from team_platform import TeamNamespace

team = TeamNamespace("ml")
pulumi.export("namespace", team.namespace.metadata["name"])
pulumi.export("sharedQuota", team.shared_quota.spec)
pulumi.export("existingLabels", team.existing.metadata["labels"])
pulumi.export("resourceGroupLocation", team.resource_group.location)
