"""Enforcement levels and exemptions through the pack config, both ways, as the runner applies."""

from __future__ import annotations

from typing import Any

import pytest
from pulumi_policy import EnforcementLevel
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE, UnknownValueError, unknown_checking_proxy

from gpu_platform.offline_preview import RecordedResource, Violation, run_policies
from gpu_policies.registry import REGISTERED, policies
from gpu_policy_support.policy_factory import (
    DEFAULT_EXEMPT_NAMESPACES,
    UNKNOWN_NAMESPACE_NOTE,
    is_exempt,
)

from .harness import Case, Res, messages, policy_named, violations
from .platform_fixtures import dev_like_stack, workload
from .pod_fixtures import container, mutated
from .stack_fixtures import governed

PRIVILEGED = "no-privileged-gpu-containers"
TOLERATE = "gpu-workloads-tolerate-gpu-taint"
CUDA = "cuda-images-pinned"


def recorded(res: Res) -> RecordedResource:
    return RecordedResource(res.urn, res.type, res.name, True, None, res.props, dict(res.props))


# The workloads' namespace, declared and governed as the namespace policies require.
GOVERNED = [recorded(r) for r in governed("gpu-training")]


def privileged(namespace: str = "gpu-training") -> Res:
    return mutated(
        "DaemonSet",
        lambda s: container(s).__setitem__("securityContext", {"privileged": True}),
        namespace,
    )


def bad_workload() -> Res:
    def change(spec: dict[str, Any]) -> None:
        spec["tolerations"] = []
        container(spec)["image"] = "nvidia/cuda:latest"

    return mutated("Deployment", change)


def by_policy(found: list[Violation]) -> dict[str, str]:
    return {v.policy: v.enforcement for v in found}


def test_default_levels_are_mandatory_for_must_and_advisory_for_should() -> None:
    found = by_policy(run_policies([recorded(bad_workload()), *GOVERNED], policies()))
    assert found == {TOLERATE: "mandatory", CUDA: "advisory"}


@pytest.mark.parametrize(
    ("pack_config", "expected"),
    [
        ({TOLERATE: "advisory"}, {TOLERATE: "advisory", CUDA: "advisory"}),
        ({CUDA: {"enforcementLevel": "mandatory"}}, {TOLERATE: "mandatory", CUDA: "mandatory"}),
        ({TOLERATE: "disabled"}, {CUDA: "advisory"}),
        ({"all": "advisory"}, {TOLERATE: "advisory", CUDA: "advisory"}),
        ({"all": "mandatory", CUDA: "advisory"}, {TOLERATE: "mandatory", CUDA: "advisory"}),
    ],
)
def test_pack_config_overrides_levels(
    pack_config: dict[str, Any], expected: dict[str, str]
) -> None:
    assert (
        by_policy(run_policies([recorded(bad_workload()), *GOVERNED], policies(), pack_config))
        == expected
    )


@pytest.mark.parametrize("namespace", DEFAULT_EXEMPT_NAMESPACES)
def test_system_namespaces_are_exempt_by_default(namespace: str) -> None:
    assert run_policies([recorded(privileged(namespace))], [policy_named(PRIVILEGED)]) == []


def test_clearing_the_exemptions_brings_the_system_namespace_back() -> None:
    config: dict[str, Any] = {PRIVILEGED: {"exemptNamespaces": []}}
    found = run_policies([recorded(privileged("kube-system"))], [policy_named(PRIVILEGED)], config)
    assert [v.policy for v in found] == [PRIVILEGED]


def test_a_namespace_can_be_exempted() -> None:
    res = privileged("gpu-training")
    policy = [policy_named(PRIVILEGED)]
    assert len(run_policies([recorded(res)], policy)) == 1
    config = {PRIVILEGED: {"exemptNamespaces": ["gpu-training"]}}
    assert run_policies([recorded(res)], policy, config) == []


@pytest.mark.parametrize("name", ["trainer-daemonset", "some-pulumi-name"])
def test_a_resource_can_be_exempted_by_pulumi_or_object_name(name: str) -> None:
    res = Res(privileged().type, "some-pulumi-name", privileged().props)
    assert len(messages(Case(PRIVILEGED, "x", (res,)))) == 1
    assert messages(Case(PRIVILEGED, "x", (res,), config={"exemptNames": [name]})) == []


def test_cloud_pool_exempt_by_name_only() -> None:
    pool = Res("azure-native:containerservice:AgentPool", "a100", {"vmSize": "Standard_ND96asr_v4"})
    assert len(messages(Case("gpu-node-pools-tainted", "x", (pool,)))) == 1
    assert (
        messages(Case("gpu-node-pools-tainted", "x", (pool,), config={"exemptNames": ["a100"]}))
        == []
    )


def test_config_schemas_carry_the_defaults_the_cli_applies() -> None:
    for entry in REGISTERED:
        schema = entry.policy.config_schema
        assert schema is not None, entry.policy.name
        assert "exemptNames" in schema.properties
        assert all("default" in prop for prop in schema.properties.values()), entry.policy.name
        assert "enforcementLevel" not in schema.properties


