"""Stack config of CPU pools and node hardening: every rule with its key path and message, and
what a valid config means (``plan.aks.nodes``, ``plan.cpu_pools``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gpu_facts import AZURE_CPU_VM_SIZES, AZURE_VM_SIZES, azure_node_size
from gpu_facts.aks.nodes import EPHEMERAL_OS_DISK_MAX_GIB
from gpu_platform.plan.aks.nodes import aks_node, ephemeral_os_capacity_gib, os_disk_type
from gpu_platform.plan.cpu_pools import cpu_pool_problems
from gpu_platform.plan.problems import under
from gpu_platform.settings import CpuPoolSettings, SystemPoolSettings
from gpu_platform.stack_config import load_platform
from gpu_platform.stack_config.rules.cpu_pools import cpu_pools, system_pool
from tests.stack_config.rules.subjects import problems, raw, subject

Raw = dict[str, Any]
CPU: Raw = {"name": "general", "vmSize": "Standard_D4ds_v5", "autoscale": {"min": 1, "max": 3}}


def cpu(stack: str = "dev", **changes: Any) -> Callable[[Raw], object]:
    """Replace the stack's CPU pool by ``changes`` applied to its own (None drops a key)."""

    def mutate(r: Raw) -> None:
        pool = {**r["cpuPools"][0], **changes}
        r["cpuPools"] = [{k: v for k, v in pool.items() if v is not None}]

    return mutate


# --- CPU pools ------------------------------------------------------------------------------


@pytest.mark.parametrize("stack", ["dev", "prod", "ack-dev"])
def test_each_sample_stack_has_one_autoscaled_cpu_pool(stack: str) -> None:
    (pool,) = load_platform(raw(stack)).settings.cpu_pools
    assert pool.name == "general"
    assert pool.autoscale is not None and pool.autoscale.min >= 1
    assert (pool.vm_size or pool.instance_type) in ("Standard_D4ds_v5", "ecs.g7.xlarge")


@pytest.mark.parametrize(
    ("stack", "changes", "expected"),
    [
        (
            "dev",
            {"vmSize": "Standard_NC4as_T4_v3"},
            [
                (
                    "cpuPools[0].vmSize",
                    "Standard_NC4as_T4_v3 is a GPU (N-series) size; GPU nodes belong in a GPU pool",
                )
            ],
        ),
        (
            "dev",
            {"vmSize": "Standard_NV12ads_A10_v5"},  # not in the GPU catalog, still N-series
            [
                (
                    "cpuPools[0].vmSize",
                    "Standard_NV12ads_A10_v5 is a GPU (N-series) size; GPU nodes belong in "
                    "a GPU pool",
                )
            ],
        ),
        (
            "dev",
            {"vmSize": "D4ds_v5"},
            [("cpuPools[0].vmSize", "not an Azure VM size: 'D4ds_v5' (e.g. Standard_D4ds_v5)")],
        ),
        (
            "dev",
            {"vmSize": None},
            [
                (
                    "cpuPools[0].vmSize",
                    "required: an Azure VM size without GPUs, e.g. Standard_D4ds_v5",
                )
            ],
        ),
        (
            "dev",
            {"instanceType": "ecs.g7.xlarge"},
            [
                (
                    "cpuPools[0].instanceType",
                    "Alibaba instance types are for cloud 'ack'; use vmSize",
                )
            ],
        ),
        ("dev", {"count": 2}, [("cpuPools[0]", "give exactly one of count or autoscale")]),
        (
            "dev",
            {"autoscale": {"min": 4, "max": 3}},
            [("cpuPools[0].autoscale.min", "must not exceed autoscale.max")],
        ),
        (
            "dev",
            {"name": "system"},
            [("cpuPools[0].name", "'system' is the name of the cluster's system pool")],
        ),
        ("dev", {"name": "t4"}, [("cpuPools[0].name", "'t4' is also the name of a GPU pool")]),
        ("dev", {"name": "General-1"}, None),  # the AKS pool name pattern (schema)
        (
            "dev",
            {"zones": ["1", "4", "1"]},
            [
                ("cpuPools[0].zones[1]", "AKS zones are 1, 2, 3, not '4'"),
                ("cpuPools[0].zones[2]", "zone '1' is listed twice"),
            ],
        ),
        (
            "dev",
            {"labels": {"nvidia.com/gpu.present": "true", "kubernetes.azure.com/mode": "user"}},
            [
                (
                    "cpuPools[0].labels.nvidia.com/gpu.present",
                    "GPU components select nodes by it; not on a CPU pool",
                ),
                (
                    "cpuPools[0].labels.kubernetes.azure.com/mode",
                    "AKS reserves the kubernetes.azure.com label domain",
                ),
            ],
        ),
        (
            "dev",
            {"upgrade": {"maxSurge": "0"}},
            [
                (
                    "cpuPools[0].upgrade.maxSurge",
                    "a node count (e.g. 1) or a percentage (e.g. 10%)",
                )
            ],
        ),
        (
            "ack-dev",
            {"instanceType": "ecs.gn6i-c4g1.xlarge"},
            [
                (
                    "cpuPools[0].instanceType",
                    "ecs.gn6i-c4g1.xlarge is a GPU instance type; GPU nodes belong in a GPU pool",
                )
            ],
        ),
        (
            "ack-dev",
            {"instanceType": "ecs.ebmgn7e.32xlarge"},  # a GPU family the catalog lacks
            [
                (
                    "cpuPools[0].instanceType",
                    "ecs.ebmgn7e.32xlarge is a GPU instance type; GPU nodes belong in a GPU pool",
                )
            ],
        ),
        (
            "ack-dev",
            {"zones": ["cn-hangzhou-k"]},
            [
                (
                    "cpuPools[0].zones[0]",
                    "no node vSwitch in zone 'cn-hangzhou-k'; zones of cluster.vpc.vswitches: "
                    "cn-hangzhou-i, cn-hangzhou-j",
                )
            ],
        ),
        (
            "ack-dev",
            {"labels": {"ack.node.gpu.schedule": "mps"}},
            [
                (
                    "cpuPools[0].labels.ack.node.gpu.schedule",
                    "GPU components select nodes by it; not on a CPU pool",
                )
            ],
        ),
        (
            "ack-dev",
            {"maxPods": 50},
            [("cpuPools[0].maxPods", "AKS only (cloud 'aks'); on cloud 'ack' remove it")],
        ),
    ],
)
def test_cpu_pool_rules(stack: str, changes: Raw, expected: list[tuple[str, str]] | None) -> None:
    found = problems(stack, cpu(stack, **changes))
    if expected is None:
        assert [path for path, _ in found] == ["cpuPools[0].name"]
    else:
        assert found == expected


