"""gpu-limits-whole-numbers: GPUs as whole-number limits, on every pod-bearing kind."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Case, assert_case, messages
from .pod_fixtures import (
    Change,
    in_init_container,
    mutated,
    pod_policy_cases,
    set_container,
    set_limits,
)

POLICY = "gpu-limits-whole-numbers"

# (id, change to the compliant pod spec, expected message fragment)
VIOLATIONS: list[tuple[str, Change, str]] = [
    (
        "request-only",
        set_container("resources", {"requests": {"nvidia.com/gpu": 1}}),
        "without a limit",
    ),
    ("fraction", set_limits({"nvidia.com/gpu": 0.5}), "not a whole number"),
    ("milli", set_limits({"nvidia.com/gpu": "500m"}), "not a whole number"),
    (
        "request-differs",
        set_limits({"nvidia.com/gpu": 2}, {"nvidia.com/gpu": 1}),
        "differs from its limit",
    ),
    ("mig-fraction", set_limits({"nvidia.com/mig-1g.5gb": "1.5"}), "not a whole number"),
    # AMD's whole GPUs and partitions are extended resources too.
    ("amd-fraction", set_limits({"amd.com/gpu": 0.5}), "limits amd.com/gpu to 0.5"),
    (
        "amd-request-only",
        set_container("resources", {"requests": {"amd.com/gpu": 1}}),
        "requests amd.com/gpu without a limit",
    ),
    ("amd-partition-milli", set_limits({"amd.com/cpx_nps4": "500m"}), "amd.com/cpx_nps4"),
    (
        "init-container",
        in_init_container(set_limits({"nvidia.com/gpu": 0.5})),
        "initContainers[train]",
    ),
]

CASES: list[Case] = pod_policy_cases(POLICY, VIOLATIONS)
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


@pytest.mark.parametrize(
    "resources",
    [
        {"limits": {"nvidia.com/gpu": 2}, "requests": {"nvidia.com/gpu": 2}},
        {"limits": {"nvidia.com/gpu": "1"}, "requests": {"nvidia.com/gpu": 1.0}},
        {"limits": {"nvidia.com/mig-1g.5gb": 1}},
        {"limits": {"aliyun.com/gpu-mem": 8}},
        {"limits": {"amd.com/gpu": 8}, "requests": {"amd.com/gpu": 8}},
        {"limits": {"amd.com/cpx_nps4": 1}},
        # AMD's NICs are no GPUs: not judged.
        {"limits": {"amd.com/nic": "500m"}},
    ],
)
def test_whole_number_limits_pass(resources: dict[str, Any]) -> None:
    res = mutated("Job", set_container("resources", resources))
    assert messages(Case(POLICY, "w", (res,))) == []
