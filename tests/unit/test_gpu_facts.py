"""The GPU catalog pinned to its published sources, and the look-ups that refuse bad names.

The expected tables below are copied from the public sources named in the catalog modules
(NVIDIA MIG User Guide, Microsoft Learn GPU size pages, Alibaba ECS instance families), so a
change to a catalog number must be a deliberate change here too.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from gpu_facts import (
    ACCELERATED_AMI_TYPES,
    AKS_MIG_PROFILES,
    AKS_MIG_TO_NVIDIA,
    AWS_INSTANCE_TYPES,
    AZURE_CPU_VM_SIZES,
    AZURE_VM_SIZES,
    ECS_INSTANCE_TYPES,
    GCP_ACCELERATORS,
    GCP_GPU_MACHINE_TYPES,
    GPU_MODELS,
    MIG_COMPUTE_SLICES,
    MIG_MEMORY_SLICES,
    PoolShape,
    UnknownGpuFact,
    aks_mig_profile,
    aws_instance_type,
    azure_vm_size,
    cloud_limits,
    ecs_instance_type,
    gcp_accelerator,
    gpu_model,
    mig_profile,
    pool_capacity,
    regions,
)
from gpu_facts.eks.machine_types import AWS_SPECS_PAGE
from gpu_facts.scheduling import amd_partition_resource, is_gpu_resource, mig_resource
from gpu_facts.vendors import AMD, NVIDIA, VENDORS, resource_vendor
from gpu_platform.settings import SystemPoolSettings
from gpu_platform.stack_config import ConfigError, load_platform
from tests.stack_config.test_load import BASE

# --- MIG profile tables: (name, compute slices, GB as named, instances per GPU, eighths) ----

MIG_TABLES: dict[str, list[tuple[str, int, int, int, int]]] = {
    "A100-40GB": [
        ("1g.5gb", 1, 5, 7, 1),
        ("1g.5gb+me", 1, 5, 1, 1),
        ("1g.10gb", 1, 10, 4, 2),
        ("2g.10gb", 2, 10, 3, 2),
        ("3g.20gb", 3, 20, 2, 4),
        ("4g.20gb", 4, 20, 1, 4),
        ("7g.40gb", 7, 40, 1, 8),
    ],
    "A100-80GB": [
        ("1g.10gb", 1, 10, 7, 1),
        ("1g.10gb+me", 1, 10, 1, 1),
        ("1g.20gb", 1, 20, 4, 2),
        ("2g.20gb", 2, 20, 3, 2),
        ("3g.40gb", 3, 40, 2, 4),
        ("4g.40gb", 4, 40, 1, 4),
        ("7g.80gb", 7, 80, 1, 8),
    ],
    "H100-80GB": [
        ("1g.10gb", 1, 10, 7, 1),
        ("1g.10gb+me", 1, 10, 1, 1),
        ("1g.20gb", 1, 20, 4, 2),
        ("2g.20gb", 2, 20, 3, 2),
        ("3g.40gb", 3, 40, 2, 4),
        ("4g.40gb", 4, 40, 1, 4),
        ("7g.80gb", 7, 80, 1, 8),
    ],
    "H100-NVL-94GB": [
        ("1g.12gb", 1, 12, 7, 1),
        ("1g.12gb+me", 1, 12, 1, 1),
        ("1g.24gb", 1, 24, 4, 2),
        ("2g.24gb", 2, 24, 3, 2),
        ("3g.47gb", 3, 47, 2, 4),
        ("4g.47gb", 4, 47, 1, 4),
        ("7g.94gb", 7, 94, 1, 8),
    ],
    "H200-141GB": [
        ("1g.18gb", 1, 18, 7, 1),
        ("1g.18gb+me", 1, 18, 1, 1),
        ("1g.35gb", 1, 35, 4, 2),
        ("2g.35gb", 2, 35, 3, 2),
        ("3g.71gb", 3, 71, 2, 4),
        ("4g.71gb", 4, 71, 1, 4),
        ("7g.141gb", 7, 141, 1, 8),
    ],
}

GPU_MEMORY_GB = {
    "A100-40GB": 40,
    "A100-80GB": 80,
    "H100-80GB": 80,
    "H100-NVL-94GB": 94,
    "H200-141GB": 141,
    "V100-16GB": 16,
    "V100-32GB": 32,
    "T4": 16,
    "A10": 24,
    "L4": 24,
    "L20": 48,
    "L40S": 48,
    "A10G": 24,
    "P100": 16,
    "P4": 8,
    "MI300X": 192,
    "Radeon-Pro-V520": 8,
}

# Names round memory to whole GB (H200 3g.71gb holds 70.5 GB): at most half a GB per instance.
NAME_ROUNDING_GB = 0.5


def test_every_gpu_model_is_pinned() -> None:
    assert {name: m.memory_gib for name, m in GPU_MODELS.items()} == GPU_MEMORY_GB
    assert {n for n, m in GPU_MODELS.items() if m.mig_capable} == set(MIG_TABLES)
    for model in GPU_MODELS.values():
        assert model.source.startswith("https://"), model.name


@pytest.mark.parametrize("model_name", sorted(MIG_TABLES))
def test_mig_profile_table(model_name: str) -> None:
    model = GPU_MODELS[model_name]
    rows = [
        (p.name, p.compute_slices, p.memory_gb, p.max_per_gpu, p.memory_eighths)
        for p in model.mig_profiles
    ]
    assert rows == MIG_TABLES[model_name]


@pytest.mark.parametrize(
    ("model_name", "profile"),
    [(m, p) for m, table in sorted(MIG_TABLES.items()) for p, *_ in table],
)
def test_mig_profile_is_consistent(model_name: str, profile: str) -> None:
    model = GPU_MODELS[model_name]
    p = mig_profile(model, profile)
    g, gb = p.name.removesuffix("+me").split(".")
    assert (int(g.removesuffix("g")), int(gb.removesuffix("gb"))) == (
        p.compute_slices,
        p.memory_gb,
    )
    # A full GPU of this profile fits in the compute and memory slices, and never exceeds 7.
    assert p.max_per_gpu <= MIG_COMPUTE_SLICES
    assert p.max_per_gpu * p.compute_slices <= MIG_COMPUTE_SLICES
    assert p.max_per_gpu * p.memory_eighths <= MIG_MEMORY_SLICES
    # The named GB is the GPU's memory × the exact fraction, rounded by NVIDIA.
    exact_gb = model.memory_gib * p.memory_eighths / MIG_MEMORY_SLICES
    assert abs(p.memory_gb - exact_gb) <= NAME_ROUNDING_GB
    assert p.max_per_gpu * exact_gb <= model.memory_gib
    assert p.media_extensions == (p.max_per_gpu == 1 and p.compute_slices == 1)
    assert is_gpu_resource(mig_resource(p.name))


# --- AKS gpuInstanceProfile → NVIDIA profile ---------------------------------------------

AKS_MAPPING = {
    "A100-40GB": ("1g.5gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"),
    "A100-80GB": ("1g.10gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"),
    "H100-80GB": ("1g.10gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"),
    "H100-NVL-94GB": ("1g.12gb", "2g.24gb", "3g.47gb", "4g.47gb", "7g.94gb"),
    "H200-141GB": ("1g.18gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb"),
}


@pytest.mark.parametrize(
    ("model_name", "aks", "nvidia"),
    [
        (m, aks, nvidia)
        for m, names in sorted(AKS_MAPPING.items())
        for aks, nvidia in zip(AKS_MIG_PROFILES, names, strict=True)
    ],
)
def test_aks_profile_maps_to_the_default_nvidia_profile(
    model_name: str, aks: str, nvidia: str
) -> None:
    model = GPU_MODELS[model_name]
    assert aks_mig_profile(model, aks) == nvidia
    # AKS offers, per compute size, the profile with the most instances per GPU.
    g = int(aks.removeprefix("MIG").removesuffix("g"))
    same_size = [p for p in model.mig_profiles if p.compute_slices == g]
    best = max(same_size, key=lambda p: p.max_per_gpu)
    assert mig_profile(model, nvidia) == best


def test_aks_mapping_covers_exactly_the_mig_models() -> None:
    assert set(AKS_MIG_TO_NVIDIA) == set(MIG_TABLES)
    assert AKS_MIG_PROFILES == ("MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g")
    for table in AKS_MIG_TO_NVIDIA.values():
        assert tuple(table) == AKS_MIG_PROFILES


@pytest.mark.parametrize(
    ("model_name", "aks", "fragment"),
    [
        ("T4", "MIG1g", "T4 GPUs do not support MIG"),
        ("A100-40GB", "MIG5g", "valid: MIG1g, MIG2g, MIG3g, MIG4g, MIG7g"),
    ],
)
def test_aks_profile_refusals(model_name: str, aks: str, fragment: str) -> None:
    with pytest.raises(UnknownGpuFact, match=fragment):
        aks_mig_profile(GPU_MODELS[model_name], aks)


def test_gpu_facts_that_azure_cannot_express_stay_facts() -> None:
    # 1g.10gb on an A100 40GB and the +me profiles exist, but no AKS profile selects them.
    a100 = GPU_MODELS["A100-40GB"]
    assert mig_profile(a100, "1g.10gb").max_per_gpu == 4
    offered_by_aks = {n for table in AKS_MIG_TO_NVIDIA.values() for n in table.values()}
    assert "1g.10gb" not in set(AKS_MIG_TO_NVIDIA["A100-40GB"].values())
    assert not any(name.endswith("+me") for name in offered_by_aks)


# --- Azure VM sizes: (family, model, GPUs, NVMe disks, GiB per NVMe disk, MIG on AKS) --------

AZURE_SIZES: dict[str, tuple[str, str, int, int, int, bool]] = {
    "Standard_ND96asr_v4": ("ND A100 v4", "A100-40GB", 8, 0, 0, True),
    "Standard_ND96amsr_A100_v4": ("NDm A100 v4", "A100-80GB", 8, 0, 0, True),
    "Standard_NC24ads_A100_v4": ("NC A100 v4", "A100-80GB", 1, 1, 960, True),
    "Standard_NC48ads_A100_v4": ("NC A100 v4", "A100-80GB", 2, 2, 960, True),
    "Standard_NC96ads_A100_v4": ("NC A100 v4", "A100-80GB", 4, 4, 960, True),
    "Standard_NC40ads_H100_v5": ("NCads H100 v5", "H100-NVL-94GB", 1, 1, 3576, True),
    "Standard_NC80adis_H100_v5": ("NCads H100 v5", "H100-NVL-94GB", 2, 1, 7152, True),
    "Standard_ND96isr_H100_v5": ("ND H100 v5", "H100-80GB", 8, 8, 3584, True),
    "Standard_ND96isr_H200_v5": ("ND H200 v5", "H200-141GB", 8, 8, 3584, True),
    "Standard_NC4as_T4_v3": ("NCasT4_v3", "T4", 1, 0, 0, False),
    "Standard_NC8as_T4_v3": ("NCasT4_v3", "T4", 1, 0, 0, False),
    "Standard_NC16as_T4_v3": ("NCasT4_v3", "T4", 1, 0, 0, False),
    "Standard_NC64as_T4_v3": ("NCasT4_v3", "T4", 4, 0, 0, False),
    "Standard_NC6s_v3": ("NCv3", "V100-16GB", 1, 0, 0, False),
    "Standard_NC12s_v3": ("NCv3", "V100-16GB", 2, 0, 0, False),
    "Standard_NC24s_v3": ("NCv3", "V100-16GB", 4, 0, 0, False),
    "Standard_NC24rs_v3": ("NCv3", "V100-16GB", 4, 0, 0, False),
    "Standard_ND40rs_v2": ("NDv2", "V100-32GB", 8, 0, 0, False),
    "Standard_NV36ads_A10_v5": ("NVadsA10 v5", "A10", 1, 0, 0, False),
    "Standard_NV36adms_A10_v5": ("NVadsA10 v5", "A10", 1, 0, 0, False),
    "Standard_NV72ads_A10_v5": ("NVadsA10 v5", "A10", 2, 0, 0, False),
    # ND MI300X v5: 8 NVMe disks, 28,000 GiB in all.
    "Standard_ND96isr_MI300X_v5": ("ND MI300X v5", "MI300X", 8, 8, 3500, False),
}

# Accelerator memory per VM as the Learn "Accelerators" tab lists it (GB).
AZURE_GPU_MEMORY_PER_VM = {
    "Standard_ND96asr_v4": 320,
    "Standard_NC96ads_A100_v4": 320,
    "Standard_NC80adis_H100_v5": 188,
    "Standard_ND96isr_H100_v5": 640,
    "Standard_ND96isr_H200_v5": 1128,
    "Standard_NC64as_T4_v3": 64,
    "Standard_NC24s_v3": 64,
    "Standard_ND40rs_v2": 256,
    "Standard_NV72ads_A10_v5": 48,
    # "Accelerator-Memory (GB): 1535": 8 x 192 GB as marketed (Learn rounds).
    "Standard_ND96isr_MI300X_v5": 1536,
}


def test_every_azure_size_is_pinned() -> None:
    listed = {
        name: (s.family, s.gpu_model, s.gpu_count, s.nvme_disk_count, s.nvme_disk_gib, s.mig)
        for name, s in AZURE_VM_SIZES.items()
    }
    assert listed == AZURE_SIZES


@pytest.mark.parametrize("name", sorted(AZURE_SIZES))
def test_azure_size_is_consistent(name: str) -> None:
    size = azure_vm_size(name)
    assert size.name == name
    model = gpu_model(size.gpu_model)
    assert size.mig == model.mig_capable
    assert size.has_nvme == (size.nvme_disk_count > 0 and size.nvme_disk_gib > 0)
    assert size.source.startswith(
        "https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/"
    )
    if name in AZURE_GPU_MEMORY_PER_VM:
        assert size.gpu_count * model.memory_gib == AZURE_GPU_MEMORY_PER_VM[name]


# Temp (resource) disk per size, GiB, as each Learn series page's Local Storage tab lists it.
AZURE_TEMP_DISK_GIB = {
    "Standard_ND96asr_v4": 6000,
    "Standard_ND96amsr_A100_v4": 6400,
    "Standard_NC24ads_A100_v4": 64,
    "Standard_NC48ads_A100_v4": 128,
    "Standard_NC96ads_A100_v4": 256,
    "Standard_NC40ads_H100_v5": 3576,
    "Standard_NC80adis_H100_v5": 7152,
    "Standard_ND96isr_H100_v5": 1024,
    "Standard_ND96isr_H200_v5": 1024,
    "Standard_NC4as_T4_v3": 176,
    "Standard_NC8as_T4_v3": 352,
    "Standard_NC16as_T4_v3": 352,
    "Standard_NC64as_T4_v3": 2816,
    "Standard_NC6s_v3": 736,
    "Standard_NC12s_v3": 1474,
    "Standard_NC24s_v3": 2948,
    "Standard_NC24rs_v3": 2948,
    "Standard_ND40rs_v2": 2948,
    "Standard_NV36ads_A10_v5": 1440,
    "Standard_NV36adms_A10_v5": 2880,
    "Standard_NV72ads_A10_v5": 2880,
    "Standard_ND96isr_MI300X_v5": 1000,
}


def test_every_azure_size_has_its_temp_disk_and_no_cache() -> None:
    assert {n: s.temp_disk_gib for n, s in AZURE_VM_SIZES.items()} == AZURE_TEMP_DISK_GIB
    assert all(s.cache_disk_gib == 0 for s in AZURE_VM_SIZES.values())


def test_cpu_sizes_ddsv5_temp_disks_and_dsv5_none() -> None:
    ddsv5 = {n: s.temp_disk_gib for n, s in AZURE_CPU_VM_SIZES.items() if s.family == "Ddsv5"}
    assert ddsv5 == {
        "Standard_D2ds_v5": 75,
        "Standard_D4ds_v5": 150,
        "Standard_D8ds_v5": 300,
        "Standard_D16ds_v5": 600,
        "Standard_D32ds_v5": 1200,
        "Standard_D48ds_v5": 1800,
        "Standard_D64ds_v5": 2400,
        "Standard_D96ds_v5": 3600,
    }
    dsv5 = [s for s in AZURE_CPU_VM_SIZES.values() if s.family == "Dsv5"]
    assert len(dsv5) == 8 and all(s.ephemeral_os_disk_gib == 0 for s in dsv5)
    assert AZURE_CPU_VM_SIZES["Standard_D4ds_v5"].memory_gib == 16


def test_local_nvme_facts() -> None:
    # Easy to get wrong: only where Learn lists NVMe. ND H100/H200 v5: 8 disks, 28 TiB.
    nvme = {n for n, s in AZURE_VM_SIZES.items() if s.has_nvme}
    assert {"Standard_NC24ads_A100_v4", "Standard_ND96isr_H100_v5"} <= nvme
    assert "Standard_ND96asr_v4" not in nvme
    for name in ("Standard_ND96isr_H100_v5", "Standard_ND96isr_H200_v5"):
        size = AZURE_VM_SIZES[name]
        assert size.nvme_disk_count * size.nvme_disk_gib == 28 * 1024


def test_azure_sizes_are_case_insensitive_and_unknown_ones_list_the_choices() -> None:
    assert azure_vm_size("standard_nd96asr_V4").name == "Standard_ND96asr_v4"
    with pytest.raises(UnknownGpuFact) as err:
        azure_vm_size("Standard_D4s_v5")
    message = str(err.value)
    assert "unknown GPU VM size 'Standard_D4s_v5'" in message
    assert all(name in message for name in AZURE_SIZES)


# --- Alibaba ECS instance types: (family, model, GPUs, GB per GPU) ---------------------------

ECS_TYPES: dict[str, tuple[str, str, int, int]] = {
    "ecs.gn8is.2xlarge": ("gn8is", "L20", 1, 48),
    "ecs.gn8is.4xlarge": ("gn8is", "L20", 1, 48),
    "ecs.gn8is-2x.8xlarge": ("gn8is", "L20", 2, 48),
    "ecs.gn8is-4x.16xlarge": ("gn8is", "L20", 4, 48),
    "ecs.gn8is-8x.32xlarge": ("gn8is", "L20", 8, 48),
    "ecs.gn7e-c16g1.4xlarge": ("gn7e", "A100-80GB", 1, 80),
    "ecs.gn7e-c16g1.8xlarge": ("gn7e", "A100-80GB", 2, 80),
    "ecs.gn7e-c16g1.16xlarge": ("gn7e", "A100-80GB", 4, 80),
    "ecs.gn7e-c16g1.32xlarge": ("gn7e", "A100-80GB", 8, 80),
    "ecs.gn7i-c8g1.2xlarge": ("gn7i", "A10", 1, 24),
    "ecs.gn7i-c16g1.4xlarge": ("gn7i", "A10", 1, 24),
    "ecs.gn7i-c32g1.8xlarge": ("gn7i", "A10", 1, 24),
    "ecs.gn7i-c32g1.16xlarge": ("gn7i", "A10", 2, 24),
    "ecs.gn7i-c32g1.32xlarge": ("gn7i", "A10", 4, 24),
    "ecs.gn7i-c48g1.12xlarge": ("gn7i", "A10", 1, 24),
    "ecs.gn7i-c56g1.14xlarge": ("gn7i", "A10", 1, 24),
    "ecs.gn7i-2x.8xlarge": ("gn7i", "A10", 2, 24),
    "ecs.gn7i-4x.8xlarge": ("gn7i", "A10", 4, 24),
    "ecs.gn7i-4x.16xlarge": ("gn7i", "A10", 4, 24),
    "ecs.gn7i-8x.32xlarge": ("gn7i", "A10", 8, 24),
    "ecs.gn7i-8x.16xlarge": ("gn7i", "A10", 8, 24),
    "ecs.gn7-c12g1.3xlarge": ("gn7", "A100-40GB", 1, 40),
    "ecs.gn7-c13g1.13xlarge": ("gn7", "A100-40GB", 4, 40),
    "ecs.gn7-c13g1.26xlarge": ("gn7", "A100-40GB", 8, 40),
    "ecs.gn6i-c4g1.xlarge": ("gn6i", "T4", 1, 16),
    "ecs.gn6i-c8g1.2xlarge": ("gn6i", "T4", 1, 16),
    "ecs.gn6i-c16g1.4xlarge": ("gn6i", "T4", 1, 16),
    "ecs.gn6i-c24g1.6xlarge": ("gn6i", "T4", 1, 16),
    "ecs.gn6i-c40g1.10xlarge": ("gn6i", "T4", 1, 16),
    "ecs.gn6i-c24g1.12xlarge": ("gn6i", "T4", 2, 16),
    "ecs.gn6i-c24g1.24xlarge": ("gn6i", "T4", 4, 16),
    "ecs.gn6e-c12g1.3xlarge": ("gn6e", "V100-32GB", 1, 32),
    "ecs.gn6e-c12g1.6xlarge": ("gn6e", "V100-32GB", 2, 32),
    "ecs.gn6e-c12g1.12xlarge": ("gn6e", "V100-32GB", 4, 32),
    "ecs.gn6e-c12g1.24xlarge": ("gn6e", "V100-32GB", 8, 32),
    "ecs.gn6v-c8g1.2xlarge": ("gn6v", "V100-16GB", 1, 16),
    "ecs.gn6v-c8g1.4xlarge": ("gn6v", "V100-16GB", 2, 16),
    "ecs.gn6v-c8g1.8xlarge": ("gn6v", "V100-16GB", 4, 16),
    "ecs.gn6v-c8g1.16xlarge": ("gn6v", "V100-16GB", 8, 16),
    "ecs.gn6v-c10g1.20xlarge": ("gn6v", "V100-16GB", 8, 16),
}


def test_every_ecs_type_is_pinned() -> None:
    listed = {
        name: (t.family, t.gpu_model, t.gpu_count, t.gpu_memory_gb)
        for name, t in ECS_INSTANCE_TYPES.items()
    }
    assert listed == ECS_TYPES


@pytest.mark.parametrize("name", sorted(ECS_TYPES))
def test_ecs_type_is_consistent(name: str) -> None:
    it = ecs_instance_type(name)
    assert it.name.startswith(f"ecs.{it.family}-") or it.name.startswith(f"ecs.{it.family}.")
    # The memory Alibaba lists per type is the memory of the catalog's GPU model.
    assert gpu_model(it.gpu_model).memory_gib == it.gpu_memory_gb
    assert it.source.startswith("https://www.alibabacloud.com/help/en/ecs/")


def test_unknown_ecs_type_and_gpu_model_list_the_choices() -> None:
    with pytest.raises(UnknownGpuFact) as err:
        ecs_instance_type("ecs.g7.xlarge")
    assert all(name in str(err.value) for name in ECS_TYPES)
    with pytest.raises(UnknownGpuFact, match="known models: A10, A100-40GB"):
        gpu_model("B200")


def test_mig_profile_lookup_refusals() -> None:
    with pytest.raises(UnknownGpuFact, match=r"offered: 1g\.5gb, 1g\.5gb\+me, 1g\.10gb"):
        mig_profile(GPU_MODELS["A100-40GB"], "1g.12gb")
    with pytest.raises(UnknownGpuFact, match="L4 GPUs do not support MIG"):
        mig_profile(GPU_MODELS["L4"], "1g.5gb")


# --- Config validation refuses what the catalog does not know, listing the choices ----------

ACK_BASE: dict[str, Any] = {
    "cloud": "alicloud",
    "cluster": {
        "name": "ack",
        "region": "cn-hangzhou",
        "vpc": {"vpcId": "vpc-1", "vswitchIds": ["vsw-node"], "podVswitchIds": ["vsw-pod"]},
        "autoUpgradeChannel": "none",
    },
    "gpuPools": [{"name": "a10", "instanceType": "ecs.gn7i-c8g1.2xlarge", "count": 1}],
}


def _problems(raw: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(ConfigError) as err:
        load_platform(copy.deepcopy(raw))
    return dict(err.value.problems)


def test_ack_base_config_resolves_its_instance_type() -> None:
    platform = load_platform(copy.deepcopy(ACK_BASE))
    facts = platform.pools["a10"]
    assert (facts.gpu_model.name, facts.gpus_per_node) == ("A10", 1)


def test_config_refuses_an_unknown_instance_type_with_the_choices() -> None:
    raw = copy.deepcopy(ACK_BASE)
    raw["gpuPools"][0]["instanceType"] = "ecs.gn7i-c8g1.3xlarge"
    message = _problems(raw)["gpuPools[0].instanceType"]
    assert "unknown GPU instance type 'ecs.gn7i-c8g1.3xlarge'" in message
    assert all(name in message for name in ECS_TYPES)


def test_config_refuses_an_unknown_vm_size_with_the_choices() -> None:
    raw = copy.deepcopy(BASE)
    raw["gpuPools"][1]["vmSize"] = "Standard_NC4as_T4_v9"
    message = _problems(raw)["gpuPools[1].vmSize"]
    assert "unknown GPU VM size 'Standard_NC4as_T4_v9'" in message
    assert all(name in message for name in AZURE_SIZES)


def test_config_refuses_mig_on_a_gpu_without_it_with_the_mig_sizes() -> None:
    raw = copy.deepcopy(BASE)
    raw["gpuPools"][1]["mig"] = {"profile": "MIG1g"}
    message = _problems(raw)["gpuPools[1].mig.profile"]
    assert "Standard_NC4as_T4_v3 (T4) does not support MIG" in message
    mig_sizes = [n for n, row in AZURE_SIZES.items() if row[5]]
    assert all(name in message for name in mig_sizes)


def test_config_refuses_a_profile_aks_does_not_offer_with_the_choices() -> None:
    raw = copy.deepcopy(BASE)
    raw["gpuPools"][0]["mig"] = {"profile": "MIG5g"}
    message = _problems(raw)["gpuPools[0].mig.profile"]
    assert all(profile in message for profile in AKS_MIG_PROFILES)


def test_docs_list_every_catalog_entry() -> None:
    # docs/gpu-facts.md carries the tables for readers; keep them in step with the catalog.
    docs = (Path(__file__).resolve().parents[2] / "docs" / "gpu-facts.md").read_text()
    for name in [*AZURE_SIZES, *ECS_TYPES, *GPU_MEMORY_GB]:
        assert f"`{name}`" in docs or f"| {name} |" in docs, name
    for model_name, table in MIG_TABLES.items():
        assert f"**{model_name}**" in docs
        for profile, *_ in table:
            assert f"`{profile}`" in docs


# --- AWS and Google Cloud (EKS node groups, GKE node pools) -----------------------------------

# Checked size by size against EC2's DescribeInstanceTypes answer as Karpenter's generated
# reference prints it (instance-gpu-name / instance-gpu-count), see eks/machine_types.py.
AWS_TYPES: dict[str, tuple[str, str, int]] = {
    "p5.48xlarge": ("p5", "H100-80GB", 8),
    "p5e.48xlarge": ("p5e", "H200-141GB", 8),
    "p5en.48xlarge": ("p5en", "H200-141GB", 8),
    "p4d.24xlarge": ("p4d", "A100-40GB", 8),
    "p4de.24xlarge": ("p4de", "A100-80GB", 8),
    "p3.2xlarge": ("p3", "V100-16GB", 1),
    "p3.8xlarge": ("p3", "V100-16GB", 4),
    "p3.16xlarge": ("p3", "V100-16GB", 8),
    "p3dn.24xlarge": ("p3dn", "V100-32GB", 8),
    "g5.xlarge": ("g5", "A10G", 1),
    "g5.2xlarge": ("g5", "A10G", 1),
    "g5.4xlarge": ("g5", "A10G", 1),
    "g5.8xlarge": ("g5", "A10G", 1),
    "g5.16xlarge": ("g5", "A10G", 1),
    "g5.12xlarge": ("g5", "A10G", 4),
    "g5.24xlarge": ("g5", "A10G", 4),
    "g5.48xlarge": ("g5", "A10G", 8),
    "g6.xlarge": ("g6", "L4", 1),
    "g6.2xlarge": ("g6", "L4", 1),
    "g6.4xlarge": ("g6", "L4", 1),
    "g6.8xlarge": ("g6", "L4", 1),
    "g6.16xlarge": ("g6", "L4", 1),
    "g6.12xlarge": ("g6", "L4", 4),
    "g6.24xlarge": ("g6", "L4", 4),
    "g6.48xlarge": ("g6", "L4", 8),
    "g6e.xlarge": ("g6e", "L40S", 1),
    "g6e.2xlarge": ("g6e", "L40S", 1),
    "g6e.4xlarge": ("g6e", "L40S", 1),
    "g6e.8xlarge": ("g6e", "L40S", 1),
    "g6e.16xlarge": ("g6e", "L40S", 1),
    "g6e.12xlarge": ("g6e", "L40S", 4),
    "g6e.24xlarge": ("g6e", "L40S", 4),
    "g6e.48xlarge": ("g6e", "L40S", 8),
    "g4dn.xlarge": ("g4dn", "T4", 1),
    "g4dn.2xlarge": ("g4dn", "T4", 1),
    "g4dn.4xlarge": ("g4dn", "T4", 1),
    "g4dn.8xlarge": ("g4dn", "T4", 1),
    "g4dn.16xlarge": ("g4dn", "T4", 1),
    "g4dn.12xlarge": ("g4dn", "T4", 4),
    "g4dn.metal": ("g4dn", "T4", 8),
    "g4ad.xlarge": ("g4ad", "Radeon-Pro-V520", 1),
    "g4ad.2xlarge": ("g4ad", "Radeon-Pro-V520", 1),
    "g4ad.4xlarge": ("g4ad", "Radeon-Pro-V520", 1),
    "g4ad.8xlarge": ("g4ad", "Radeon-Pro-V520", 2),
    "g4ad.16xlarge": ("g4ad", "Radeon-Pro-V520", 4),
}

# Accelerator names: GKE "Deploy GPU workloads in Autopilot" (nvidia-tesla-t4 ... nvidia-h200-141gb)
# and Compute Engine "GPU machine types" (N1: nvidia-tesla-v100/-p100/-p4). Machine types and
# their GPUs: Google's Cluster Toolkit machine-type map (modules/internal/gpu-definition), and
# for a3-edgegpu-8g GKE's ComputeClass example (8 x nvidia-h100-80gb).
GCP_GPUS: dict[str, tuple[str, int]] = {
    "nvidia-tesla-t4": ("T4", 1),
    "nvidia-l4": ("L4", 1),
    "nvidia-tesla-a100": ("A100-40GB", 1),
    "nvidia-a100-80gb": ("A100-80GB", 1),
    "nvidia-h100-80gb": ("H100-80GB", 1),
    "nvidia-h100-mega-80gb": ("H100-80GB", 1),
    "nvidia-h200-141gb": ("H200-141GB", 1),
    "nvidia-tesla-v100": ("V100-16GB", 1),
    "nvidia-tesla-p100": ("P100", 1),
    "nvidia-tesla-p4": ("P4", 1),
    "a2-highgpu-1g": ("A100-40GB", 1),
    "a2-highgpu-2g": ("A100-40GB", 2),
    "a2-highgpu-4g": ("A100-40GB", 4),
    "a2-highgpu-8g": ("A100-40GB", 8),
    "a2-megagpu-16g": ("A100-40GB", 16),
    "a2-ultragpu-1g": ("A100-80GB", 1),
    "a2-ultragpu-2g": ("A100-80GB", 2),
    "a2-ultragpu-4g": ("A100-80GB", 4),
    "a2-ultragpu-8g": ("A100-80GB", 8),
    "a3-highgpu-1g": ("H100-80GB", 1),
    "a3-highgpu-2g": ("H100-80GB", 2),
    "a3-highgpu-4g": ("H100-80GB", 4),
    "a3-highgpu-8g": ("H100-80GB", 8),
    "a3-megagpu-8g": ("H100-80GB", 8),
    "a3-edgegpu-8g": ("H100-80GB", 8),
    "a3-ultragpu-8g": ("H200-141GB", 8),
    "g2-standard-4": ("L4", 1),
    "g2-standard-8": ("L4", 1),
    "g2-standard-12": ("L4", 1),
    "g2-standard-16": ("L4", 1),
    "g2-standard-32": ("L4", 1),
    "g2-standard-24": ("L4", 2),
    "g2-standard-48": ("L4", 4),
    "g2-standard-96": ("L4", 8),
}


def test_every_aws_type_is_pinned() -> None:
    listed = {n: (t.family, t.gpu_model, t.gpu_count) for n, t in AWS_INSTANCE_TYPES.items()}
    assert listed == AWS_TYPES
    for it in AWS_INSTANCE_TYPES.values():
        assert it.name.startswith(f"{it.family}.")
        assert gpu_model(it.gpu_model)  # a model the catalog knows
        # Each family cites the section of the page that prints EC2's GPU name and count for
        # every size of that family (Karpenter's generated instance-type reference); G4ad, AMD's,
        # AWS's own specifications page.
        karpenter = f"https://karpenter.sh/docs/reference/instance-types/#{it.family}-family"
        assert it.source == (AWS_SPECS_PAGE if it.family == "g4ad" else karpenter)


def test_every_gcp_gpu_is_pinned() -> None:
    listed = {
        n: (a.gpu_model, a.gpu_count)
        for n, a in [*GCP_ACCELERATORS.items(), *GCP_GPU_MACHINE_TYPES.items()]
    }
    assert listed == GCP_GPUS
    for gpu in [*GCP_ACCELERATORS.values(), *GCP_GPU_MACHINE_TYPES.values()]:
        assert gpu_model(gpu.gpu_model)
        assert gpu.source.startswith("https://cloud.google.com/compute/docs/")


def test_accelerated_ami_types_are_the_nvidia_ones() -> None:
    assert {
        "AL2_x86_64_GPU",
        "AL2023_x86_64_NVIDIA",
        "AL2023_ARM_64_NVIDIA",
        "BOTTLEROCKET_x86_64_NVIDIA",
        "BOTTLEROCKET_ARM_64_NVIDIA",
        "BOTTLEROCKET_x86_64_NVIDIA_FIPS",
        "BOTTLEROCKET_ARM_64_NVIDIA_FIPS",
    } == ACCELERATED_AMI_TYPES


def test_unknown_aws_and_gcp_names_list_the_choices() -> None:
    with pytest.raises(UnknownGpuFact, match=r"g5\.xlarge"):
        aws_instance_type("m5.xlarge")
    with pytest.raises(UnknownGpuFact, match="nvidia-l4"):
        gcp_accelerator("nvidia-rtx-9000")
    assert gcp_accelerator("a3-highgpu-8g").gpu_count == 8


def test_docs_list_every_aws_and_gcp_entry() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "gpu-facts.md").read_text()
    for name in [*AWS_TYPES, *GCP_GPUS, *ACCELERATED_AMI_TYPES]:
        assert f"`{name}`" in docs, name


# --- cloud limits and regions (gpu_facts.cloud_limits, gpu_facts.regions) -----------------

CLOUD_LIMITS: dict[str, tuple[int, str, bool]] = {
    # name: (value, source, raisable) as the quoted source states it
    "AKS_MAX_NODES_PER_POOL": (1000, cloud_limits.AKS_QUOTAS, False),
    "AKS_MAX_NODES_PER_CLUSTER": (5000, cloud_limits.AKS_QUOTAS, False),
    "AKS_DEFAULT_NODES_PER_CLUSTER": (1000, cloud_limits.AKS_QUOTAS, True),
    "AKS_MAX_NODE_POOLS_PER_CLUSTER": (100, cloud_limits.AKS_QUOTAS, False),
    "AKS_FREE_TIER_RECOMMENDED_NODES": (10, cloud_limits.AKS_QUOTAS, True),
    "AKS_MIN_SYSTEM_POOL_NODES": (1, cloud_limits.AKS_SYSTEM_POOLS, False),
    "ACK_MAX_AUTOSCALE_SIZE": (1000, cloud_limits.ACK_NODE_POOL_SCALING, False),
    "ACK_PRO_DEFAULT_NODES_PER_CLUSTER": (5000, cloud_limits.ACK_CLUSTER_TYPES, True),
    "ACK_BASIC_MAX_NODES_PER_CLUSTER": (10, cloud_limits.ACK_CLUSTER_TYPES, False),
}


def test_cloud_limits_are_pinned_to_their_sources() -> None:
    found = {
        name: (limit.value, limit.source, limit.raisable)
        for name, limit in vars(cloud_limits).items()
        if isinstance(limit, cloud_limits.Limit)
    }
    assert found == CLOUD_LIMITS
    assert all(source.startswith("https://") for _, source, _ in found.values())


def test_aks_system_pool_minimum_is_the_schema_minimum() -> None:
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        SystemPoolSettings(count=cloud_limits.AKS_MIN_SYSTEM_POOL_NODES.value - 1)


def test_region_names_are_in_the_api_form() -> None:
    assert len(regions.AZURE_REGIONS) == 69
    assert len(regions.ALIBABA_REGIONS) == 33
    assert all(re.fullmatch(r"[a-z]+[0-9]?", name) for name in regions.AZURE_REGIONS)
    assert all(re.fullmatch(r"[a-z]{2}-[a-z]+(-[a-z0-9]+)*", r) for r in regions.ALIBABA_REGIONS)
    assert {"westeurope", "eastus2", "swedencentral"} <= regions.AZURE_REGIONS
    assert {"cn-hangzhou", "ap-southeast-1", "eu-central-1"} <= regions.ALIBABA_REGIONS
    assert regions.azure_region_key("West Europe") == "westeurope"


def test_no_regional_offer_without_a_complete_list_from_a_source() -> None:
    # No public source states a size's complete list of regions (regions.py says what was
    # searched); a partial list must not be recorded, since a region it leaves out is warned.
    assert dict(regions.AZURE_VM_SIZE_REGIONS) == {}
    assert dict(regions.ECS_INSTANCE_TYPE_REGIONS) == {}


def test_offer_tables_name_catalog_machines_and_listed_regions() -> None:
    # The check every entry must pass (empty today): names the lookups can match, regions in
    # the API form, a source.
    azure = (AZURE_VM_SIZES, regions.AZURE_REGIONS)
    alibaba = (ECS_INSTANCE_TYPES, regions.ALIBABA_REGIONS)
    assert regions.offer_problems(regions.AZURE_VM_SIZE_REGIONS, *azure) == []
    assert regions.offer_problems(regions.ECS_INSTANCE_TYPE_REGIONS, *alibaba) == []
    offer = regions.RegionalOffer
    source = "https://learn.microsoft.com/x (retrieved 2025-01-01)"
    assert regions.offer_problems(
        {
            "Standard_NC4as_T4_v3": offer(frozenset({"westeurope", "eastus"}), source),
            "standard_nc4as_t4_v3": offer(frozenset({"westeurope"}), source),
            "Standard_ND96asr_v4": offer(frozenset({"West Europe", "mars-central"}), source),
            "Standard_NC24ads_A100_v4": offer(frozenset(), "Microsoft Learn"),
        },
        *azure,
    ) == [
        "standard_nc4as_t4_v3: not a catalog machine",
        "Standard_ND96asr_v4: unknown region 'West Europe'",
        "Standard_ND96asr_v4: unknown region 'mars-central'",
        "Standard_NC24ads_A100_v4: no region",
        "Standard_NC24ads_A100_v4: source 'Microsoft Learn' is not an https URL",
    ]
    ecs = {"ecs.gn7i-c8g1.2xlarge": offer(frozenset({"cn-hangzhou", "eastus"}), source)}
    assert regions.offer_problems(ecs, *alibaba) == [
        "ecs.gn7i-c8g1.2xlarge: unknown region 'eastus'"
    ]


# --- Vendors: what tells an AMD GPU from an NVIDIA one -------------------------------------


def test_every_gpu_model_has_a_known_vendor_and_amd_ones_no_mig() -> None:
    vendors = {name: m.vendor for name, m in GPU_MODELS.items()}
    assert {n for n, v in vendors.items() if v == "AMD"} == {"MI300X", "Radeon-Pro-V520"}
    assert set(vendors.values()) == set(VENDORS)
    assert not any(GPU_MODELS[n].mig_capable for n, v in vendors.items() if v == "AMD")


def test_the_mi300x_size_as_learn_lists_it() -> None:
    size = azure_vm_size("Standard_ND96isr_MI300X_v5")
    assert (size.vcpus, size.memory_gib, size.temp_disk_gib) == (96, 1850, 1000)
    assert size.nvme_disk_count * size.nvme_disk_gib == 28000
    assert size.ephemeral_os_disk_gib == 1000 and not size.mig


@pytest.mark.parametrize(
    ("resource", "vendor"),
    [
        ("nvidia.com/gpu", "NVIDIA"),
        ("nvidia.com/mig-1g.5gb", "NVIDIA"),
        ("nvidia.com/gpu.shared", "NVIDIA"),
        ("aliyun.com/gpu-mem", "NVIDIA"),
        ("amd.com/gpu", "AMD"),
        ("amd.com/cpx_nps4", "AMD"),
        ("amd.com/spx_nps1", "AMD"),
        ("amd.com/nic", None),
        ("amd.com/cpx_nps8", None),
        ("cpu", None),
    ],
)
def test_resource_vendor(resource: str, vendor: str | None) -> None:
    found = resource_vendor(resource)
    assert (found.name if found else None) == vendor
    assert is_gpu_resource(resource) == (vendor is not None)


def test_vendor_taints_and_tools() -> None:
    assert (str(NVIDIA.taint), NVIDIA.smi) == ("nvidia.com/gpu=present:NoSchedule", "nvidia-smi")
    assert (str(AMD.taint), AMD.smi) == ("amd.com/gpu=present:NoSchedule", "amd-smi")
    assert amd_partition_resource("CPX", "NPS4") == "amd.com/cpx_nps4"


def test_amd_whole_gpus_only_in_the_capacity_model() -> None:
    mi300x = gpu_model("MI300X")
    assert pool_capacity(PoolShape(mi300x, 8, 1, 2)).per_node == {"amd.com/gpu": 8}
    with pytest.raises(ValueError, match="MIG and GPU sharing are NVIDIA's"):
        PoolShape(mi300x, 8, 1, 1, sharing="timeSlicing", replicas=2)


def test_aks_api_versions_decide_mig_and_the_node_os_default() -> None:
    """MIG needs API 2021-08-01 (seed 001); NodeImage is the default from 2023-06-01."""
    from gpu_facts.aks.api_versions import default_node_os_channel, has_mig

    assert [has_mig(v) for v in ("2021-07-01", "2021-08-01", "2021-11-01-preview")] == [
        False,
        True,
        True,
    ]
    assert [
        default_node_os_channel(v) for v in ("2023-05-02-preview", "2023-06-01", "2025-09-01")
    ] == [None, "NodeImage", "NodeImage"]


def test_karpenter_gpu_labels_name_each_provider() -> None:
    """One GPU-count, -name and -manufacturer label per provider: Karpenter on EKS, EKS Auto
    Mode, AKS NAP; each node class group maps to its cloud."""
    from gpu_facts import karpenter

    for labels in (
        karpenter.GPU_COUNT_LABELS,
        karpenter.GPU_NAME_LABELS,
        karpenter.GPU_MANUFACTURER_LABELS,
    ):
        assert {label.split("/")[0] for label in labels} == set(karpenter.NODE_CLASS_CLOUDS)
