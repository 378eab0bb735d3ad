"""Resources passed as inputs: ``role=role`` as pulumi-aws programs write it (with pulumi-aws'
resource module registered, the SDK's mock monitor rebuilt the Role from its reference on a
worker thread and failed), and a component passed to another component."""

import pulumi
from team_aws_iam import Role, RolePolicyAttachment


class Network(pulumi.ComponentResource):
    def __init__(self, name: str) -> None:
        super().__init__("team:net:Network", name)
        self.register_outputs({})


class GpuPool(pulumi.ComponentResource):
    def __init__(self, name: str, network: Network, role: Role) -> None:
        super().__init__("team:eks:GpuPool", name, {"network": network, "role": role})
        RolePolicyAttachment(
            f"{name}-ecr",
            policy_arn="arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly",
            role=role,
        )
        self.register_outputs({})


role = Role("node", assumeRolePolicy='{"Version": "2012-10-17"}')
RolePolicyAttachment("a", policy_arn="arn:x", role=role)
GpuPool("pool", network=Network("net"), role=role)
pulumi.export("roleArn", role.arn)
