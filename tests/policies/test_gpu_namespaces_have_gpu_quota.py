"""gpu-namespaces-have-gpu-quota: a ResourceQuota on a GPU resource per GPU namespace."""

from __future__ import annotations

import pytest

from .claim_fixtures import claim_workload, every_claim_workload, run_recorded, unknown_claim_name
from .harness import Case, assert_case, messages
from .platform_fixtures import driver_check, workload
from .stack_fixtures import (
    governed,
    many_namespaces_stack,
    namespace,
    quota,
    walks_once,
)

QUOTA_POLICY = "gpu-namespaces-have-gpu-quota"
GPU_CLASS_KEY = "gpu.nvidia.com.deviceclass.resource.k8s.io/devices"
NO_QUOTA = "has no ResourceQuota on a GPU resource"

CASES: list[Case] = [
    Case(QUOTA_POLICY, "governed", governed("gpu-training")),
    Case(
        QUOTA_POLICY,
        "mig-quota",
        (namespace("a"), quota("a", {"requests.nvidia.com/mig-1g.5gb": "14"})),
    ),
    Case(
        QUOTA_POLICY,
        "gpu-mem-quota",
        (namespace("a"), quota("a", {"requests.aliyun.com/gpu-mem": "64"})),
    ),
    Case(QUOTA_POLICY, "missing", (namespace("gpu-training"),), (f"'gpu-training' {NO_QUOTA}",)),
    Case(
        QUOTA_POLICY, "cpu-only", (namespace("a"), quota("a", {"requests.cpu": "8"})), (NO_QUOTA,)
    ),
    Case(
        QUOTA_POLICY,
        "limits-key",
        (namespace("a"), quota("a", {"limits.nvidia.com/gpu": "8"})),
        (NO_QUOTA,),
    ),
    Case(QUOTA_POLICY, "wrong-namespace", (namespace("a"), quota("b")), (NO_QUOTA,)),
    Case(QUOTA_POLICY, "device-class-quota", (namespace("a"), quota("a", {GPU_CLASS_KEY: "4"}))),
    Case(
        QUOTA_POLICY,
        "quota-on-no-gpu-class",
        (namespace("a"), quota("a", {"nic.example.com.deviceclass.resource.k8s.io/devices": "4"})),
        (NO_QUOTA,),
    ),
    # Claims (DRA): the namespace's quota must cap each GPU class its pods claim, on every
    # pod-bearing kind and claim shape.
    *[
        Case(
            QUOTA_POLICY,
            f"{kind}-claim-{shape}-{'capped' if capped else 'uncapped'}",
            (
                namespace("gpu-training"),
                quota(
                    "gpu-training",
                    {"requests.nvidia.com/gpu": "8", **({GPU_CLASS_KEY: "2"} if capped else {})},
                ),
                *resources,
            ),
            () if capped else ("claims gpu.nvidia.com",),
        )
        for kind, shape, resources in every_claim_workload("gpu-training")
        for capped in (True, False)
    ],
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_namespace_exemption_by_resource_name() -> None:
    case = Case(
        QUOTA_POLICY, "x", (namespace("gpu-training"),), config={"exemptNames": ["gpu-training"]}
    )
    assert messages(case) == []


def test_walks_the_resources_once() -> None:
    walks_once(QUOTA_POLICY, many_namespaces_stack())


def test_namespaces_running_gpu_workloads_need_a_gpu_quota() -> None:
    ns = namespace("team-a", {})
    found = messages(Case(QUOTA_POLICY, "x", (ns, workload("nvidia.com/gpu", namespace="team-a"))))
    assert len(found) == 1
    assert "'team-a' has no ResourceQuota on a GPU resource" in found[0]
    assert "(it runs GPU workloads: 'trainer-deployment')" in found[0]
    assert (
        messages(
            Case(
                QUOTA_POLICY,
                "y",
                (ns, quota("team-a"), workload("nvidia.com/gpu", namespace="team-a")),
            )
        )
        == []
    )
    # A driver check (BP-05) is a probe of the pool, not a workload type: no quota needed.
    assert (
        messages(Case(QUOTA_POLICY, "z", (namespace("gpu-readiness", {}), driver_check("t4"))))
        == []
    )


def test_a_claim_pod_without_quota_names_the_missing_key() -> None:
    resources = (namespace("gpu-training"), quota("gpu-training"), *claim_workload("Job", "named"))
    (message,) = messages(Case(QUOTA_POLICY, "x", resources))
    assert (
        "'trainer-job' claims gpu.nvidia.com (claim 'gpu-h100'), but no ResourceQuota of "
        "namespace 'gpu-training' caps gpu.nvidia.com (spec.hard "
        f"'{GPU_CLASS_KEY}')" in message
    )
    assert message.endswith(
        f"Fix: Add '{GPU_CLASS_KEY}' to the namespace's ResourceQuota spec.hard, set to its share."
    )


def test_one_unknown_claim_does_not_blind_the_policy_to_the_stack() -> None:
    """Neither part of the policy (namespaces, claimed classes) is stopped by a workload whose
    claim's name is known only after apply; the advisory names that workload."""
    unknown = claim_workload("Job", change=unknown_claim_name)
    uncapped = claim_workload("Deployment", device_class="mig.nvidia.com")
    research = namespace("research")
    found = run_recorded(QUOTA_POLICY, (*governed("gpu-training"), *unknown, *uncapped, research))
    assert [(v.enforcement, v.urn) for v in found] == [
        ("advisory", research.urn),
        ("advisory", uncapped[0].urn),
        ("advisory", None),
    ]
    assert f"'{unknown[0].name}'" in found[2].message
