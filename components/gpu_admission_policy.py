"""GpuAdmissionPolicy: the in-cluster guard for GPU pods (BP-04), a ValidatingAdmissionPolicy.

Built into Kubernetes from 1.30 (admissionregistration.k8s.io/v1): no controller to run. It
checks Pods and the pod templates of the workload kinds in every namespace labelled
``GPU_NAMESPACE_LABEL=true``; a second policy (``<name>-claims``) checks the ResourceClaims
and ResourceClaimTemplates there (DRA): each may name only the DeviceClasses the namespace's
quota caps. The CEL lives in ``gpu_admission_cel``.
"""

from collections.abc import Sequence
from typing import Literal, NotRequired, TypedDict, get_args

import pulumi
from pulumi_kubernetes.admissionregistration import v1 as admission
from pulumi_kubernetes.meta.v1 import LabelSelectorArgs, ObjectMetaArgs

from gpu_facts.dra import RESOURCE_API_GROUP
from gpu_facts.scheduling import GPU_NAMESPACE_LABEL

from .errors import raise_if_any, shape_problems
from .gpu_admission_cel import (
    CLAIM_VALIDATIONS,
    CLAIM_VARIABLES,
    VALIDATIONS,
    VARIABLES,
    CelValidation,
    CelVariable,
)
from .recorded_inputs import recorded_inputs
from .type_tokens import formerly, type_token

AdmissionAction = Literal["Deny", "Warn", "Audit"]

DEFAULT_POLICY_NAME = "gpu-platform-gpu-workloads"

# Audit rides along with Deny and Warn so every violation also lands in the API server's
# audit log; Deny and Warn themselves cannot be combined.
VALIDATION_ACTIONS: dict[str, list[str]] = {
    "Deny": ["Deny", "Audit"],
    "Warn": ["Warn", "Audit"],
    "Audit": ["Audit"],
}

# (API group, resources) that carry a pod spec; all served at v1. ``kubectl debug`` adds
# ephemeral containers through their own subresource, which ``pods`` alone does not match.
POD_SPEC_RESOURCES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("", ("pods", "pods/ephemeralcontainers")),
    ("apps", ("deployments", "statefulsets", "daemonsets", "replicasets")),
    ("batch", ("jobs", "cronjobs")),
)
CLAIM_RESOURCES: tuple[str, ...] = ("resourceclaims", "resourceclaimtemplates")
CLAIM_API_VERSIONS: tuple[str, ...] = ("v1", "v1beta2", "v1beta1")
"""``resource.k8s.io`` versions a claim can be written in (v1 from Kubernetes 1.34; the betas
only where the cluster serves them)."""
CLAIM_OPERATIONS: tuple[str, ...] = ("CREATE",)
"""A claim's and a template's spec is immutable (k8s-api ``resource/v1``), so only a create can
name a class. Updates are left alone: the scheduler and the resourceclaim controller update
claims to add and remove their finalizer (``resource.kubernetes.io/delete-protection``), and a
claim admitted before its namespace's classes changed must still be allocated and deleted."""
CLAIMS_SUFFIX = "-claims"


