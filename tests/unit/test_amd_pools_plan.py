"""plan/amd_pools.py through the stack config: what an AMD pool may be and what the AMD GPU layer
needs, each refused with AKS's or AMD's rule; AMD pools serve the namespaces that list them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gpu_platform.plan.amd_pools import amd_pools, is_amd_pool, nvidia_pools, pool_vendor
from gpu_platform.settings import GpuPoolSettings
from gpu_platform.stack_config import ConfigError, load_platform
from tests.conftest import stack_raw

MI300X = "Standard_ND96isr_MI300X_v5"


def amd_dev(change: Any = None) -> dict[str, Any]:
    raw = copy.deepcopy(stack_raw("amd-dev"))
    if change is not None:
        change(raw)
    return raw


def problems(raw: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ConfigError) as err:
        load_platform(raw)
    return dict(err.value.problems)


def test_the_amd_stack_resolves_with_its_capacity() -> None:
    platform = load_platform(amd_dev())
    mi300x = platform.pools["mi300x"]
    assert mi300x.is_amd and mi300x.vendor.name == "AMD"
    assert mi300x.capacity.per_node == {"amd.com/gpu": 8}
    assert not mi300x.uses_device_plugin  # NVIDIA's plugin serves no AMD pool
    assert [p.name for p in amd_pools(platform.pools.values())] == ["mi300x"]
    assert [p.name for p in nvidia_pools(platform.pools.values())] == ["t4"]


def test_vendor_by_size() -> None:
    assert pool_vendor(GpuPoolSettings(name="a", vmSize=MI300X, count=1)).name == "AMD"  # type: ignore[union-attr]
    assert not is_amd_pool(GpuPoolSettings(name="t", vmSize="Standard_NC4as_T4_v3", count=1))
    assert pool_vendor(GpuPoolSettings(name="x", vmSize="Standard_Nope", count=1)) is None


def _pool(raw: dict[str, Any]) -> dict[str, Any]:
    pool: dict[str, Any] = raw["gpuPools"][0]
    assert pool["vmSize"] == MI300X
    return pool


def test_azure_linux_is_refused_with_akss_rule() -> None:
    found = problems(amd_dev(lambda r: _pool(r).update(osSku="AzureLinux")))
    assert "AzureLinux and Windows are not yet supported with AMD GPU" in found["gpuPools[0].osSku"]
    assert "learn.microsoft.com/azure/aks/use-amd-gpus" in found["gpuPools[0].osSku"]


def test_ubuntu_2204_is_fine() -> None:
    load_platform(amd_dev(lambda r: _pool(r).update(osSku="Ubuntu2204")))


def test_nvidia_sharing_and_mig_are_refused_on_amd_pools() -> None:
    shared = problems(
        amd_dev(lambda r: _pool(r).update(sharing={"mode": "timeSlicing", "replicas": 2}))
    )
    assert "AMD's device plugin hands out whole GPUs" in shared["gpuPools[0].sharing"]
    mig = problems(amd_dev(lambda r: _pool(r).update(mig={"profile": "MIG1g"}, count=1)))
    assert "does not support MIG" in mig["gpuPools[0].mig.profile"]


def test_the_driver_image_is_required_with_amd_pools_only() -> None:
    found = problems(amd_dev(lambda r: r["amdGpuOperator"]["driver"].pop("image")))
    assert "registry repository" in found["amdGpuOperator.driver.image"]
    # A stack without AMD pools needs no AMD setting at all.
    raw = copy.deepcopy(stack_raw("dev"))
    raw["amdGpuOperator"] = {"driver": {"enabled": True}}
    load_platform(raw)


def test_driver_image_is_a_repository_without_tag() -> None:
    raw = amd_dev(lambda r: r["amdGpuOperator"]["driver"].update(image="acr.io/amd/kmod:6.4"))
    with pytest.raises(ConfigError) as err:
        load_platform(raw)
    messages = [m for key, m in err.value.problems if key == "amdGpuOperator.driver.image"]
    assert any("a registry repository without a tag" in m for m in messages)


def test_aks_needs_the_operator_to_install_the_driver() -> None:
    found = problems(amd_dev(lambda r: r["amdGpuOperator"]["driver"].update(enabled=False)))
    assert "gpuProfile.driver None is enforced" in found["amdGpuOperator.driver.enabled"]


def test_an_existing_clusters_preinstalled_driver_may_be_kept() -> None:
    raw = copy.deepcopy(stack_raw("byo"))
    raw["gpuPools"].append({"name": "mi300x", "vmSize": MI300X, "count": 1})
    raw["amdGpuOperator"] = {"driver": {"enabled": False}}
    platform = load_platform(raw)
    assert platform.pools["mi300x"].is_amd


def test_driver_version_as_the_radeon_repository_spells_it() -> None:
    found = problems(amd_dev(lambda r: r["amdGpuOperator"]["driver"].update(version="6.4.0")))
    assert "give e.g. '6.4', not '6.4.0'" in found["amdGpuOperator.driver.version"]


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (
            lambda r: r["amdGpuOperator"].update(namespace="nvidia-device-plugin"),
            "amdGpuOperator.namespace",
        ),
        (
            lambda r: r["amdGpuOperator"].update(certManager={"namespace": "amd-gpu-operator"}),
            "amdGpuOperator.certManager.namespace",
        ),
        (
            lambda r: r["amdGpuOperator"].update(namespace="kube-amd-gpu"),
            "amdGpuOperator.namespace",
        ),
    ],
)
def test_the_amd_layers_namespaces_are_its_own(change: Any, key: str) -> None:
    assert key in problems(amd_dev(change))


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
