"""no-privileged-gpu-containers: GPU pods run nothing privileged, on every pod-bearing kind."""

from __future__ import annotations

import pytest

from .harness import Case, assert_case
from .pod_fixtures import (
    Change,
    pod_policy_cases,
    set_container,
)

POLICY = "no-privileged-gpu-containers"

# (id, change to the compliant pod spec, expected message fragment)
VIOLATIONS: list[tuple[str, Change, str]] = [
    ("privileged", set_container("securityContext", {"privileged": True}), "privileged"),
]

CASES: list[Case] = pod_policy_cases(POLICY, VIOLATIONS)
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)