def test_ack_zones_pick_the_created_vswitches_only() -> None:
    load_platform(raw("ack-dev", cpu("ack-dev", zones=["cn-hangzhou-j"])))

    def existing(r: Raw) -> None:
        r["cluster"]["vpc"] = {
            "vpcId": "vpc-1",
            "vswitchIds": ["vsw-1"],
            "podVswitchIds": ["vsw-p"],
        }
        r["cpuPools"][0]["zones"] = ["cn-hangzhou-i"]

    (problem,) = problems("ack-dev", existing)
    assert problem[0] == "cpuPools[0].zones"
    assert "with existing vswitchIds, leave zones out" in problem[1]


def test_an_existing_cluster_takes_no_cpu_pools() -> None:
    assert problems("existing", lambda r: r.update(cpuPools=[CPU])) == [
        (
            "cpuPools",
            "CPU pools are created on AKS and ACK; an existing cluster's nodes are its own "
            "(remove cpuPools)",
        )
    ]


def test_duplicate_cpu_pool_names() -> None:
    assert problems("dev", lambda r: r["cpuPools"].append(dict(CPU))) == [
        ("cpuPools", "duplicate name 'general'")
    ]


def test_a_workload_cannot_list_a_cpu_pool() -> None:
    assert problems("dev", lambda r: r["workloads"][0].update(pools=["general"])) == [
        ("workloads[0].pools[0]", "'general' is a CPU pool; list GPU pools here")
    ]


def test_system_pool_must_have_no_gpus() -> None:
    assert problems(
        "dev", lambda r: r["cluster"]["systemPool"].update(vmSize="Standard_NC4as_T4_v3")
    ) == [
        (
            "cluster.systemPool.vmSize",
            "Standard_NC4as_T4_v3 is a GPU (N-series) size; GPU nodes belong in a GPU pool",
        )
    ]
    assert (
        problems(
            "ack-dev",
            lambda r: r["cluster"]["systemPool"].update(instanceType="ecs.gn7i-c8g1.2xlarge"),
        )[0][0]
        == "cluster.systemPool.instanceType"
    )


