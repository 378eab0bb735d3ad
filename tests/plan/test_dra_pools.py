"""plan.dra_pools: what a DRA pool may not be (relative to the pool) and what DRA pools need of
the cluster (from the config's root). The same rules through the stack config, with their key
paths: tests/stack_config/rules/test_pools.py; through the components:
tests/components/nvidia/test_dra_driver.py."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_platform.plan.dra_pools import (
    AMD_RULE,
    DRA_VERSION_RULE,
    dra_cluster_problems,
    dra_pool_problems,
    dra_pools,
)
from gpu_platform.settings import GpuPoolSettings, PlatformSettings
from gpu_platform.stack_config import load_platform
from tests.conftest import stack_raw
from tests.pools import gpu_pool

H100 = {"name": "h100dra", "vmSize": "Standard_NC40ads_H100_v5", "count": 1, "allocation": "dra"}


def pool(**changes: Any) -> GpuPoolSettings:
    return gpu_pool({**H100, **changes})


def test_a_device_plugin_pool_is_never_judged() -> None:
    shared = pool(allocation="devicePlugin", sharing={"mode": "timeSlicing", "replicas": 2})
    assert list(dra_pool_problems("aks", shared)) == []


def test_a_plain_dra_pool_and_a_mig_dra_pool_pass() -> None:
    assert list(dra_pool_problems("aks", pool())) == []
    mig = pool(vmSize="Standard_ND96asr_v4", mig={"profile": "MIG1g"})
    assert list(dra_pool_problems("aks", mig)) == []


def test_what_a_dra_pool_may_not_be() -> None:
    shared = dict(dra_pool_problems("aks", pool(sharing={"mode": "mps", "replicas": 2})))
    assert "'mps' is device-plugin (or ACK) sharing" in shared["sharing"]
    strategy = pool(vmSize="Standard_ND96asr_v4", mig={"profile": "MIG1g", "strategy": "single"})
    assert "is the device plugin's" in dict(dra_pool_problems("aks", strategy))["mig.strategy"]
    amd = pool(name="mi300x", vmSize="Standard_ND96isr_MI300X_v5")
    assert dict(dra_pool_problems("aks", amd)) == {"allocation": AMD_RULE}
    ack_raw = {k: v for k, v in H100.items() if k != "vmSize"}
    ack = gpu_pool(
        {**ack_raw, "instanceType": "ecs.gn7i-c8g1.2xlarge", "sharing": {"mode": "cgpu"}}
    )
    assert "sharing" in dict(dra_pool_problems("ack", ack))


def settings(stack: str = "dra-dev", **cluster: Any) -> PlatformSettings:
    raw = stack_raw(stack)
    raw["cluster"].update(cluster)
    return PlatformSettings.model_validate(raw)


@pytest.mark.parametrize(
    ("version", "found"),
    [
        ("1.36", []),
        ("1.36.2", []),
        (
            "1.33",
            [
                (
                    "cluster.kubernetesVersion",
                    f"1.33 cannot run DRA pools (gpuPools[2], gpuPools[3]): {DRA_VERSION_RULE}",
                )
            ],
        ),
    ],
)
def test_the_cluster_version_serves_dra(version: str, found: list[tuple[str, str]]) -> None:
    assert list(dra_cluster_problems(settings(kubernetesVersion=version))) == found


def test_an_unset_version_is_required() -> None:
    raw = stack_raw("dra-dev")
    del raw["cluster"]["kubernetesVersion"]
    ((path, message),) = dra_cluster_problems(PlatformSettings.model_validate(raw))
    assert path == "cluster.kubernetesVersion"
    assert message.startswith("required with DRA pools (gpuPools[2], gpuPools[3])")


def test_aks_needs_a_node_image_with_cdi() -> None:
    found = dict(dra_cluster_problems(settings(kubernetesVersion="1.35")))
    assert sorted(found) == ["gpuPools[2].allocation", "gpuPools[3].allocation"]
    assert "containerd 1.7, which leaves CDI off" in found["gpuPools[2].allocation"]
    raw = stack_raw("dra-dev")
    raw["cluster"]["kubernetesVersion"] = "1.35"
    raw["gpuPools"] = [p for p in raw["gpuPools"] if p["name"] != "a100dramig"]
    raw["gpuPools"][2]["osSku"] = "AzureLinux3"  # containerd 2.0 on 1.35
    assert list(dra_cluster_problems(PlatformSettings.model_validate(raw))) == []
    raw["cluster"]["kubernetesVersion"] = "1.36"
    raw["gpuPools"][2]["osSku"] = "Ubuntu2204"  # Ubuntu 22.04 keeps containerd 1.7
    ((path, _),) = dra_cluster_problems(PlatformSettings.model_validate(raw))
    assert path == "gpuPools[2].allocation"


def test_the_gpu_operator_is_refused_beside_dra_pools() -> None:
    raw = stack_raw("dra-dev")
    raw["gpuOperator"] = {"enabled": True}
    raw["devicePlugin"] = {"enabled": False}
    found = dict(dra_cluster_problems(PlatformSettings.model_validate(raw)))
    assert "must not run beside a device plugin" in found["gpuOperator.enabled"]


def test_an_existing_clusters_version_is_its_own() -> None:
    raw = stack_raw("existing")
    raw["gpuPools"][0]["allocation"] = "dra"
    raw["gpuPools"][0].pop("mig", None)
    assert list(dra_cluster_problems(PlatformSettings.model_validate(raw))) == []


def test_dra_pools_of_the_stack() -> None:
    platform = load_platform(stack_raw("dra-dev"))
    assert [pf.name for pf in dra_pools(platform.pools.values())] == ["h100dra", "a100dramig"]
    h100 = platform.pools["h100dra"]
    assert h100.uses_dra and not h100.uses_device_plugin
    assert h100.capacity.per_node == {} and h100.capacity.devices == {"gpu.nvidia.com": 1}
    assert platform.pools["a100dramig"].capacity.devices == {"mig.nvidia.com": 56}
