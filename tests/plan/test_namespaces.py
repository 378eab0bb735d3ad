"""Workload namespaces: labels, Pod Security, GPU quota, the problems of one namespace
(plan.namespaces)."""

from __future__ import annotations

from typing import Any

from gpu_platform.plan.namespaces import (
    gpu_quota,
    mps_host_ipc,
    namespace_labels,
    pod_security_level,
    workload_problems,
)
from gpu_platform.plan.pools import PoolFacts, resolve_pool
from gpu_platform.settings import WorkloadSettings
from tests.pools import gpu_pool


def facts(cloud: Any, **fields: Any) -> PoolFacts:
    return resolve_pool(cloud, gpu_pool({"count": 1, **fields}))


T4 = facts("aks", name="t4", vmSize="Standard_NC4as_T4_v3")
MPS = facts("ack", name="mps", instanceType="ecs.gn7i-c8g1.2xlarge", sharing={"mode": "mps"})
CGPU = facts("ack", name="cgpu", instanceType="ecs.gn7i-c8g1.2xlarge", sharing={"mode": "cgpu"})


def workload(**fields: Any) -> WorkloadSettings:
    return WorkloadSettings.model_validate(
        {"name": "ns", "type": "training", "gpuQuota": 2, **fields}
    )


def test_pod_security_by_type_unless_set_and_privileged_for_mps() -> None:
    assert pod_security_level(workload(), [T4]) == "baseline"
    assert pod_security_level(workload(type="inference"), [T4]) == "restricted"
    assert pod_security_level(workload(podSecurity="restricted"), [T4]) == "restricted"
    assert pod_security_level(workload(), [MPS]) == "privileged"


def test_the_mps_exception_is_required_only_when_every_gpu_mem_pool_is_mps() -> None:
    assert mps_host_ipc([T4]) is None
    assert mps_host_ipc([MPS]) == "required"
    assert mps_host_ipc([MPS, CGPU]) == "allowed"
    labels = namespace_labels(workload(logging={"labels": {"team": "a"}}), [MPS])
    assert labels["gpu-platform.io/mps-host-ipc"] == "required"
    assert labels["team"] == "a" and labels["workload"] == "training"


def test_quota_keys_for_what_the_pools_offer_and_zero_for_the_rest() -> None:
    assert gpu_quota(workload(), [T4], ["nvidia.com/gpu", "nvidia.com/mig-1g.5gb"]) == {
        "requests.nvidia.com/gpu": "2",
        "requests.nvidia.com/mig-1g.5gb": "0",
    }


def test_problems_relative_to_the_namespace_or_under_a_path() -> None:
    bad = workload(
        logging={"labels": {"kubernetes.io/x": "y"}},
        traffic={"egressCidrs": ["10.0.0.1/8"]},
        podSecurity="baseline",
    )
    relative = [path for path, _ in workload_problems(bad, [MPS])]
    assert relative == ["logging.labels.kubernetes.io/x", "traffic.egressCidrs[0]", "podSecurity"]
    assert [p for p, _ in workload_problems(bad, [MPS], "workloads[2]")] == [
        f"workloads[2].{path}" for path in relative
    ]


def test_a_queued_namespace_names_its_local_queue() -> None:
    assert "gpu-platform.io/local-queue" not in namespace_labels(workload(), [T4])
    labels = namespace_labels(workload(), [T4], local_queue="training")
    assert labels["gpu-platform.io/local-queue"] == "training"
