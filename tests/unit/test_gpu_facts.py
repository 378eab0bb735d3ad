"""The GPU catalog: what must hold between its rows, and the look-ups that refuse bad names.

A size is one row in its catalogue (``gpu_facts.<cloud>.machine_types``, ``gpu_facts.gpu_models``):
these tests check what every row must satisfy (MIG slices add up, memory matches the profile
name, every size's GPU model exists, one series one page) and a few numbers against a second
figure of the same public source, not the rows copied again.
"""

from __future__ import annotations

import copy
import re
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
from gpu_facts.aks.machine_types import GPU_SIZE_PREFIX
from gpu_facts.eks.machine_types import AWS_SPECS_PAGE
from gpu_facts.scheduling import amd_partition_resource, is_gpu_resource, mig_resource
from gpu_facts.vendors import AMD, NVIDIA, VENDORS, resource_vendor
from gpu_platform.settings import SystemPoolSettings
from gpu_platform.stack_config import ConfigError, load_platform
from tests.stack_config.test_load import BASE

# --- GPU models and MIG profiles: what must hold between the rows ----------------------------

MIG_MODELS = sorted(n for n, m in GPU_MODELS.items() if m.mig_capable)
ALL_PROFILES = [(m, p.name) for m in MIG_MODELS for p in GPU_MODELS[m].mig_profiles]

# Names round memory to whole GB (H200 3g.71gb holds 70.5 GB): at most half a GB per instance.
NAME_ROUNDING_GB = 0.5


def test_every_gpu_model_has_a_source_and_memory() -> None:
    for model in GPU_MODELS.values():
        assert model.source.startswith("https://"), model.name
        assert model.memory_gib > 0, model.name
    # Spot checks from the sources (NVIDIA's MIG guide names the profiles after these sizes).
    assert {m: GPU_MODELS[m].memory_gib for m in ("A100-40GB", "H200-141GB", "MI300X")} == {
        "A100-40GB": 40,
        "H200-141GB": 141,
        "MI300X": 192,
    }


@pytest.mark.parametrize("model_name", MIG_MODELS)
def test_a_mig_gpu_offers_the_full_ladder_once(model_name: str) -> None:
    model = GPU_MODELS[model_name]
    names = [p.name for p in model.mig_profiles]
    assert len(names) == len(set(names))
    # One whole-GPU profile, and every compute size AKS names (1, 2, 3, 4, 7 slices).
    assert {p.compute_slices for p in model.mig_profiles} == {1, 2, 3, 4, 7}
    (whole,) = [p for p in model.mig_profiles if p.compute_slices == MIG_COMPUTE_SLICES]
    assert (whole.memory_eighths, whole.max_per_gpu) == (MIG_MEMORY_SLICES, 1)
    assert whole.memory_gb == model.memory_gib


@pytest.mark.parametrize(("model_name", "profile"), ALL_PROFILES)
def test_mig_profile_is_consistent(model_name: str, profile: str) -> None:
    model = GPU_MODELS[model_name]
    p = mig_profile(model, profile)
    g, gb = p.name.removesuffix("+me").split(".")
    # The name says the compute slices and the memory.
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


def test_the_a100_40gb_table_as_nvidia_prints_it() -> None:
    # One spot check against the MIG User Guide's A100 40GB table (the one printed in full).
    rows = [
        (p.name, p.compute_slices, p.memory_gb, p.max_per_gpu, p.memory_eighths)
        for p in GPU_MODELS["A100-40GB"].mig_profiles
    ]
    assert rows[0] == ("1g.5gb", 1, 5, 7, 1)
    assert ("3g.20gb", 3, 20, 2, 4) in rows


# --- AKS gpuInstanceProfile → NVIDIA profile ---------------------------------------------


@pytest.mark.parametrize(
    ("model_name", "aks"), [(m, a) for m in MIG_MODELS for a in AKS_MIG_PROFILES]
)
def test_aks_profile_maps_to_the_default_nvidia_profile(model_name: str, aks: str) -> None:
    model = GPU_MODELS[model_name]
    # AKS offers, per compute size, the profile with the most instances per GPU.
    g = int(aks.removeprefix("MIG").removesuffix("g"))
    same_size = [p for p in model.mig_profiles if p.compute_slices == g]
    best = max(same_size, key=lambda p: p.max_per_gpu)
    assert mig_profile(model, aks_mig_profile(model, aks)) == best
    assert not best.media_extensions


