"""Rules of AMD pools and the AMD GPU layer in the stack config (stack_config.rules.amd): each
asks ``plan.amd.pools`` (the AKS pool component asks the same) under the config's paths."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_platform.plan.amd.pools import amd_pool_problems
from gpu_platform.plan.problems import under
from gpu_platform.stack_config import ConfigError, load_platform
from gpu_platform.stack_config.rules.amd import POOL_RULES, amd_layer
from tests.conftest import stack_raw
from tests.stack_config.rules.subjects import subject

MI300X = "Standard_ND96isr_MI300X_v5"


def amd_dev(change: Any = None) -> dict[str, Any]:
    raw = stack_raw("amd-dev")
    if change is not None:
        change(raw)
    return raw


def problems(raw: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ConfigError) as err:
        load_platform(raw)
    return dict(err.value.problems)


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
    raw = stack_raw("dev")
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
    raw = stack_raw("existing")
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


def test_the_pool_rule_is_plans_under_the_pools_place() -> None:
    cfg = subject("amd-dev", lambda r: _pool(r).update(osSku="AzureLinux"))
    found = [p for rule in POOL_RULES for p in rule(cfg.with_pools(cfg.pools[:1]))]
    assert found and found == under("gpuPools[0]", amd_pool_problems("aks", cfg.pools[0][1]))
    assert list(amd_layer(subject("amd-dev"))) == []
