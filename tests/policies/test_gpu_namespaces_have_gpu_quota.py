"""gpu-namespaces-have-gpu-quota: a ResourceQuota on a GPU resource per GPU namespace."""

from __future__ import annotations

import pytest

from .harness import Case, assert_case, messages
from .stack_fixtures import (
    governed,
    many_namespaces_stack,
    namespace,
    quota,
    walks_once,
)

QUOTA_POLICY = "gpu-namespaces-have-gpu-quota"
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