def test_aks_names_as_learn_lists_them_for_nd96asr_v4() -> None:
    # "on Standard_ND96asr_v4 MIG1g is 1g.5gb ×7, MIG2g 2g.10gb ×3, MIG3g 3g.20gb ×2, MIG4g
    # 4g.20gb, MIG7g 7g.40gb" (learn.microsoft.com/azure/aks/gpu-multi-instance).
    assert AKS_MIG_TO_NVIDIA["A100-40GB"] == {
        "MIG1g": "1g.5gb",
        "MIG2g": "2g.10gb",
        "MIG3g": "3g.20gb",
        "MIG4g": "4g.20gb",
        "MIG7g": "7g.40gb",
    }


def test_aks_mapping_covers_exactly_the_mig_models() -> None:
    assert sorted(AKS_MIG_TO_NVIDIA) == MIG_MODELS
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


# --- Azure VM sizes: what must hold for every row ---------------------------------------------

# Accelerator memory per VM as the Learn "Accelerators" tab lists it (GB): a second number of
# the same page, which the size's GPUs times its model's memory must give.
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


@pytest.mark.parametrize("name", sorted(AZURE_VM_SIZES))
def test_azure_size_is_consistent(name: str) -> None:
    size = azure_vm_size(name)
    assert size.name == name and name.startswith(GPU_SIZE_PREFIX)
    model = gpu_model(size.gpu_model)  # every size's GPU model exists
    assert size.gpu_count >= 1
    # AKS supports MIG on the A100, H100 and H200 sizes: exactly the MIG-capable GPUs.
    assert size.mig == model.mig_capable
    assert (size.nvme_disk_count > 0) == (size.nvme_disk_gib > 0) == size.has_nvme
    assert size.temp_disk_gib > 0 and size.cache_disk_gib == 0  # Learn lists no OS cache
    assert size.source.startswith(
        "https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/"
    )
    # One series, one page, one GPU.
    same_series = [s for s in AZURE_VM_SIZES.values() if s.family == size.family]
    assert {(s.source, s.gpu_model, s.mig) for s in same_series} == {
        (size.source, size.gpu_model, size.mig)
    }
    if name in AZURE_GPU_MEMORY_PER_VM:
        assert size.gpu_count * model.memory_gib == AZURE_GPU_MEMORY_PER_VM[name]


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
    assert all(name in message for name in AZURE_VM_SIZES)


# --- Alibaba ECS instance types: what must hold for every row ----------------------------------


@pytest.mark.parametrize("name", sorted(ECS_INSTANCE_TYPES))
def test_ecs_type_is_consistent(name: str) -> None:
    it = ecs_instance_type(name)
    assert it.name.startswith(f"ecs.{it.family}-") or it.name.startswith(f"ecs.{it.family}.")
    # The memory Alibaba lists per type is the memory of the catalog's GPU model.
    assert gpu_model(it.gpu_model).memory_gib == it.gpu_memory_gb
    assert it.source.startswith("https://www.alibabacloud.com/help/en/ecs/")


def test_unknown_ecs_type_and_gpu_model_list_the_choices() -> None:
    with pytest.raises(UnknownGpuFact) as err:
        ecs_instance_type("ecs.g7.xlarge")
    assert all(name in str(err.value) for name in ECS_INSTANCE_TYPES)
    with pytest.raises(UnknownGpuFact, match="known models: A10, A100-40GB"):
        gpu_model("B200")


def test_mig_profile_lookup_refusals() -> None:
    with pytest.raises(UnknownGpuFact, match=r"offered: 1g\.5gb, 1g\.5gb\+me, 1g\.10gb"):
        mig_profile(GPU_MODELS["A100-40GB"], "1g.12gb")
    with pytest.raises(UnknownGpuFact, match="L4 GPUs do not support MIG"):
        mig_profile(GPU_MODELS["L4"], "1g.5gb")


