"""What make verify expects of a stack: pools, labels, daemons, namespaces
(verify.expectations)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gpu_facts.scheduling import GPU_PRESENT_LABEL, WORKLOAD_LABEL_PREFIX
from gpu_platform.plan.ack.observability import CONTAINER_LOGS as ACK_LOGS
from gpu_platform.plan.aks.observability import CONTAINER_LOGS as AKS_LOGS
from gpu_platform.stack_config import load_platform
from gpu_platform.verify.cli import load_stack
from gpu_platform.verify.expectations import GpuDaemon, expectations, log_expectation
from tests.conftest import stack_raw

ROOT = Path(__file__).resolve().parents[2]


def test_mig_pool_expects_56_mig_devices_per_node() -> None:
    """BP-13: ND96asr_v4 with MIG1g under the mixed strategy shows nvidia.com/mig-1g.5gb: 56."""
    exp = expectations(load_stack(ROOT, "verify", ROOT / "tests/data/verify/Pulumi.verify.yaml"))
    a100 = next(p for p in exp.pools if p.name == "a100")
    assert a100.allocatable == {"nvidia.com/mig-1g.5gb": 56}
    assert (a100.min_nodes, a100.max_nodes) == (2, 2)
    assert str(a100.taint) == "nvidia.com/gpu=present:NoSchedule"
    assert a100.labels == {
        "nvidia.com/gpu.present": "true",
        "nvidia.com/device-plugin.config": "a100",
    }
    t4 = next(p for p in exp.pools if p.name == "t4")
    assert t4.allocatable == {"nvidia.com/gpu.shared": 4}  # 1 GPU x 4 time-slicing replicas
    assert t4.labels["team"] == "inference"
    assert (t4.min_nodes, t4.max_nodes) == (1, 3)


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_aks_pools_expect_the_workload_type_labels_the_stack_sets(stack: str) -> None:
    platform = load_platform(stack_raw(stack))
    for pool in expectations(platform).pools:
        # Brute force: every workload whose namespaces may use the pool.
        allowed = {
            wl.type
            for wl in platform.settings.workloads
            if pool.name in {pf.name for pf in platform.workload_pools(wl)}
        }
        found = {
            key.removeprefix(WORKLOAD_LABEL_PREFIX)
            for key, value in pool.labels.items()
            if key.startswith(WORKLOAD_LABEL_PREFIX) and value == "true"
        }
        assert found == allowed, pool.name


def _single_strategy_raw() -> dict[str, Any]:
    return {
        "cloud": "existing",
        "cluster": {"name": "lab"},
        "gpuPools": [
            {
                "name": "a100",
                "vmSize": "Standard_ND96asr_v4",
                "count": 1,
                "mig": {"profile": "MIG1g", "strategy": "single"},
            }
        ],
        "gpuOperator": {"enabled": True},
        "devicePlugin": {"enabled": False},
        "workloads": [{"name": "train", "type": "training", "gpuQuota": 7}],
        "admission": {"action": "Warn"},
    }


def test_single_strategy_and_gpu_operator() -> None:
    """BP-13 single: 56 instances as nvidia.com/gpu; the GPU Operator's namespace is searched."""
    exp = expectations(load_platform(_single_strategy_raw()))
    assert exp.pools[0].allocatable == {"nvidia.com/gpu": 56}
    assert exp.pools[0].gfd is True  # the operator runs GFD
    assert exp.plugin_namespace == "gpu-operator"
    assert exp.namespaces[0].gpu_quota == {"requests.nvidia.com/gpu": 7}
    assert exp.namespaces[0].admission_action == "Warn"


def test_plugin_managed_outside_the_stack_means_no_gfd_label_check() -> None:
    """Existing cluster, neither our plugin nor the GPU Operator: nothing of ours runs GFD."""
    raw = _single_strategy_raw()
    raw["gpuOperator"] = {"enabled": False}
    raw["devicePlugin"] = {"enabled": False}
    pool = expectations(load_platform(raw)).pools[0]
    assert pool.gfd is False
    assert pool.daemon is GpuDaemon.DEVICE_PLUGIN  # still served by an NVIDIA device plugin


@pytest.mark.parametrize("stack", ["dev", "prod", "ack-dev", "existing"])
def test_every_project_stack_has_expectations(stack: str) -> None:
    """The stack files are tracked: a missing one is a failure, not a skip."""
    platform = load_stack(ROOT, stack, None)
    exp = expectations(platform)
    assert [p.name for p in exp.pools] == list(platform.pools)
    for pool in exp.pools:
        assert pool.allocatable == platform.pools[pool.name].capacity.per_node
        # The NVIDIA plugin selects on it: ACK-shared pools (ACK's own plugin) must not carry it.
        served = platform.pools[pool.name].uses_device_plugin
        assert pool.labels.get(GPU_PRESENT_LABEL) == ("true" if served else None)
        assert (pool.daemon is GpuDaemon.DEVICE_PLUGIN) is served


def test_ack_mps_pool_expects_gpu_memory_and_the_mps_daemon() -> None:
    exp = expectations(load_stack(ROOT, "x", ROOT / "tests/data/verify/Pulumi.verify-ack.yaml"))
    pool = exp.pools[0]
    assert pool.daemon is GpuDaemon.ACK_MPS_CONTROL
    assert pool.allocatable == {"aliyun.com/gpu-mem": 24}  # one A10, 24 GiB
    assert pool.labels["ack.node.gpu.schedule"] == "mps"
    assert "nvidia.com/device-plugin.config" not in pool.labels


@pytest.mark.parametrize(
    ("stack", "collector", "without_namespaces"),
    [("dev", AKS_LOGS, ()), ("ack-dev", ACK_LOGS, None), ("existing", None, None)],
)
def test_logs_are_expected_from_the_clouds_pipeline(
    stack: str, collector: object, without_namespaces: tuple[str, ...] | None
) -> None:
    """AKS's rule collects every namespace when it names none; ACK's one log config per
    namespace collects none then; an existing cluster's pipeline is not ours."""
    raw = stack_raw(stack)
    logs = log_expectation(load_platform(raw))
    assert (logs and logs.collector) == collector
    assert logs is None or logs.namespaces == ("gpu-inference", "gpu-training")
    raw["observability"] = {"logs": {"namespaces": []}}
    logs = log_expectation(load_platform(raw))
    assert (None if logs is None else logs.namespaces) == without_namespaces
