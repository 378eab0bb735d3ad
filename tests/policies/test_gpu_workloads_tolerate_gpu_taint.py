"""gpu-workloads-tolerate-gpu-taint: GPU pods tolerate the GPU taint, on every pod-bearing kind."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Case, Res, assert_case, messages
from .pod_fixtures import (
    Change,
    container,
    gpu_pod_spec,
    mutated,
    pod_policy_cases,
    set_spec,
    wrap,
)

POLICY = "gpu-workloads-tolerate-gpu-taint"

# (id, change to the compliant pod spec, expected message fragment)
VIOLATIONS: list[tuple[str, Change, str]] = [
    ("no-tolerations", set_spec("tolerations", []), "does not tolerate"),
    (
        "wrong-effect",
        set_spec(
            "tolerations", [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoExecute"}]
        ),
        "does not tolerate",
    ),
    (
        "equal-wrong-value",
        set_spec("tolerations", [{"key": "nvidia.com/gpu", "operator": "Equal", "value": "true"}]),
        "does not tolerate",
    ),
    (
        "other-key",
        set_spec("tolerations", [{"key": "sku", "operator": "Exists", "effect": "NoSchedule"}]),
        "does not tolerate",
    ),
]

CASES: list[Case] = pod_policy_cases(POLICY, VIOLATIONS)
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


@pytest.mark.parametrize(
    "toleration",
    [
        {"key": "nvidia.com/gpu", "operator": "Exists"},
        {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"},
        {"key": "nvidia.com/gpu", "value": "present"},
        {"operator": "Exists"},
    ],
)
def test_tolerations_that_match_the_gpu_taint(toleration: dict[str, Any]) -> None:
    res = mutated("Deployment", set_spec("tolerations", [toleration]))
    assert messages(Case(POLICY, "t", (res,))) == []


def test_amd_gpu_pods_may_tolerate_the_amd_taint() -> None:
    def amd(spec: dict[str, Any]) -> None:
        container(spec)["resources"] = {"limits": {"amd.com/gpu": 1}}
        spec["tolerations"] = [{"key": "amd.com/gpu", "operator": "Exists"}]

    assert messages(Case(POLICY, "amd", (mutated("Pod", amd),))) == []
    nvidia = mutated("Pod", set_spec("tolerations", [{"key": "amd.com/gpu", "operator": "Exists"}]))
    assert len(messages(Case(POLICY, "nv", (nvidia,)))) == 1


def test_older_api_versions_are_checked_too() -> None:
    spec = gpu_pod_spec()
    spec["tolerations"] = []
    res = Res("kubernetes:batch/v1beta1:CronJob", "old", wrap("CronJob", spec).props)
    assert len(messages(Case(POLICY, "old", (res,)))) == 1