# --- Config validation refuses what the catalog does not know, listing the choices ----------

ACK_BASE: dict[str, Any] = {
    "cloud": "ack",
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
    assert all(name in message for name in ECS_INSTANCE_TYPES)


def test_config_refuses_an_unknown_vm_size_with_the_choices() -> None:
    raw = copy.deepcopy(BASE)
    raw["gpuPools"][1]["vmSize"] = "Standard_NC4as_T4_v9"
    message = _problems(raw)["gpuPools[1].vmSize"]
    assert "unknown GPU VM size 'Standard_NC4as_T4_v9'" in message
    assert all(name in message for name in AZURE_VM_SIZES)


def test_config_refuses_mig_on_a_gpu_without_it_with_the_mig_sizes() -> None:
    raw = copy.deepcopy(BASE)
    raw["gpuPools"][1]["mig"] = {"profile": "MIG1g"}
    message = _problems(raw)["gpuPools[1].mig.profile"]
    assert "Standard_NC4as_T4_v3 (T4) does not support MIG" in message
    mig_sizes = [n for n, size in AZURE_VM_SIZES.items() if size.mig]
    assert all(name in message for name in mig_sizes)


def test_config_refuses_a_profile_aks_does_not_offer_with_the_choices() -> None:
    raw = copy.deepcopy(BASE)
    raw["gpuPools"][0]["mig"] = {"profile": "MIG5g"}
    message = _problems(raw)["gpuPools[0].mig.profile"]
    assert all(profile in message for profile in AKS_MIG_PROFILES)


# --- AWS and Google Cloud (EKS node groups, GKE node pools) -----------------------------------


@pytest.mark.parametrize("name", sorted(AWS_INSTANCE_TYPES))
def test_aws_type_is_consistent(name: str) -> None:
    it = aws_instance_type(name)
    assert it.name.startswith(f"{it.family}.") and it.gpu_count >= 1
    assert gpu_model(it.gpu_model)  # a model the catalog knows
    # Each family cites the section of the page that prints EC2's GPU name and count for every
    # size of that family (Karpenter's generated instance-type reference); G4ad, AMD's, AWS's
    # own specifications page.
    karpenter = f"https://karpenter.sh/docs/reference/instance-types/#{it.family}-family"
    assert it.source == (AWS_SPECS_PAGE if it.family == "g4ad" else karpenter)
    same_family = {t.gpu_model for t in AWS_INSTANCE_TYPES.values() if t.family == it.family}
    assert same_family == {it.gpu_model}


def test_aws_spot_checks() -> None:
    # EC2's DescribeInstanceTypes as Karpenter's reference prints it.
    assert (
        AWS_INSTANCE_TYPES["p5.48xlarge"].gpu_model,
        AWS_INSTANCE_TYPES["p5.48xlarge"].gpu_count,
    ) == ("H100-80GB", 8)
    assert AWS_INSTANCE_TYPES["g4dn.metal"].gpu_count == 8


@pytest.mark.parametrize("name", sorted([*GCP_ACCELERATORS, *GCP_GPU_MACHINE_TYPES]))
def test_gcp_gpu_is_consistent(name: str) -> None:
    gpu = gcp_accelerator(name)
    assert gpu.name == name and gpu.gpu_count >= 1
    assert gpu_model(gpu.gpu_model)
    assert gpu.source.startswith("https://cloud.google.com/compute/docs/")
    if name in GCP_GPU_MACHINE_TYPES:
        # a3-highgpu-8g: the count is the name's last part.
        assert name.endswith(
            (f"-{gpu.gpu_count}g", "-4", "-8", "-12", "-16", "-24", "-32", "-48", "-96")
        )
    else:
        assert gpu.gpu_count == 1


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


# --- cloud limits and regions (gpu_facts.cloud_limits, gpu_facts.regions) -----------------

CLOUD_LIMITS: dict[str, tuple[int, str, bool]] = {
    # name: (value, source, raisable) as the quoted source states it
    "KUBERNETES_MAX_PODS_PER_CLUSTER": (150_000, cloud_limits.KUBERNETES_LARGE_CLUSTERS, False),
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
