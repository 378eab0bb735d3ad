"""The rules of one GPU pool, asked by the stack config and the components alike
(plan.gpu_pools)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from gpu_facts.ack.addons import needs_ack_pro
from gpu_facts.aks.mig import MIG_NO_AUTOSCALER, MIG_NOT_ON_AZURE_LINUX
from gpu_facts.nvidia.device_plugin_chart import MPS_NEEDS_VERSION
from gpu_facts.scheduling import ACK_GPU_SCHEDULE_VALUES
from gpu_platform.plan.ack.pools import ACK_MPS_MODE
from gpu_platform.plan.existing.pools import GPU_OR_MACHINE, NODES_REQUIRED
from gpu_platform.plan.gpu_pools import (
    cluster_sharing_problems,
    gpu_pool_problems,
    machine_problems,
    mig_problems,
    nvme_problems,
    sharing_problems,
)
from gpu_platform.settings import Cloud, GpuPoolSettings, PlatformSettings
from tests.conftest import stack_raw
from tests.pools import gpu_pool

MIG = {"name": "mig", "vmSize": "Standard_ND96asr_v4", "count": 1, "mig": {"profile": "MIG1g"}}


def pool(**fields: Any) -> GpuPoolSettings:
    return gpu_pool({"name": "p", "count": 1, **fields})


@pytest.mark.parametrize(
    ("cloud", "fields", "expected"),
    [
        ("aks", {"vmSize": "Standard_NC4as_T4_v3"}, []),
        ("ack", {"instanceType": "ecs.gn7i-c8g1.2xlarge"}, []),
        ("existing", {"gpu": {"model": "H100-80GB", "count": 8}}, []),
        ("existing", {"machineType": "p5.48xlarge"}, []),
        ("existing", {"machineType": "a3-highgpu-8g"}, []),
        ("existing", {}, [("gpu", NODES_REQUIRED)]),
        (
            "existing",
            {"gpu": {"model": "T4", "count": 1}, "machineType": "g4dn.xlarge"},
            [("", GPU_OR_MACHINE)],
        ),
    ],
)
def test_machine(cloud: Cloud, fields: dict[str, Any], expected: list) -> None:
    assert list(machine_problems(cloud, gpu_pool({"name": "p", "count": 1, **fields}, cloud))) == (
        expected
    )


@pytest.mark.parametrize(
    ("cloud", "fields", "key"),
    [
        ("aks", {}, "vmSize"),
        ("aks", {"vmSize": "Standard_NC4as_T4_v3", "instanceType": "ecs.g"}, "instanceType"),
        ("ack", {}, "instanceType"),
        ("ack", {"instanceType": "ecs.gn7i-c8g1.2xlarge", "vmSize": "x"}, "vmSize"),
        ("existing", {"vmSize": "x", "machineType": "p5.48xlarge"}, "vmSize"),
    ],
)
def test_each_cloud_takes_its_own_machine_field(cloud: Cloud, fields: dict, key: str) -> None:
    # The model the cloud picks has the field it needs and none of another cloud's.
    with pytest.raises(ValidationError) as err:
        gpu_pool({"name": "p", "count": 1, **fields}, cloud)
    assert key in {str(e["loc"][0]) for e in err.value.errors()}


def test_an_unknown_gpu_or_machine_is_named_with_the_catalog() -> None:
    [(path, message)] = machine_problems("existing", pool(gpu={"model": "B300", "count": 8}))
    assert path == "gpu.model" and "known models: A10, A100-40GB" in message
    [(path, message)] = machine_problems("existing", pool(machineType="p9.48xlarge"))
    assert path == "machineType" and "not an EKS instance type, GKE machine type" in message


def test_an_unknown_size_is_named_with_the_catalog() -> None:
    [(path, message)] = machine_problems("aks", pool(vmSize="Standard_D4s_v5"))
    assert path == "vmSize"
    assert message.endswith("(a GPU pool needs a size with GPUs)")


def test_mig_fixed_size_on_ubuntu_and_a_profile_of_the_gpu() -> None:
    assert list(mig_problems("aks", pool(**MIG))) == []
    autoscaled = pool(**{**MIG, "count": None, "autoscale": {"min": 0, "max": 2}})
    assert list(mig_problems("aks", autoscaled)) == [("autoscale", MIG_NO_AUTOSCALER)]
    azure_linux = pool(**MIG, osSku="AzureLinux3")
    assert list(mig_problems("aks", azure_linux)) == [("osSku", MIG_NOT_ON_AZURE_LINUX)]
    t4 = pool(vmSize="Standard_NC4as_T4_v3", mig={"profile": "MIG1g"})
    [(path, message)] = mig_problems("aks", t4)
    assert path == "mig.profile" and "does not support MIG" in message
    [(path, _)] = mig_problems(
        "ack", pool(instanceType="ecs.gn7i-c8g1.2xlarge", mig={"profile": "MIG1g"})
    )
    assert path == "mig"


def test_an_existing_clusters_mig_is_nvidias_name_of_a_profile_its_gpu_offers() -> None:
    """By the nodes' GPU, refused here rather than when the pool is resolved."""
    a10 = pool(machineType="ecs.gn7i-c8g1.2xlarge", mig={"profile": "1g.5gb"})
    [(path, message)] = mig_problems("existing", a10)
    assert (path, message) == ("mig.profile", "A10 GPUs do not support MIG")
    h100 = pool(gpu={"model": "H100-80GB", "count": 8}, mig={"profile": "1g.20gb"})
    assert list(mig_problems("existing", h100)) == []  # not a profile AKS offers: NVIDIA's
    [(path, message)] = mig_problems(
        "existing", pool(machineType="p5.48xlarge", mig={"profile": "MIG1g"})
    )
    assert path == "mig.profile" and "has no MIG profile 'MIG1g'; offered: 1g.10gb" in message


