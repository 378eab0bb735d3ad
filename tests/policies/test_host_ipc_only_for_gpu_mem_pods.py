"""host-ipc-only-for-gpu-mem-pods: hostIPC only for ACK MPS pods, on every pod-bearing kind."""

from __future__ import annotations

from typing import Any

import pytest

from .cloud_fixtures import ACK_NODE_POOL, ack_pool
from .harness import Case, Res, assert_case, messages
from .pod_fixtures import (
    Change,
    container,
    gpu_pod_spec,
    mutated,
    pod_policy_cases,
    set_limits,
    set_spec,
)
from .queue_fixtures import KUEUE_KINDS, cluster_queue, flavor, local_queue, queued

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
        "Fix: Set hostIPC: true in the pod spec; if its gpu-mem pools are cGPU or share, not "
        "MPS, declare them in the stack with their ack.node.gpu.schedule label (the pools "
        "decide), set gpuMemRequiresHostIpc: false or exempt the namespace."
    )
    assert messages(Case(POLICY, "c", (res,), config={"gpuMemRequiresHostIpc": False})) == []


# --- The stack's gpu-mem pools decide: MPS clients need hostIPC, cGPU and share pods do not --


def pool(name: str, mode: str) -> Res:
    """An ACK GPU pool labelled for ACK's GPU sharing (``mps``, ``cgpu`` or ``share``)."""
    labels = [
        {"key": "gpu-platform.io/pool", "value": name},
        {"key": "ack.node.gpu.schedule", "value": mode},
    ]
    return Res(ACK_NODE_POOL, name, ack_pool(nodePoolName=name, labels=labels))


def gpu_mem_pod(host_ipc: bool, on: str | None = None) -> Res:
    """A pod asking for GPU memory, with hostIPC or not, selecting pool ``on`` (or none)."""

    def change(spec: dict[str, Any]) -> None:
        container(spec)["resources"] = {"limits": {"aliyun.com/gpu-mem": 4}}
        if host_ipc:
            spec["hostIPC"] = True
        if on is not None:
            spec["nodeSelector"] = {"gpu-platform.io/pool": on}

    return mutated("Deployment", change)


MPS, CGPU, SHARE = pool("a10mps", "mps"), pool("a10cgpu", "cgpu"), pool("a10share", "share")

POOL_CASES = [
    Case(POLICY, "cgpu-pool-no-host-ipc", (CGPU, gpu_mem_pod(host_ipc=False))),
    Case(POLICY, "share-pool-no-host-ipc", (SHARE, gpu_mem_pod(host_ipc=False))),
    Case(POLICY, "mps-pool-host-ipc", (MPS, gpu_mem_pod(host_ipc=True))),
    Case(
        POLICY,
        "mps-pool-no-host-ipc",
        (MPS, gpu_mem_pod(host_ipc=False)),
        ("asks for aliyun.com/gpu-mem on MPS pools (a10mps (mps)) without hostIPC: true",),
    ),
    Case(
        POLICY,
        "cgpu-pool-host-ipc",
        (CGPU, gpu_mem_pod(host_ipc=True)),
        ("its aliyun.com/gpu-mem pools are not MPS pools (a10cgpu (cgpu))",),
    ),
    # The nodeSelector picks the pool; a pod that picks none may land on either.
    Case(POLICY, "selects-the-cgpu-pool", (MPS, CGPU, gpu_mem_pod(False, on="a10cgpu"))),
    Case(
        POLICY,
        "selects-the-mps-pool",
        (MPS, CGPU, gpu_mem_pod(False, on="a10mps")),
        ("without hostIPC: true",),
    ),
    Case(
        POLICY,
        "may-land-on-either",
        (MPS, CGPU, gpu_mem_pod(host_ipc=False)),
        ("on MPS pools (a10mps (mps), a10cgpu (cgpu))",),
    ),
    Case(POLICY, "may-land-on-either-with-host-ipc", (MPS, CGPU, gpu_mem_pod(host_ipc=True))),
    # The pools decide, not the config: it is for stacks without gpu-mem pools.
    Case(
        POLICY,
        "cgpu-pool-config-irrelevant",
        (CGPU, gpu_mem_pod(host_ipc=False)),
        config={"gpuMemRequiresHostIpc": True},
    ),
]


@pytest.mark.parametrize("case", POOL_CASES, ids=lambda c: c.id)
def test_the_stacks_gpu_mem_pools_decide(case: Case) -> None:
    assert_case(case)


def test_the_message_for_a_cgpu_pod_says_to_remove_host_ipc() -> None:
    (message,) = messages(Case(POLICY, "m", (CGPU, gpu_mem_pod(host_ipc=True))))
    assert message.endswith(
        "Fix: Remove hostIPC: cGPU and share pools hand out GPU memory without MPS."
    )


# --- Queued by Kueue: the flavours' nodeLabels join the pod's nodeSelector at admission -------


def gpu_mem_spec(host_ipc: bool) -> dict[str, Any]:
    """A GPU-memory pod that selects no pool itself."""
    spec = gpu_pod_spec()
    container(spec)["resources"] = {"limits": {"aliyun.com/gpu-mem": 4}}
    if host_ipc:
        spec["hostIPC"] = True
    return spec


def queued_to(pool_name: str) -> tuple[Res, ...]:
    """Both pools; a ClusterQueue whose one flavour is pool ``pool_name``; its LocalQueue."""
    quota = cluster_queue(quotas={pool_name: {"aliyun.com/gpu-mem": 64}})
    return (MPS, CGPU, flavor(pool_name), quota, local_queue())


QUEUED_CASES = [
    case
    for kind in KUEUE_KINDS
    for case in (
        # As written it may land on either pool, the MPS one included: hostIPC is wanted.
        Case(
            POLICY,
            f"{kind}-queued-to-the-cgpu-flavour",
            (*queued_to("a10cgpu"), queued(kind, gpu_mem_spec(False))),
        ),
        Case(
            POLICY,
            f"{kind}-queued-to-the-cgpu-flavour-host-ipc",
            (*queued_to("a10cgpu"), queued(kind, gpu_mem_spec(True))),
            (
                "(admitted by Kueue to flavour 'a10cgpu' of ClusterQueue 'training') sets "
                "hostIPC: true, but its aliyun.com/gpu-mem pools are not MPS pools "
                "(a10cgpu (cgpu))",
            ),
        ),
        Case(
            POLICY,
            f"{kind}-queued-to-the-mps-flavour",
            (*queued_to("a10mps"), queued(kind, gpu_mem_spec(True))),
        ),
        Case(
            POLICY,
            f"{kind}-queued-to-the-mps-flavour-no-host-ipc",
            (*queued_to("a10mps"), queued(kind, gpu_mem_spec(False))),
            ("asks for aliyun.com/gpu-mem on MPS pools (a10mps (mps)) without hostIPC: true",),
        ),
    )
]


@pytest.mark.parametrize("case", QUEUED_CASES, ids=lambda c: c.id)
def test_a_queued_pod_lands_where_its_flavours_put_it(case: Case) -> None:
    assert_case(case)


def test_a_pod_of_a_queue_the_program_lacks_is_judged_as_written() -> None:
    """No LocalQueue in the program: the pod may land on either pool, the MPS one included."""
    pod = queued("Job", gpu_mem_spec(False))
    (message,) = messages(Case(POLICY, "m", (MPS, CGPU, pod)))
    assert "on MPS pools (a10mps (mps), a10cgpu (cgpu)) without hostIPC" in message
