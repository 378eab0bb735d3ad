"""The CEL evaluator of our admission policy tests (tests/components/cel_policy.py) gives what
cel-python's own runner gives, value for value: its ``Program`` only skips work that runner
repeats for nothing, and this is the check that it changes no result."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gpu_platform.components.gpu_admission_cel import (
    CLAIM_VALIDATIONS,
    CLAIM_VARIABLES,
    VALIDATIONS,
    VARIABLES,
)
from tests.components.cel_policy import CompiledPolicy, compile_policy, values
from tests.components.test_gpu_admission_policy import (
    CASES,
    CLAIM_CASES,
    KINDS,
    claim,
    dra_namespace,
    namespace,
    queue_namespace,
)


def compiled(variables: Any, validations: Any) -> CompiledPolicy:
    return compile_policy(
        {
            "variables": [{"name": v.name, "expression": v.expression} for v in variables],
            "validations": [
                {"message": v.message, "expression": v.expression} for v in validations
            ],
        }
    )


POD_POLICY = compiled(VARIABLES, VALIDATIONS)

# Every kind once, each with a different case spread over the list (refused ones included).
SAMPLES = [(kind, CASES[i * len(CASES) // len(KINDS)]) for i, kind in enumerate(KINDS)]


def same_values(policy: CompiledPolicy, obj: dict[str, Any], ns: dict[str, Any]) -> None:
    ours = values(policy, obj, ns)
    assert repr(ours) == repr(values(policy, obj, ns, stock=True))


@pytest.mark.parametrize(("kind", "case"), SAMPLES, ids=[f"{c.id}-{k}" for k, c in SAMPLES])
def test_pod_policy_values_are_cel_pythons(kind: str, case: Any) -> None:
    obj = KINDS[kind](copy.deepcopy(case.spec))
    same_values(POD_POLICY, obj, namespace(case.mps))
    same_values(POD_POLICY, obj, queue_namespace())


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_pod_policy_values_are_cel_pythons_for_every_case(case: Any) -> None:
    """Every case, as a Pod in its own namespace: the samples above leave parts of the programs
    that other cases reach (about a sixth of the nodes the admission tests walk) unchecked;
    with these, every node those tests walk is walked by both evaluators here."""
    same_values(POD_POLICY, KINDS["Pod"](copy.deepcopy(case.spec)), namespace(case.mps))


def test_claim_policy_values_are_cel_pythons() -> None:
    """Every claim case of the admission tests (templates, v1beta1's shape, a namespace without
    DRA pools), and a claim naming two classes."""
    policy = compiled(CLAIM_VARIABLES, CLAIM_VALIDATIONS)
    for _, obj, ns, _ in CLAIM_CASES:
        same_values(policy, obj, ns)
    same_values(policy, claim("gpu.nvidia.com", "other.example.com"), dra_namespace())
