"""plan.amd.pools: which pools are AMD's, what AKS refuses in one (relative to the pool), and
AMD pools serve the namespaces that list them. The same rules through the stack config, with
their key paths: tests/stack_config/rules/test_amd.py."""

from __future__ import annotations

from typing import Any

from gpu_platform.plan.amd.pools import (
    amd_pool_problems,
    amd_pools,
    is_amd_pool,
    nvidia_pools,
    pool_vendor,
)
from gpu_platform.settings import AksGpuPoolSettings
from gpu_platform.stack_config import load_platform
from tests.stack_config.rules.test_amd import MI300X, amd_dev


def test_the_amd_stack_resolves_with_its_capacity() -> None:
    platform = load_platform(amd_dev())
    mi300x = platform.pools["mi300x"]
    assert mi300x.is_amd and mi300x.vendor.name == "AMD"
    assert mi300x.capacity.per_node == {"amd.com/gpu": 8}
    assert not mi300x.uses_device_plugin  # NVIDIA's plugin serves no AMD pool
    assert [p.name for p in amd_pools(platform.pools.values())] == ["mi300x"]
    assert [p.name for p in nvidia_pools(platform.pools.values())] == ["t4"]


def test_vendor_by_size() -> None:
    assert pool_vendor(AksGpuPoolSettings(name="a", vmSize=MI300X, count=1)).name == "AMD"  # type: ignore[union-attr]
    assert not is_amd_pool(AksGpuPoolSettings(name="t", vmSize="Standard_NC4as_T4_v3", count=1))
    assert pool_vendor(AksGpuPoolSettings(name="x", vmSize="Standard_Nope", count=1)) is None


def test_amd_pool_problems_are_relative_to_the_pool() -> None:
    pool = AksGpuPoolSettings(name="a", vmSize=MI300X, count=1, osSku="AzureLinux")
    found = dict(amd_pool_problems("aks", pool))
    assert "AzureLinux and Windows are not yet supported with AMD GPU" in found["osSku"]
    nvidia = AksGpuPoolSettings(
        name="t", vmSize="Standard_NC4as_T4_v3", count=1, osSku="AzureLinux"
    )
    assert amd_pool_problems("aks", nvidia) == []


def test_amd_pools_serve_only_the_namespaces_that_list_them() -> None:
    def unlisted(raw: dict[str, Any]) -> None:
        raw["workloads"].append({"name": "gpu-batch", "type": "batch", "gpuQuota": 1})

    platform = load_platform(amd_dev(unlisted))
    (batch,) = [w for w in platform.settings.workloads if w.name == "gpu-batch"]
    # The unshared NVIDIA pool, not the AMD one.
    assert [p.name for p in platform.workload_pools(batch)] == ["t4"]
    (training,) = [w for w in platform.settings.workloads if w.name == "gpu-training"]
    assert [p.name for p in platform.workload_pools(training)] == ["mi300x"]


def test_a_quota_on_amd_gpus_needs_a_pool_that_offers_them() -> None:
    def nvidia_only(raw: dict[str, Any]) -> None:
        raw["workloads"][0]["pools"] = ["t4"]

    platform = load_platform(amd_dev(nvidia_only))
    assert any(
        "amd.com/gpu is more than the cluster can ever offer (0)" in w for w in platform.warnings
    )