# --- node hardening ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (
            lambda r: r["cluster"]["systemPool"].update(maxPods=20),
            [("cluster.systemPool.maxPods", "AKS system pools must run at least 30 pods per node")],
        ),
        (
            lambda r: r["cluster"]["systemPool"].update(vmSize="Standard_D2ds_v5"),
            [
                (
                    "cluster.systemPool.osDiskType",
                    "Standard_D2ds_v5's cache or temp disk holds at most 75 GiB, not the 128 GiB "
                    "OS disk (osDiskSizeGb); use Managed, or an OS disk of at most 75 GiB",
                )
            ],
        ),
        (
            cpu(vmSize="Standard_D4s_v5"),
            [
                (
                    "cpuPools[0].osDiskType",
                    "Standard_D4s_v5 has no cache or temp disk to hold an ephemeral OS disk; use "
                    "Managed",
                )
            ],
        ),
        (
            lambda r: r["gpuPools"][1].update(osDiskSizeGb=200),
            [
                (
                    "gpuPools[1].osDiskType",
                    "Standard_NC4as_T4_v3's cache or temp disk holds at most 176 GiB, not the 200 "
                    "GiB OS disk (osDiskSizeGb); use Managed, or an OS disk of at most 176 GiB",
                )
            ],
        ),
        (
            cpu(maxPods=251),
            [("cpuPools[0].maxPods", "Input should be less than or equal to 250")],
        ),
        (
            lambda r: r["cluster"]["systemPool"].update(osDiskSizeGb=20),
            [("cluster.systemPool.osDiskSizeGb", "Input should be greater than or equal to 30")],
        ),
        (
            lambda r: r["cluster"]["systemPool"].update(osDiskType="Temp"),
            [("cluster.systemPool.osDiskType", "Input should be 'Ephemeral' or 'Managed'")],
        ),
    ],
)
def test_aks_node_hardening_rules(
    mutate: Callable[[Raw], object], expected: list[tuple[str, str]]
) -> None:
    assert problems("dev", mutate) == expected


def test_managed_os_disks_fit_any_size() -> None:
    def managed(r: Raw) -> None:
        r["cluster"]["systemPool"].update(vmSize="Standard_D2ds_v5", osDiskType="Managed")
        r["gpuPools"][1].update(osDiskType="Managed", osDiskSizeGb=1024)

    load_platform(raw("dev", managed))


def test_aks_node_settings_on_other_clouds_are_refused() -> None:
    def set_them(r: Raw) -> None:
        r["cluster"]["systemPool"]["osDiskType"] = "Managed"
        r["gpuPools"][0]["maxPods"] = 50
        r["gpuPools"][1]["osDiskSizeGb"] = 64

    # The GPU pools' model on ACK has no such keys (the schema says so), the system pool's
    # has (a rule says so).
    assert problems("ack-dev", set_them) == [
        ("gpuPools[0].maxPods", "AKS only (cloud 'aks'); on cloud 'ack' remove it"),
        ("gpuPools[1].osDiskSizeGb", "AKS only (cloud 'aks'); on cloud 'ack' remove it"),
        (
            "cluster.systemPool.osDiskType",
            "AKS only (cloud 'aks'); on cloud 'ack' remove it",
        ),
    ]
    assert problems("existing", lambda r: r["gpuPools"][0].update(maxPods=50)) == [
        ("gpuPools[0].maxPods", "AKS only (cloud 'aks'); on cloud 'existing' remove it")
    ]


def test_ack_kms_key_needs_encryption() -> None:
    def key(r: Raw) -> None:
        r["cluster"]["nodeSystemDisk"]["kmsKeyId"] = "key-1"

    assert problems("ack-dev", key) == [
        ("cluster.nodeSystemDisk.kmsKeyId", "a key encrypts only with encrypted: true")
    ]


def test_every_bad_key_is_named_at_once() -> None:
    def many(r: Raw) -> None:
        r["cluster"]["systemPool"]["maxPods"] = 10
        r["cpuPools"][0].update(vmSize="Standard_NC4as_T4_v3", zones=["9"])
        r["gpuPools"][1]["osDiskSizeGb"] = 500

    assert [path for path, _ in problems("dev", many)] == [
        "cluster.systemPool.maxPods",
        "gpuPools[1].osDiskType",
        "cpuPools[0].vmSize",
        "cpuPools[0].zones[0]",
    ]


def test_explicit_ephemeral_on_an_uncatalogued_size_is_warned_not_refused() -> None:
    platform = load_platform(raw("dev", cpu(vmSize="Standard_E8ds_v5")))
    assert platform.warnings == [
        "cpuPools[0].osDiskType: Ephemeral on Standard_E8ds_v5, whose cache and temp disks the "
        "catalog does not know; AKS refuses the pool if they cannot hold 128 GiB (add the size "
        "to policies/gpu_facts/aks/machine_types.py to have it checked)"
    ]


# --- what the settings mean ---------------------------------------------------------------


