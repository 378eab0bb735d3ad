"""GPU models and their MIG profiles.

MIG tables: NVIDIA MIG User Guide, "Supported MIG Profiles" (profile names, fractions of
SMs and memory, instances per GPU) and "Supported GPUs" (at most 7 instances on every GPU
here). Instance counts agree with NVIDIA's default mig-parted config shipped by the GPU
Operator (NVIDIA/gpu-operator ``assets/state-mig-manager/0400_configmap.yaml``), which also
gives the H100 NVL 94GB and H200 141GB names. Each row is
(name, compute slices of 7, memory GB as named, instances per GPU, memory eighths).
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


def _profiles(*rows: tuple[str, int, int, int, int]) -> tuple[MigProfile, ...]:
    return tuple(MigProfile(name, g, mem, n, eighths) for name, g, mem, n, eighths in rows)


GPU_MODELS: dict[str, GpuModel] = {
    m.name: m
    for m in (
        # A100-SXM4/PCIE-40GB: the table NVIDIA prints in full (and AKS repeats for ND96asr_v4).
        # NVIDIA's row for 1g.10gb prints a 1/8 memory fraction; its name (10 GB of 40) and
        # its 4 instances per GPU both mean 2/8, which is what we store.
        GpuModel(
            "A100-40GB",
            40,
            _profiles(
                ("1g.5gb", 1, 5, 7, 1),
                ("1g.5gb+me", 1, 5, 1, 1),
                ("1g.10gb", 1, 10, 4, 2),
                ("2g.10gb", 2, 10, 3, 2),
                ("3g.20gb", 3, 20, 2, 4),
                ("4g.20gb", 4, 20, 1, 4),
                ("7g.40gb", 7, 40, 1, 8),
            ),
            _MIG_PROFILES,
        ),
        # A100 80GB: "profile names change according to the memory proportion".
        GpuModel(
            "A100-80GB",
            80,
            _profiles(
                ("1g.10gb", 1, 10, 7, 1),
                ("1g.10gb+me", 1, 10, 1, 1),
                ("1g.20gb", 1, 20, 4, 2),
                ("2g.20gb", 2, 20, 3, 2),
                ("3g.40gb", 3, 40, 2, 4),
                ("4g.40gb", 4, 40, 1, 4),
                ("7g.80gb", 7, 80, 1, 8),
            ),
            _MIG_PROFILES,
        ),
        # H100-SXM5/PCIE 80GB (ND H100 v5).
        GpuModel(
            "H100-80GB",
            80,
            _profiles(
                ("1g.10gb", 1, 10, 7, 1),
                ("1g.10gb+me", 1, 10, 1, 1),
                ("1g.20gb", 1, 20, 4, 2),
                ("2g.20gb", 2, 20, 3, 2),
                ("3g.40gb", 3, 40, 2, 4),
                ("4g.40gb", 4, 40, 1, 4),
                ("7g.80gb", 7, 80, 1, 8),
            ),
            _MIG_PROFILES,
        ),
        # H100 NVL 94GB (the "Nvidia PCIe H100 GPU (94GB)" of NCads H100 v5).
        GpuModel(
            "H100-NVL-94GB",
            94,
            _profiles(
                ("1g.12gb", 1, 12, 7, 1),
                ("1g.12gb+me", 1, 12, 1, 1),
                ("1g.24gb", 1, 24, 4, 2),
                ("2g.24gb", 2, 24, 3, 2),
                ("3g.47gb", 3, 47, 2, 4),
                ("4g.47gb", 4, 47, 1, 4),
                ("7g.94gb", 7, 94, 1, 8),
            ),
            _MIG_PARTED,
        ),
        # H200-SXM5 / H200 NVL 141GB (ND H200 v5). Names round: 3g.71gb is 70.5 GB.
        GpuModel(
            "H200-141GB",
            141,
            _profiles(
                ("1g.18gb", 1, 18, 7, 1),
                ("1g.18gb+me", 1, 18, 1, 1),
                ("1g.35gb", 1, 35, 4, 2),
                ("2g.35gb", 2, 35, 3, 2),
                ("3g.71gb", 3, 71, 2, 4),
                ("4g.71gb", 4, 71, 1, 4),
                ("7g.141gb", 7, 141, 1, 8),
            ),
            _MIG_PARTED,
        ),
        # GPUs without MIG that GPU pools commonly use (memory from the cloud size tables).
        GpuModel("V100-16GB", 16, source="https://www.nvidia.com/en-us/data-center/v100/"),
        GpuModel("V100-32GB", 32, source="https://www.nvidia.com/en-us/data-center/v100/"),
        GpuModel("T4", 16, source="https://www.nvidia.com/en-us/data-center/tesla-t4/"),
        GpuModel("A10", 24, source="https://www.nvidia.com/en-us/data-center/products/a10-gpu/"),
        GpuModel("L4", 24, source="https://www.nvidia.com/en-us/data-center/l4/"),
        # L20: named with its 48 GB by Alibaba's gn8is family page (NVIDIA has no L20 page).
        GpuModel("L20", 48, source=_ALIBABA_GN8IS),
        GpuModel("L40S", 48, source="https://www.nvidia.com/en-us/data-center/l40s/"),
        # A10G: the 24 GB A10 variant of AWS G5 instances (named and sized by AWS).
        GpuModel("A10G", 24, source="https://aws.amazon.com/ec2/instance-types/g5/"),
        GpuModel("P100", 16, source="https://www.nvidia.com/en-us/data-center/tesla-p100/"),
        GpuModel("P4", 8, source="https://cloud.google.com/compute/docs/gpus"),
        # AMD. MI300X: 192 GB HBM3 (AMD's product page; Microsoft Learn's ND MI300X v5 size page
        # lists "AMD Instinct MI300X GPU (192GB)"). Its partitions (SPX..CPX, NPS1/NPS4) are
        # set by AMD's Device Config Manager, not a MIG profile: none modelled here.
        GpuModel("MI300X", 192, source=_MI300X, vendor="AMD"),
        # Radeon Pro V520 of AWS G4ad: "1 x AMD Radeon Pro V520 GPU, 8 GiB" (AWS's accelerated
        # computing instance specifications).
        GpuModel("Radeon-Pro-V520", 8, source=_AWS_ACCELERATED, vendor="AMD"),
    )
}