def test_sharing_modes_per_cloud() -> None:
    timesliced = pool(vmSize="Standard_NC4as_T4_v3", sharing={"mode": "timeSlicing"})
    assert list(sharing_problems("aks", timesliced)) == [
        ("sharing.replicas", "required for timeSlicing: how many pods share one GPU")
    ]
    cgpu = pool(vmSize="Standard_NC4as_T4_v3", sharing={"mode": "cgpu"})
    assert next(iter(sharing_problems("aks", cgpu))) == (
        "sharing.mode",
        "'cgpu' is an ACK sharing mode (cloud 'ack')",
    )
    ack = pool(instanceType="ecs.gn7i-c8g1.2xlarge", sharing={"mode": "mps", "replicas": 2})
    assert list(sharing_problems("ack", ack)) == [
        ("sharing.replicas", "ACK sharing splits GPU memory: pods ask aliyun.com/gpu-mem")
    ]


def test_nvme_only_on_aks_sizes_with_nvme() -> None:
    assert list(nvme_problems("aks", pool(vmSize="Standard_NC40ads_H100_v5", nvme=True))) == []
    [(path, message)] = nvme_problems("aks", pool(vmSize="Standard_NC4as_T4_v3", nvme=True))
    assert path == "nvme" and message.startswith("Standard_NC4as_T4_v3 has no local NVMe")
    # Elsewhere there is no nvme key at all: the schema refuses it.
    with pytest.raises(ValidationError):
        pool(machineType="Standard_NC40ads_H100_v5", nvme=True)


def test_every_rule_in_the_configs_order() -> None:
    bad = pool(
        name="system",
        vmSize="Standard_NC4as_T4_v3",
        autoscale={"min": 3, "max": 1},
        labels={"gpu-platform.io/pool": "x"},
        upgrade={"maxSurge": "0"},
    )
    assert [path for path, _ in gpu_pool_problems("aks", bad)] == [
        "name",
        "",
        "autoscale.min",
        "labels.gpu-platform.io/pool",
        "upgrade.maxSurge",
    ]
    # Surge is AKS's: ACK upgrades in place.
    on_ack = pool(
        **{
            **bad.model_dump(
                exclude={
                    "vm_size",
                    "nvme",
                    "os_sku",
                    "max_pods",
                    "os_disk_type",
                    "os_disk_size_gb",
                },
                by_alias=True,
            ),
            "instanceType": "ecs.gn7i-c8g1.2xlarge",
        }
    )
    assert "upgrade.maxSurge" not in dict(gpu_pool_problems("ack", on_ack))


def test_what_sharing_needs_of_the_cluster_one_message_each() -> None:
    """ACK Pro for ACK's own modes, the plugin's MPS version for MPS: the same words as the
    components' (AckGpuSharing, NvidiaDevicePlugin) and the pack's (``gpu_facts``)."""
    raw = stack_raw("ack-dev")
    raw["cluster"]["clusterSpec"] = "ack.standard"
    raw["devicePlugin"]["version"] = "0.15.0"
    ack = PlatformSettings.model_validate(raw)
    mps_pool = ack.gpu_pools[0]
    assert mps_pool.sharing is not None and mps_pool.sharing.mode == "mps"
    # ACK's MPS is ACK's own (ackMps), not the device plugin's: no plugin version asked.
    assert list(cluster_sharing_problems(ack, mps_pool)) == [
        ("cluster.clusterSpec", needs_ack_pro(ACK_GPU_SCHEDULE_VALUES[ACK_MPS_MODE]))
    ]
    assert list(cluster_sharing_problems(ack, ack.gpu_pools[1])) == []  # not shared

    raw = stack_raw("dev")
    raw["devicePlugin"]["version"] = "0.15.0"
    raw["gpuPools"][1]["sharing"] = {"mode": "mps", "replicas": 2}
    aks = PlatformSettings.model_validate(raw)
    assert list(cluster_sharing_problems(aks, aks.gpu_pools[1])) == [
        ("devicePlugin.version", MPS_NEEDS_VERSION)
    ]
    # A mode the cloud does not offer is the pool's own problem (sharing_problems).
    raw["gpuPools"][1]["sharing"] = {"mode": "cgpu"}
    aks = PlatformSettings.model_validate(raw)
    assert list(cluster_sharing_problems(aks, aks.gpu_pools[1])) == []