def test_os_disk_type_defaults_from_the_local_disks() -> None:
    assert os_disk_type("Standard_D4ds_v5", SystemPoolSettings()) == "Ephemeral"
    assert os_disk_type("Standard_D4s_v5", SystemPoolSettings()) == "Managed"
    assert os_disk_type("Standard_E8ds_v5", SystemPoolSettings()) == "Managed"  # unknown
    big = SystemPoolSettings(os_disk_size_gb=151)
    assert os_disk_type("Standard_D4ds_v5", big) == "Managed"
    pinned = CpuPoolSettings(name="p", count=1, os_disk_type="Managed")
    assert aks_node("Standard_D4ds_v5", pinned, encryption_at_host=True) == aks_node(
        "Standard_D4ds_v5", pinned, encryption_at_host=True
    )
    node = aks_node("Standard_D4ds_v5", pinned, encryption_at_host=True)
    assert (node.os_disk_type, node.max_pods, node.encryption_at_host) == ("Managed", 110, True)


def test_ephemeral_capacity_is_the_local_disk_at_most_2040_gib() -> None:
    assert ephemeral_os_capacity_gib("standard_d4ds_v5") == 150  # Azure ignores case
    assert ephemeral_os_capacity_gib("Standard_ND96asr_v4") == EPHEMERAL_OS_DISK_MAX_GIB
    assert ephemeral_os_capacity_gib("Standard_D4s_v5") == 0
    assert ephemeral_os_capacity_gib("Standard_E8ds_v5") is None


def test_every_catalogued_size_has_its_local_disks_from_a_source() -> None:
    for name, size in {**AZURE_VM_SIZES, **AZURE_CPU_VM_SIZES}.items():
        assert azure_node_size(name) is size
        assert size.source.startswith("https://learn.microsoft.com/"), name
        assert size.ephemeral_os_disk_gib == max(size.temp_disk_gib, size.cache_disk_gib)
    # Every GPU size lists a temp disk; Dsv5 has none, Ddsv5 37.5 GiB per vCPU.
    assert all(size.temp_disk_gib > 0 for size in AZURE_VM_SIZES.values())
    assert AZURE_CPU_VM_SIZES["Standard_D4s_v5"].temp_disk_gib == 0
    assert AZURE_CPU_VM_SIZES["Standard_D16ds_v5"].temp_disk_gib == 600
    assert not set(AZURE_CPU_VM_SIZES) & set(AZURE_VM_SIZES)


def test_the_nvme_cache_keeps_a_single_nvme_disk_from_the_os() -> None:
    """One NVMe disk (NCads H100 v5: it is the temp disk too): the OS disk is managed unless
    asked otherwise, and an explicit ephemeral one is refused; eight (ND H100 v5): ephemeral."""

    def nvme_pool(vm_size: str, **changes: Any) -> Callable[[Raw], object]:
        def mutate(r: Raw) -> None:
            r["gpuPools"].append(
                {"name": "nvme", "vmSize": vm_size, "count": 1, "nvme": True, **changes}
            )

        return mutate

    single = load_platform(raw("dev", nvme_pool("Standard_NC40ads_H100_v5")))
    pool = single.pools["nvme"].pool
    assert os_disk_type("Standard_NC40ads_H100_v5", pool, nvme_cache=True) == "Managed"
    assert os_disk_type("Standard_NC40ads_H100_v5", pool) == "Ephemeral"  # without the cache
    eight = load_platform(raw("dev", nvme_pool("Standard_ND96isr_H100_v5")))
    assert os_disk_type("Standard_ND96isr_H100_v5", eight.pools["nvme"].pool, nvme_cache=True) == (
        "Ephemeral"
    )
    assert problems("dev", nvme_pool("Standard_NC40ads_H100_v5", osDiskType="Ephemeral")) == [
        (
            "gpuPools[2].osDiskType",
            "Standard_NC40ads_H100_v5 has one NVMe disk and the pool's NVMe cache (nvme) needs "
            "it: an ephemeral OS disk may take it; use Managed",
        )
    ]


def test_the_cpu_pool_rule_is_plans_under_the_pools_place() -> None:
    """The CPU pool components ask plan.cpu_pools too: the same messages."""

    def bad(r: Raw) -> None:
        r["cpuPools"][0].update(vmSize="Standard_NC4as_T4_v3", labels={"nvidia.com/gpu": "x"})

    cfg = subject("dev", bad)
    found = list(cpu_pools(cfg))
    assert found == under("cpuPools[0]", cpu_pool_problems("aks", cfg.settings.cpu_pools[0]))
    assert list(system_pool(subject("dev"))) == []