def test_unknown_values_raise_the_analyzers_error_not_a_crash() -> None:
    spec_res = mutated(
        "Deployment", lambda s: container(s).__setitem__("image", UNKNOWN_STRING_VALUE)
    )
    with pytest.raises(UnknownValueError):
        violations(policy_named(CUDA), [spec_res])
    found = run_policies([recorded(spec_res)], [policy_named(CUDA)])
    assert [(v.enforcement, v.message) for v in found] == [
        (
            "advisory",
            "can't run policy during preview: string value at "
            ".spec.template.spec.containers.0.image can't be known during preview",
        )
    ]


def test_unknown_values_elsewhere_do_not_stop_a_policy() -> None:
    res = mutated("Pod", lambda s: s.__setitem__("serviceAccountName", UNKNOWN_STRING_VALUE))
    for policy in policies():
        assert violations(policy, [res, *governed("gpu-training")]) == [], policy.name


def test_levels_are_set_on_every_policy() -> None:
    for policy in policies():
        assert policy.enforcement_level in (EnforcementLevel.MANDATORY, EnforcementLevel.ADVISORY)


def test_an_unknown_namespace_is_judged_and_the_violation_says_why() -> None:
    """A namespace unknown at preview matches no exemption: the resource is judged (mandatory
    policies still block), and the message says the exemptions could not apply."""
    res = privileged(UNKNOWN_STRING_VALUE)
    found = run_policies([recorded(res)], [policy_named(PRIVILEGED)])
    assert [v.enforcement for v in found] == ["mandatory"]
    assert found[0].message.endswith(UNKNOWN_NAMESPACE_NOTE)
    # Without namespace exemptions there is nothing the namespace could change: no note.
    config: dict[str, Any] = {PRIVILEGED: {"exemptNamespaces": []}}
    found = run_policies([recorded(res)], [policy_named(PRIVILEGED)], config)
    assert len(found) == 1 and UNKNOWN_NAMESPACE_NOTE not in found[0].message


def test_an_unknown_namespace_or_name_passes_a_clean_resource() -> None:
    """Only the policy about the namespace itself cannot judge it: the analyzer's advisory
    "can't run policy", naming the workload (gpu-pods-not-in-default-namespace is a stack
    policy, since claims need the stack, and judges each workload as a resource policy would:
    it neither passes this one silently nor stops for the rest)."""
    for metadata in ({"namespace": UNKNOWN_STRING_VALUE}, {"name": UNKNOWN_STRING_VALUE}):
        res = mutated("Deployment", lambda s: None)
        res.props["metadata"].update(metadata)
        found = run_policies([recorded(res), *GOVERNED], policies())
        cannot_run = (
            [("gpu-pods-not-in-default-namespace", "advisory")] if "namespace" in metadata else []
        )
        assert [(v.policy, v.enforcement) for v in found] == cannot_run, found
        assert all(v.message.startswith("can't run policy") for v in found)
        assert all(f"'{res.name}'" in v.message for v in found)


def test_one_unknown_value_does_not_stop_a_stack_pod_policy_for_the_rest() -> None:
    """no-privileged-gpu-containers (mandatory) is a stack policy: a workload whose
    securityContext is unknown at preview is left to the analyzer's advisory, naming it, and
    every other workload is still judged, as when it was a resource policy."""
    unknown = mutated(
        "Deployment",
        lambda s: container(s).__setitem__("securityContext", UNKNOWN_STRING_VALUE),
    )
    unknown = Res(unknown.type, "unknown-context", unknown.props)
    found = run_policies(
        [recorded(unknown), recorded(privileged()), *GOVERNED], [policy_named(PRIVILEGED)]
    )
    assert sorted((v.enforcement, v.urn is not None) for v in found) == [
        ("advisory", False),
        ("mandatory", True),
    ]
    judged, cannot_run = sorted(found, key=lambda v: v.enforcement, reverse=True)
    assert judged.urn == privileged().urn
    assert cannot_run.message.startswith("can't run policy during preview")
    assert "'unknown-context'" in cannot_run.message


def test_is_exempt_never_raises_on_unknown_metadata() -> None:
    config = {"exemptNamespaces": ["kube-system"], "exemptNames": ["x"]}
    for props in (
        {"metadata": UNKNOWN_STRING_VALUE},
        {"metadata": {"name": UNKNOWN_STRING_VALUE, "namespace": UNKNOWN_STRING_VALUE}},
    ):
        assert is_exempt("y", unknown_checking_proxy(props), config) is False
        assert is_exempt("x", unknown_checking_proxy(props), config) is True


def test_a_stack_policy_judges_each_workload_despite_one_unknown_namespace() -> None:
    """Exemptions in a stack policy degrade per resource: one workload's unknown namespace
    does not stop the policy for the rest (it was the analyzer's "can't run policy")."""
    unknown = workload("nvidia.com/mig-7g.40gb", namespace=UNKNOWN_STRING_VALUE)
    known = workload("nvidia.com/mig-7g.40gb")
    stack = (*dev_like_stack(), Res(unknown.type, "in-unknown-ns", unknown.props), known)
    found = violations(policy_named("pod-gpu-resources-exposed-by-pools"), stack)
    assert sorted(urn.rsplit("::", 1)[1] for _, urn in found if urn) == [
        "in-unknown-ns",
        known.name,
    ]
