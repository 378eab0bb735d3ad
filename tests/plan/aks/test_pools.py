"""An AKS GPU pool's own rules and machine (plan.aks.pools), as plan.gpu_pools asks them."""

from __future__ import annotations

from gpu_facts.aks.mig import MIG_NOT_ON_AZURE_LINUX
from gpu_platform.plan.aks.pools import (
    MIG_SIZES,
    aks_amd_layer_problems,
    aks_amd_problems,
    aks_machine,
    aks_machine_problems,
    aks_mig,
    aks_mig_problems,
    aks_node_problems,
)
from gpu_platform.settings import AksGpuPoolSettings, AmdGpuOperatorSettings

A100 = {"name": "a", "count": 1, "vmSize": "Standard_ND96asr_v4"}


def pool(**fields: object) -> AksGpuPoolSettings:
    return AksGpuPoolSettings.model_validate({**A100, **fields})


def test_the_machine_is_the_vm_size_of_the_catalogue() -> None:
    machine = aks_machine(pool(vmSize="Standard_NC24ads_A100_v4", nvme=True))
    assert (machine.gpu_model.name, machine.gpus_per_node) == ("A100-80GB", 1)
    assert (machine.nvme_disk_count, machine.nvme_cache, machine.virtual_function_gpus) == (
        1,
        True,
        True,
    )
    [(path, _)] = aks_machine_problems(pool(vmSize="Standard_Nope"))
    assert path == "vmSize"


def test_mig_by_aks_names_on_a_size_aks_supports_it_on() -> None:
    mig = pool(mig={"profile": "MIG3g"})
    assert aks_mig(mig, aks_machine(mig).gpu_model) == "3g.20gb"
    assert list(aks_mig_problems(mig)) == []
    linux = pool(mig={"profile": "MIG3g"}, osSku="AzureLinux")
    assert list(aks_mig_problems(linux)) == [("osSku", MIG_NOT_ON_AZURE_LINUX)]
    t4 = pool(vmSize="Standard_NC4as_T4_v3", mig={"profile": "MIG1g"})
    [(path, message)] = aks_mig_problems(t4)
    assert path == "mig.profile" and message.endswith(MIG_SIZES)
    [(path, message)] = aks_mig_problems(pool(mig={"profile": "3g.20gb"}))
    assert path == "mig.profile" and "valid: MIG1g, MIG2g" in message


def test_nvme_where_the_size_has_disks_and_a_surge_aks_takes() -> None:
    assert list(aks_node_problems(pool(vmSize="Standard_NC24ads_A100_v4", nvme=True))) == []
    assert [p for p, _ in aks_node_problems(pool(nvme=True, upgrade={"maxSurge": "0"}))] == [
        "nvme",
        "upgrade.maxSurge",
    ]


def test_amd_pools_need_ubuntu_and_a_driver_from_the_operator() -> None:
    mi300x = pool(vmSize="Standard_ND96isr_MI300X_v5", osSku="AzureLinux")
    [(path, message)] = aks_amd_problems(mi300x)
    assert path == "osSku" and "AzureLinux and Windows are not yet supported" in message
    off = AmdGpuOperatorSettings.model_validate({"driver": {"enabled": False}})
    assert [p for p, _ in aks_amd_layer_problems(off)] == ["driver.enabled"]
