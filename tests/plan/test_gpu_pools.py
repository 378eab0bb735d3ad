"""The rules of one GPU pool, asked by the stack config and the components alike
(plan.gpu_pools)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_facts.aks.mig import MIG_NO_AUTOSCALER, MIG_NOT_ON_AZURE_LINUX
from gpu_platform.plan.gpu_pools import (
    MACHINE_REQUIRED,
    gpu_pool_problems,
    machine_problems,
    mig_problems,
    nvme_problems,
    sharing_problems,
)
from gpu_platform.settings import Cloud, GpuPoolSettings

MIG = {"name": "mig", "vmSize": "Standard_ND96asr_v4", "count": 1, "mig": {"profile": "MIG1g"}}


def pool(**fields: Any) -> GpuPoolSettings:
    return GpuPoolSettings.model_validate({"name": "p", "count": 1, **fields})


@pytest.mark.parametrize(
    ("cloud", "fields", "expected"),
    [
        ("azure", {"vmSize": "Standard_NC4as_T4_v3"}, []),
        ("azure", {}, [("vmSize", MACHINE_REQUIRED)]),
        (
            "azure",
            {"instanceType": "ecs.gn7i-c8g1.2xlarge"},
            [
                ("vmSize", MACHINE_REQUIRED),
                ("instanceType", "Alibaba instance types are for cloud 'alicloud'; use vmSize"),
            ],
        ),
        ("alicloud", {}, [("instanceType", MACHINE_REQUIRED)]),
        ("existing", {}, [("vmSize", MACHINE_REQUIRED)]),
        (
            "existing",
            {"vmSize": "Standard_NC4as_T4_v3", "instanceType": "ecs.gn7i-c8g1.2xlarge"},
            [("", "give vmSize or instanceType, not both")],
        ),
    ],
)
def test_machine(cloud: Cloud, fields: dict[str, Any], expected: list) -> None:
    assert list(machine_problems(cloud, pool(**fields))) == expected


def test_an_unknown_size_is_named_with_the_catalog() -> None:
    [(path, message)] = machine_problems("azure", pool(vmSize="Standard_D4s_v5"))
    assert path == "vmSize"
    assert message.endswith("(a GPU pool needs a size with GPUs)")


def test_mig_fixed_size_on_ubuntu_and_a_profile_of_the_gpu() -> None:
    assert list(mig_problems("azure", pool(**MIG))) == []
    autoscaled = pool(**{**MIG, "count": None, "autoscale": {"min": 0, "max": 2}})
    assert list(mig_problems("azure", autoscaled)) == [("autoscale", MIG_NO_AUTOSCALER)]
    azure_linux = pool(**MIG, osSku="AzureLinux3")
    assert list(mig_problems("azure", azure_linux)) == [("osSku", MIG_NOT_ON_AZURE_LINUX)]
    t4 = pool(vmSize="Standard_NC4as_T4_v3", mig={"profile": "MIG1g"})
    [(path, message)] = mig_problems("azure", t4)
    assert path == "mig.profile" and "does not support MIG" in message
    [(path, _)] = mig_problems(
        "alicloud", pool(instanceType="ecs.gn7i-c8g1.2xlarge", mig={"profile": "MIG1g"})
    )
    assert path == "mig"


def test_an_ecs_type_on_an_existing_cluster_is_judged_by_its_gpu() -> None:
    """The A10 has no MIG: refused here rather than when the pool is resolved."""
    a10 = pool(instanceType="ecs.gn7i-c8g1.2xlarge", mig={"profile": "MIG1g"})
    [(path, _)] = mig_problems("existing", a10)
    assert path == "mig.profile"


def test_sharing_modes_per_cloud() -> None:
    timesliced = pool(vmSize="Standard_NC4as_T4_v3", sharing={"mode": "timeSlicing"})
    assert list(sharing_problems("azure", timesliced)) == [
        ("sharing.replicas", "required for timeSlicing: how many pods share one GPU")
    ]
    cgpu = pool(vmSize="Standard_NC4as_T4_v3", sharing={"mode": "cgpu"})
    assert next(iter(sharing_problems("azure", cgpu))) == (
        "sharing.mode",
        "'cgpu' is an ACK sharing mode (cloud 'alicloud')",
    )
    ack = pool(instanceType="ecs.gn7i-c8g1.2xlarge", sharing={"mode": "mps", "replicas": 2})
    assert list(sharing_problems("alicloud", ack)) == [
        ("sharing.replicas", "ACK sharing splits GPU memory: pods ask aliyun.com/gpu-mem")
    ]


def test_nvme_only_on_aks_sizes_with_nvme() -> None:
    assert list(nvme_problems("azure", pool(vmSize="Standard_NC40ads_H100_v5", nvme=True))) == []
    [(path, message)] = nvme_problems("azure", pool(vmSize="Standard_NC4as_T4_v3", nvme=True))
    assert path == "nvme" and message.startswith("Standard_NC4as_T4_v3 has no local NVMe")
    assert list(nvme_problems("existing", pool(vmSize="Standard_NC40ads_H100_v5", nvme=True)))


def test_every_rule_in_the_configs_order() -> None:
    bad = pool(
        name="system",
        vmSize="Standard_NC4as_T4_v3",
        autoscale={"min": 3, "max": 1},
        labels={"gpu-platform.io/pool": "x"},
        upgrade={"maxSurge": "0"},
    )
    assert [path for path, _ in gpu_pool_problems("azure", bad)] == [
        "name",
        "",
        "autoscale.min",
        "labels.gpu-platform.io/pool",
        "upgrade.maxSurge",
    ]
    # Surge is AKS's: elsewhere the pool upgrades in place.
    assert "upgrade.maxSurge" not in dict(gpu_pool_problems("existing", bad))
