"""no-nvidia-visible-devices-env: no NVIDIA_VISIBLE_DEVICES in pod env, every pod-bearing kind."""

from __future__ import annotations

import pytest

from .harness import Case, assert_case
from .pod_fixtures import (
    Change,
    add_env,
    pod_policy_cases,
)

POLICY = "no-nvidia-visible-devices-env"

# (id, change to the compliant pod spec, expected message fragment)
VIOLATIONS: list[tuple[str, Change, str]] = [
    ("all", add_env("NVIDIA_VISIBLE_DEVICES", "all"), "NVIDIA_VISIBLE_DEVICES"),
    ("one-id", add_env("NVIDIA_VISIBLE_DEVICES", "0"), "NVIDIA_VISIBLE_DEVICES"),
]

CASES: list[Case] = pod_policy_cases(POLICY, VIOLATIONS, gpu_only=False)
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)
