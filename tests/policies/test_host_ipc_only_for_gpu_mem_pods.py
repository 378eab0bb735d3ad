"""host-ipc-only-for-gpu-mem-pods: hostIPC only for ACK MPS pods, on every pod-bearing kind."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Case, assert_case, messages
from .pod_fixtures import (
    Change,
    container,
    mutated,
    pod_policy_cases,
    set_limits,
    set_spec,
)

POLICY = "host-ipc-only-for-gpu-mem-pods"

# (id, change to the compliant pod spec, expected message fragment)
VIOLATIONS: list[tuple[str, Change, str]] = [
    ("host-ipc", set_spec("hostIPC", True), "hostIPC: true"),
    (
        "gpu-mem-without-host-ipc",
        set_limits({"aliyun.com/gpu-mem": 4}),
        "asks for aliyun.com/gpu-mem without hostIPC: true",
    ),
]

CASES: list[Case] = pod_policy_cases(POLICY, VIOLATIONS)
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_mps_client_with_gpu_mem_may_share_host_ipc() -> None:
    def mps(spec: dict[str, Any]) -> None:
        spec["hostIPC"] = True
        container(spec)["resources"] = {"limits": {"aliyun.com/gpu-mem": 4}}

    res = mutated("Deployment", mps)
    assert messages(Case(POLICY, "m", (res,))) == []


def test_gpu_mem_without_host_ipc_can_be_allowed_for_cgpu_pools() -> None:
    res = mutated("Job", set_limits({"aliyun.com/gpu-mem": 4}))
    (message,) = messages(Case(POLICY, "m", (res,)))
    assert message.endswith(
        "Fix: Set hostIPC: true in the pod spec; on gpu-mem pools that are cGPU or share, not "
        "MPS, set gpuMemRequiresHostIpc: false or exempt the namespace."
    )
    assert messages(Case(POLICY, "c", (res,), config={"gpuMemRequiresHostIpc": False})) == []
