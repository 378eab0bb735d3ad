"""GPU models and their MIG profiles.

MIG tables: NVIDIA MIG User Guide, "Supported MIG Profiles" (profile names, fractions of
SMs and memory, instances per GPU) and "Supported GPUs" (at most 7 instances on every GPU
here). Instance counts agree with NVIDIA's default mig-parted config shipped by the GPU
Operator (NVIDIA/gpu-operator ``assets/state-mig-manager/0400_configmap.yaml``), which also
gives the H100 NVL 94GB and H200 141GB names. A GPU is one ``GpuModel`` row, each MIG profile
of it one ``MigProfile`` row, every fact by its name; ``tests/unit/test_gpu_facts.py`` checks
what must hold between them (slices add up, memory matches the name), not the rows again.
"""

from __future__ import annotations

from .models import GpuModel, MigProfile

_MIG_PROFILES = (
    "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html"
)
_MIG_PARTED = (
    "https://github.com/NVIDIA/gpu-operator/blob/main/assets/state-mig-manager/0400_configmap.yaml"
)
_MI300X = "https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html"
_AWS_ACCELERATED = "https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html"
_ALIBABA_GN8IS = (
    "https://www.alibabacloud.com/help/en/ecs/user-guide/"
    "gpu-accelerated-compute-optimized-and-vgpu-accelerated-instance-families-1"
)


def _mig(name: str, *, compute: int, gb: int, per_gpu: int, eighths: int) -> MigProfile:
    """One MIG profile as NVIDIA's table prints it: its compute slices (of 7), memory in GB as
    the name says, instances per GPU, and memory in eighths of the GPU's."""
    return MigProfile(
        name=name, compute_slices=compute, memory_gb=gb, max_per_gpu=per_gpu, memory_eighths=eighths
    )