def validating_policy(
    parent: pulumi.Resource,
    name: str,
    *,
    policy_name: str,
    namespace_selector: LabelSelectorArgs,
    resource_rules: Sequence[admission.NamedRuleWithOperationsArgs],
    variables: Sequence[CelVariable],
    validations: Sequence[CelValidation],
    actions: list[str],
) -> admission.ValidatingAdmissionPolicy:
    """A ValidatingAdmissionPolicy (failing closed: an expression that cannot be evaluated
    refuses rather than lets through) and its binding, both named ``policy_name``, on the
    namespaces ``namespace_selector`` selects."""
    policy = admission.ValidatingAdmissionPolicy(
        f"{name}-policy",
        metadata=ObjectMetaArgs(name=policy_name),
        spec=admission.ValidatingAdmissionPolicySpecArgs(
            failure_policy="Fail",
            match_constraints=admission.MatchResourcesArgs(
                namespace_selector=namespace_selector, resource_rules=list(resource_rules)
            ),
            variables=[
                admission.VariableArgs(name=v.name, expression=v.expression) for v in variables
            ],
            validations=[
                admission.ValidationArgs(expression=v.expression, message=v.message)
                for v in validations
            ],
        ),
        opts=pulumi.ResourceOptions(parent=parent),
    )
    admission.ValidatingAdmissionPolicyBinding(
        f"{name}-binding",
        metadata=ObjectMetaArgs(name=policy_name),
        spec=admission.ValidatingAdmissionPolicyBindingSpecArgs(
            policy_name=policy.metadata.name,
            validation_actions=actions,
            match_resources=admission.MatchResourcesArgs(namespace_selector=namespace_selector),
        ),
        opts=pulumi.ResourceOptions(parent=parent),
    )
    return policy


class GpuAdmissionPolicyArgs(TypedDict):
    """The in-cluster GPU admission policy: what it does with a violating object, its name."""

    action: NotRequired[str]
    """What happens to a violating object: ``Deny`` (default), or ``Warn``/``Audit`` to roll
    the policy out gently."""
    policy_name: NotRequired[str]
    """``metadata.name`` of the policy and its binding (default ``gpu-platform-gpu-workloads``)."""


class GpuAdmissionPolicy(pulumi.ComponentResource):
    """A ValidatingAdmissionPolicy and its binding for pods in GPU workload namespaces."""

    policy_name: pulumi.Output[str]
    """Name of the ValidatingAdmissionPolicy."""
    validation_actions: pulumi.Output[list[str]]
    """The binding's validation actions."""

    def __init__(
        self, name: str, args: GpuAdmissionPolicyArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        # Validate before registering anything: bad input changes nothing.
        problems = shape_problems(args, GpuAdmissionPolicyArgs)
        action = args.get("action", "Deny")
        if action not in get_args(AdmissionAction):
            problems.append(("action", f"must be Deny, Warn or Audit, not {action!r}"))
        raise_if_any("GpuAdmissionPolicy", name, problems)
        policy_name = args.get("policy_name", DEFAULT_POLICY_NAME)
        super().__init__(
            type_token("GpuAdmissionPolicy"),
            name,
            recorded_inputs(args),
            formerly("gpu-platform:workloads:GpuAdmissionPolicy", opts),
        )

        gpu_namespaces = LabelSelectorArgs(match_labels={GPU_NAMESPACE_LABEL: "true"})
        actions = VALIDATION_ACTIONS[action]
        policy = validating_policy(
            self,
            name,
            policy_name=policy_name,
            namespace_selector=gpu_namespaces,
            resource_rules=[
                admission.NamedRuleWithOperationsArgs(
                    api_groups=[group],
                    api_versions=["v1"],
                    resources=list(resources),
                    operations=["CREATE", "UPDATE"],
                )
                for group, resources in POD_SPEC_RESOURCES
            ],
            variables=VARIABLES,
            validations=VALIDATIONS,
            actions=actions,
        )
        validating_policy(
            self,
            f"{name}-claims",
            policy_name=policy_name + CLAIMS_SUFFIX,
            namespace_selector=gpu_namespaces,
            resource_rules=[
                admission.NamedRuleWithOperationsArgs(
                    api_groups=[RESOURCE_API_GROUP],
                    api_versions=list(CLAIM_API_VERSIONS),
                    resources=list(CLAIM_RESOURCES),
                    operations=list(CLAIM_OPERATIONS),
                )
            ],
            variables=CLAIM_VARIABLES,
            validations=CLAIM_VALIDATIONS,
            actions=actions,
        )
        self.policy_name = policy.metadata.name
        self.validation_actions = pulumi.Output.from_input(actions)
        self.register_outputs(
            {"policyName": self.policy_name, "validationActions": self.validation_actions}
        )
