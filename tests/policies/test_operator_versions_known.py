"""operator-versions-known: pods operators build are judged as a known release builds them; the
stack is told when its operator is another version, or its version is not said."""

from __future__ import annotations

import pytest

from gpu_facts.pod_templates import POD_BEARING_KINDS

from .harness import Case, Res, assert_case
from .pod_fixtures import gpu_pod_spec, mutated, without_gpus, wrap
from .stack_fixtures import many_namespaces_stack, operator_release, walks_once

POLICY = "operator-versions-known"
KAITO = "Workspace.kaito.sh"
NIM = "NIMService.apps.nvidia.com"


def at_api_version(kind: str, api_version: str) -> Res:
    res = wrap(kind, gpu_pod_spec())
    group = res.type.split(":")[1].rpartition("/")[0]
    return Res(
        res.type.replace(res.type.split(":")[1], f"{group}/{api_version}"), res.name, res.props
    )


def _every_operator_kind() -> list[Case]:
    """Each kind an operator builds pods from, both ways: its operator's version said (in the
    config) and not."""
    cases = []
    for kind in POD_BEARING_KINDS:
        if kind.made_by is None:
            continue
        res = (
            mutated(kind.label, without_gpus) if kind.gpu_free else wrap(kind.label, gpu_pod_spec())
        )
        said = {"operatorVersions": {kind.made_by.key: kind.made_by.version}}
        cases.append(Case(POLICY, f"{kind.label}-version-said", (res,), config=said))
        not_said = f"the stack does not say which version of {kind.made_by.name} runs the cluster"
        cases.append(Case(POLICY, f"{kind.label}-version-not-said", (res,), (not_said,)))
    return cases


CASES: list[Case] = [
    *_every_operator_kind(),
    Case(
        POLICY,
        "kaito-installed-at-0.12",
        (operator_release("workspace", "0.12.1"), wrap(KAITO, gpu_pod_spec())),
    ),
    Case(
        POLICY,
        "nim-operator-installed-at-3.x",
        (operator_release("k8s-nim-operator", "v3.0.0"), wrap(NIM, gpu_pod_spec())),
    ),
    Case(
        POLICY,
        "versions-in-the-config",
        (wrap(KAITO, gpu_pod_spec()), wrap(NIM, gpu_pod_spec())),
        config={"operatorVersions": {"kaito": "0.12.0", "nim-operator": "3.1.2"}},
    ),
    Case(POLICY, "no-operator-resources", (wrap("Deployment", gpu_pod_spec()),)),
    Case(
        POLICY,
        "exempt-by-name",
        (wrap(NIM, gpu_pod_spec()),),
        config={"exemptNames": ["trainer-nimservice-apps-nvidia-com"]},
    ),
    Case(
        POLICY,
        "version-not-said",
        (wrap(NIM, gpu_pod_spec()),),
        (
            "The pods of 'trainer-nimservice-apps-nvidia-com' were judged as NVIDIA NIM "
            "operator 3.1.2 builds them (NVIDIA/k8s-nim-operator @v3.1.2 (f9e3047)): the stack "
            "does not say which version of NVIDIA NIM operator runs the cluster.",
        ),
    ),
    Case(
        POLICY,
        "another-version-installed",
        (operator_release("workspace", "0.13.0"), wrap(KAITO, gpu_pod_spec())),
        (
            "KAITO runs at 0.13.0 (the stack's release of its chart 'workspace'), but the pack's "
            "facts are KAITO 0.12.0's: the pods of 'trainer-workspace-kaito-sh' were judged as "
            "KAITO 0.12.0 builds them.",
        ),
    ),
    Case(
        POLICY,
        "another-version-configured",
        (wrap("InferenceSet.kaito.sh", gpu_pod_spec()),),
        ("KAITO runs at 0.11.0 (this policy's operatorVersions)",),
        config={"operatorVersions": {"kaito": "0.11.0"}},
    ),
    Case(
        POLICY,
        "unlisted-api-version",
        (at_api_version(KAITO, "v1beta2"),),
        (
            "'trainer-workspace-kaito-sh' use an API version the pack's KAITO facts",
            "the stack does not say which version of KAITO runs the cluster",
        ),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_walks_the_resources_once() -> None:
    walks_once(POLICY, many_namespaces_stack())
