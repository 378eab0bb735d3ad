"""Stands in for pulumi_aws.iam: the resource types, and the resource module pulumi-aws
registers when it is imported (once per process), which rebuilds a Role from a reference."""

import pulumi


class Role(pulumi.CustomResource):
    arn: pulumi.Output[str]

    def __init__(self, name: str, opts: pulumi.ResourceOptions | None = None, **props: object):
        super().__init__("aws:iam/role:Role", name, {**props, "arn": None}, opts)


class RolePolicyAttachment(pulumi.CustomResource):
    def __init__(self, name: str, policy_arn: str, role: object) -> None:
        props = {"policyArn": policy_arn, "role": role}
        super().__init__("aws:iam/rolePolicyAttachment:RolePolicyAttachment", name, props)


class _IamModule(pulumi.runtime.ResourceModule):
    def version(self) -> None:
        return None

    def construct(self, name: str, typ: str, urn: str) -> pulumi.Resource:
        return Role(name, pulumi.ResourceOptions(urn=urn))


pulumi.runtime.register_resource_module("aws", "iam/role", _IamModule())
