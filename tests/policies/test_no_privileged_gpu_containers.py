"""no-privileged-gpu-containers: GPU pods run nothing privileged, on every pod-bearing kind."""

from __future__ import annotations

import pytest
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE

from .claim_fixtures import claim_policy_cases, claim_workload
from .harness import Case, Res, assert_case, messages, policy_named, violations
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

CASES: list[Case] = [*pod_policy_cases(POLICY, VIOLATIONS), *claim_policy_cases(POLICY, VIOLATIONS)]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_a_program_device_class_of_a_gpu_driver_is_a_gpu_class() -> None:
    """A DeviceClass of the program selecting NVIDIA's driver hands out GPUs whatever its name;
    one of another driver does not."""
    for driver, found in (("gpu.nvidia.com", 1), ("nic.example.com", 0)):
        device_class = Res(
            "kubernetes:resource.k8s.io/v1:DeviceClass",
            "h100-only",
            {
                "metadata": {"name": "h100-only"},
                "spec": {"selectors": [{"cel": {"expression": f"device.driver == '{driver}'"}}]},
            },
        )
        workload = claim_workload(
            "Deployment",
            "template",
            set_container("securityContext", {"privileged": True}),
            device_class="h100-only",
        )
        assert len(messages(Case(POLICY, driver, (device_class, *workload)))) == found


def test_a_claim_pod_whose_namespace_is_an_output_is_still_judged() -> None:
    """A program that passes a Namespace's output to the workload and its template: both
    namespaces are unknown at preview, the claim still resolves by name, and the privileged
    container is reported (mandatory), not passed unseen."""
    resources = claim_workload(
        "Deployment",
        "template",
        set_container("securityContext", {"privileged": True}),
        namespace=UNKNOWN_STRING_VALUE,
    )
    found = violations(policy_named(POLICY), resources)
    assert [urn for _, urn in found] == [resources[0].urn]
    assert "runs containers[train] privileged" in found[0][0]