GPU_MODELS: dict[str, GpuModel] = {
    m.name: m
    for m in (
        # A100-SXM4/PCIE-40GB: the table NVIDIA prints in full (and AKS repeats for ND96asr_v4).
        # NVIDIA's row for 1g.10gb prints a 1/8 memory fraction; its name (10 GB of 40) and
        # its 4 instances per GPU both mean 2/8, which is what we store.
        GpuModel(
            name="A100-40GB",
            memory_gib=40,
            mig_profiles=(
                _mig("1g.5gb", compute=1, gb=5, per_gpu=7, eighths=1),
                _mig("1g.5gb+me", compute=1, gb=5, per_gpu=1, eighths=1),
                _mig("1g.10gb", compute=1, gb=10, per_gpu=4, eighths=2),
                _mig("2g.10gb", compute=2, gb=10, per_gpu=3, eighths=2),
                _mig("3g.20gb", compute=3, gb=20, per_gpu=2, eighths=4),
                _mig("4g.20gb", compute=4, gb=20, per_gpu=1, eighths=4),
                _mig("7g.40gb", compute=7, gb=40, per_gpu=1, eighths=8),
            ),
            source=_MIG_PROFILES,
        ),
        # A100 80GB: "profile names change according to the memory proportion".
        GpuModel(
            name="A100-80GB",
            memory_gib=80,
            mig_profiles=(
                _mig("1g.10gb", compute=1, gb=10, per_gpu=7, eighths=1),
                MigProfile(
                    name="1g.10gb+me",
                    compute_slices=1,
                    memory_gb=10,
                    max_per_gpu=1,
                    memory_eighths=1,
                ),
                _mig("1g.20gb", compute=1, gb=20, per_gpu=4, eighths=2),
                _mig("2g.20gb", compute=2, gb=20, per_gpu=3, eighths=2),
                _mig("3g.40gb", compute=3, gb=40, per_gpu=2, eighths=4),
                _mig("4g.40gb", compute=4, gb=40, per_gpu=1, eighths=4),
                _mig("7g.80gb", compute=7, gb=80, per_gpu=1, eighths=8),
            ),
            source=_MIG_PROFILES,
        ),
        # H100-SXM5/PCIE 80GB (ND H100 v5).
        GpuModel(
            name="H100-80GB",
            memory_gib=80,
            mig_profiles=(
                _mig("1g.10gb", compute=1, gb=10, per_gpu=7, eighths=1),
                MigProfile(
                    name="1g.10gb+me",
                    compute_slices=1,
                    memory_gb=10,
                    max_per_gpu=1,
                    memory_eighths=1,
                ),
                _mig("1g.20gb", compute=1, gb=20, per_gpu=4, eighths=2),
                _mig("2g.20gb", compute=2, gb=20, per_gpu=3, eighths=2),
                _mig("3g.40gb", compute=3, gb=40, per_gpu=2, eighths=4),
                _mig("4g.40gb", compute=4, gb=40, per_gpu=1, eighths=4),
                _mig("7g.80gb", compute=7, gb=80, per_gpu=1, eighths=8),
            ),
            source=_MIG_PROFILES,
        ),
        # H100 NVL 94GB (the "Nvidia PCIe H100 GPU (94GB)" of NCads H100 v5).
        GpuModel(
            name="H100-NVL-94GB",
            memory_gib=94,
            mig_profiles=(
                _mig("1g.12gb", compute=1, gb=12, per_gpu=7, eighths=1),
                MigProfile(
                    name="1g.12gb+me",
                    compute_slices=1,
                    memory_gb=12,
                    max_per_gpu=1,
                    memory_eighths=1,
                ),
                _mig("1g.24gb", compute=1, gb=24, per_gpu=4, eighths=2),
                _mig("2g.24gb", compute=2, gb=24, per_gpu=3, eighths=2),
                _mig("3g.47gb", compute=3, gb=47, per_gpu=2, eighths=4),
                _mig("4g.47gb", compute=4, gb=47, per_gpu=1, eighths=4),
                _mig("7g.94gb", compute=7, gb=94, per_gpu=1, eighths=8),
            ),
            source=_MIG_PARTED,
        ),
        # H200-SXM5 / H200 NVL 141GB (ND H200 v5). Names round: 3g.71gb is 70.5 GB.
        GpuModel(
            name="H200-141GB",
            memory_gib=141,
            mig_profiles=(
                _mig("1g.18gb", compute=1, gb=18, per_gpu=7, eighths=1),
                MigProfile(
                    name="1g.18gb+me",
                    compute_slices=1,
                    memory_gb=18,
                    max_per_gpu=1,
                    memory_eighths=1,
                ),
                _mig("1g.35gb", compute=1, gb=35, per_gpu=4, eighths=2),
                _mig("2g.35gb", compute=2, gb=35, per_gpu=3, eighths=2),
                _mig("3g.71gb", compute=3, gb=71, per_gpu=2, eighths=4),
                _mig("4g.71gb", compute=4, gb=71, per_gpu=1, eighths=4),
                MigProfile(
                    name="7g.141gb",
                    compute_slices=7,
                    memory_gb=141,
                    max_per_gpu=1,
                    memory_eighths=8,
                ),
            ),
            source=_MIG_PARTED,
        ),
        # GPUs without MIG that GPU pools commonly use (memory from the cloud size tables).
        GpuModel(
            name="V100-16GB", memory_gib=16, source="https://www.nvidia.com/en-us/data-center/v100/"
        ),
        GpuModel(
            name="V100-32GB", memory_gib=32, source="https://www.nvidia.com/en-us/data-center/v100/"
        ),
        GpuModel(
            name="T4", memory_gib=16, source="https://www.nvidia.com/en-us/data-center/tesla-t4/"
        ),
        GpuModel(
            name="A10",
            memory_gib=24,
            source="https://www.nvidia.com/en-us/data-center/products/a10-gpu/",
        ),
        GpuModel(name="L4", memory_gib=24, source="https://www.nvidia.com/en-us/data-center/l4/"),
        # L20: named with its 48 GB by Alibaba's gn8is family page (NVIDIA has no L20 page).
        GpuModel(name="L20", memory_gib=48, source=_ALIBABA_GN8IS),
        GpuModel(
            name="L40S", memory_gib=48, source="https://www.nvidia.com/en-us/data-center/l40s/"
        ),
        # A10G: the 24 GB A10 variant of AWS G5 instances (named and sized by AWS).
        GpuModel(
            name="A10G", memory_gib=24, source="https://aws.amazon.com/ec2/instance-types/g5/"
        ),
        GpuModel(
            name="P100",
            memory_gib=16,
            source="https://www.nvidia.com/en-us/data-center/tesla-p100/",
        ),
        GpuModel(name="P4", memory_gib=8, source="https://cloud.google.com/compute/docs/gpus"),
        # AMD. MI300X: 192 GB HBM3 (AMD's product page; Microsoft Learn's ND MI300X v5 size page
        # lists "AMD Instinct MI300X GPU (192GB)"). Its partitions (SPX..CPX, NPS1/NPS4) are
        # set by AMD's Device Config Manager, not a MIG profile: none modelled here.
        GpuModel(name="MI300X", memory_gib=192, source=_MI300X, vendor="AMD"),
        # Radeon Pro V520 of AWS G4ad: "1 x AMD Radeon Pro V520 GPU, 8 GiB" (AWS's accelerated
        # computing instance specifications).
        GpuModel(name="Radeon-Pro-V520", memory_gib=8, source=_AWS_ACCELERATED, vendor="AMD"),
    )
}
