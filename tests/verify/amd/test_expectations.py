"""What ``make verify`` expects of a stack's AMD pools, from the stack config
(verify.amd.expectations). The fake-API-server scenarios: tests/stacks/test_verify_amd.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_facts.scheduling import GPU_PRESENT_LABEL, WORKLOAD_LABEL_PREFIX
from gpu_platform.verify.amd.expectations import amd_expectation
from gpu_platform.verify.cli import load_stack
from gpu_platform.verify.expectations import GpuDaemon, expectations

ROOT = Path(__file__).resolve().parents[3]


def test_amd_dev_stack_expects_the_amd_pool_from_what_the_stack_builds() -> None:
    platform = load_stack(ROOT, "amd-dev", None)
    amd = amd_expectation(platform)
    assert amd is not None
    assert amd.namespace == "amd-gpu-operator"
    assert amd.workload_namespaces == ["gpu-training"]
    (pool,) = amd.pools
    assert (pool.device_config, pool.gpus) == ("mi300x", 8)
    assert pool.operands() == [
        ("mi300x-device-plugin", "AMD device plugin"),
        ("mi300x-node-labeller", "AMD node labeller"),
        ("mi300x-metrics-exporter", "AMD metrics exporter"),
    ]
    assert str(pool.pool.taint) == "amd.com/gpu=present:NoSchedule"
    assert pool.pool.allocatable == {"amd.com/gpu": 8}
    assert pool.pool.daemon is GpuDaemon.AMD_DEVICE_PLUGIN
    assert pool.pool.gfd is False
    # Our labels (the training namespace may use it), none of NVIDIA's plugin labels.
    assert pool.pool.labels == {f"{WORKLOAD_LABEL_PREFIX}training": "true"}
    assert GPU_PRESENT_LABEL not in pool.pool.labels
    # NVIDIA's checks get the T4 pool only, and dcgm-exporter watches it only.
    exp = expectations(platform)
    assert [p.name for p in exp.pools] == ["t4"]
    assert exp.exporter is not None
    assert list(exp.exporter.pools) == ["t4"]
    # The training namespace runs on the AMD pool only: AMD's attribution row, not dcgm's.
    assert {ns.name: ns.amd_only for ns in exp.namespaces} == {
        "gpu-training": True,
        "gpu-inference": False,
    }


@pytest.mark.parametrize("stack", ["dev", "prod", "ack-dev", "existing", "amd-dev"])
def test_every_pool_is_checked_once_by_its_vendor(stack: str) -> None:
    platform = load_stack(ROOT, stack, None)
    amd = amd_expectation(platform)
    amd_names = [p.pool.name for p in amd.pools] if amd else []
    nvidia_names = [p.name for p in expectations(platform).pools]
    assert sorted(amd_names + nvidia_names) == sorted(platform.pools)
    assert set(amd_names) == {name for name, pf in platform.pools.items() if pf.is_amd}


def test_a_stack_without_amd_pools_has_no_amd_expectation() -> None:
    assert amd_expectation(load_stack(ROOT, "dev", None)) is None
