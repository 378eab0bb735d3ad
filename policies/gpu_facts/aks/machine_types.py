"""Azure VM sizes with GPUs that AKS GPU node pools use (NVIDIA's, and AMD's one AKS size).

Sources: Microsoft Learn, "GPU accelerated VM sizes", one page per series (linked per entry:
the Accelerators and Local Storage tabs). MIG on AKS: "Multi-instance GPU is currently
supported on NVIDIA A100, H100, and H200 series GPU VM sizes on AKS"
(https://learn.microsoft.com/azure/aks/gpu-multi-instance).

Local disks count as NVMe only where Learn lists them as NVMe: the NC A100 v4 NVMe data disks,
the NCads H100 v5 "Temp Disk NVMe" and the ND H100/H200 v5 NVMe disks. The ND A100 v4 and
NDm A100 v4 temp disks (6,000 / 6,400 GiB) are listed as temp storage, not NVMe; the ND MI300X v5
has both, a 1,000 GiB temp disk and 8 NVMe disks.

Local disks for the OS: each size's temp (resource) disk in GiB, from the same pages' "Local
Storage" tab; none of these pages lists an OS cache, so the cache is 0. An ephemeral OS disk
fits when "the image OS disk's size [is] less than or equal to the NVMe/temp/cache size of the
VM size chosen" (``EPHEMERAL_OS_DISKS``); AKS places it in the cache or on the temp disk (NVMe
placement is for the v6 series onward, none of these).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models import AzureCpuVmSize, AzureVmSize

_DOCS = "https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/"
EPHEMERAL_OS_DISKS = (
    "https://learn.microsoft.com/azure/virtual-machines/ephemeral-os-disks#size-requirements"
)
GPU_SIZE_PREFIX = "Standard_N"
"""The N family: every Azure size named ``Standard_N*`` carries GPUs (NC, ND, NG, NV) or FPGAs
(NP) (https://learn.microsoft.com/azure/virtual-machines/sizes/overview, "GPU accelerated" and
"FPGA accelerated"): never a size for system or CPU pools."""


@dataclass(frozen=True, slots=True)
class _Series:
    """What every size of one series shares: its name, its Learn page, its GPU, MIG on AKS."""

    family: str
    page: str
    gpu_model: str
    mig: bool = False


def _size(
    series: _Series,
    name: str,
    *,
    gpu_count: int,
    temp_disk_gib: int,
    nvme_disk_count: int = 0,
    nvme_disk_gib: int = 0,
    vcpus: int = 0,
    memory_gib: int = 0,
) -> AzureVmSize:
    """One size: one row with its own facts by name, its series' facts from the series."""
    return AzureVmSize(
        name=name,
        family=series.family,
        gpu_model=series.gpu_model,
        gpu_count=gpu_count,
        nvme_disk_count=nvme_disk_count,
        nvme_disk_gib=nvme_disk_gib,
        mig=series.mig,
        source=_DOCS + series.page,
        temp_disk_gib=temp_disk_gib,
        vcpus=vcpus,
        memory_gib=memory_gib,
    )


_ND_A100_V4 = _Series("ND A100 v4", "ndasra100v4-series", "A100-40GB", mig=True)
_NDM_A100_V4 = _Series("NDm A100 v4", "ndma100v4-series", "A100-80GB", mig=True)
_NC_A100_V4 = _Series("NC A100 v4", "nca100v4-series", "A100-80GB", mig=True)
_NCADS_H100_V5 = _Series("NCads H100 v5", "ncadsh100v5-series", "H100-NVL-94GB", mig=True)
_ND_H100_V5 = _Series("ND H100 v5", "ndh100v5-series", "H100-80GB", mig=True)
_ND_H200_V5 = _Series("ND H200 v5", "nd-h200-v5-series", "H200-141GB", mig=True)
_ND_MI300X_V5 = _Series("ND MI300X v5", "ndmi300xv5-series", "MI300X")
_NCAST4_V3 = _Series("NCasT4_v3", "ncast4v3-series", "T4")
_NCV3 = _Series("NCv3", "ncv3-series", "V100-16GB")
_NDV2 = _Series("NDv2", "ndv2-series", "V100-32GB")
_NVADSA10_V5 = _Series("NVadsA10 v5", "nvadsa10v5-series", "A10")

AZURE_VM_SIZES: dict[str, AzureVmSize] = {
    size.name: size
    for size in (
        # ND A100 v4: 8x A100 40GB (320 GB). One 6,000 GiB temp disk, not listed as NVMe.
        _size(_ND_A100_V4, "Standard_ND96asr_v4", gpu_count=8, temp_disk_gib=6000),
        # NDm A100 v4: 8x A100 80GB. One 6,400 GiB temp disk, not listed as NVMe.
        _size(_NDM_A100_V4, "Standard_ND96amsr_A100_v4", gpu_count=8, temp_disk_gib=6400),
        # NC A100 v4: A100 80GB PCIe; "1 - 4 NVMe Disks, 960 GiB" (one per GPU); a 64 to
        # 256 GiB temp disk: too small for a 128 GiB ephemeral OS disk on the smallest size.
        _size(
            _NC_A100_V4,
            "Standard_NC24ads_A100_v4",
            gpu_count=1,
            temp_disk_gib=64,
            nvme_disk_count=1,
            nvme_disk_gib=960,
        ),
        _size(
            _NC_A100_V4,
            "Standard_NC48ads_A100_v4",
            gpu_count=2,
            temp_disk_gib=128,
            nvme_disk_count=2,
            nvme_disk_gib=960,
        ),
        _size(
            _NC_A100_V4,
            "Standard_NC96ads_A100_v4",
            gpu_count=4,
            temp_disk_gib=256,
            nvme_disk_count=4,
            nvme_disk_gib=960,
        ),
        # NCads H100 v5: H100 NVL 94GB PCIe; one local NVMe disk of 3,576 / 7,152 GiB, which
        # the size page lists as its temp disk.
        _size(
            _NCADS_H100_V5,
            "Standard_NC40ads_H100_v5",
            gpu_count=1,
            temp_disk_gib=3576,
            nvme_disk_count=1,
            nvme_disk_gib=3576,
        ),
        _size(
            _NCADS_H100_V5,
            "Standard_NC80adis_H100_v5",
            gpu_count=2,
            temp_disk_gib=7152,
            nvme_disk_count=1,
            nvme_disk_gib=7152,
        ),
        # ND H100 v5: 8x H100 80GB (640 GB); 8 NVMe disks, 28 TiB in all (3,584 GiB each),
        # and a 1,024 GiB temp disk.
        _size(
            _ND_H100_V5,
            "Standard_ND96isr_H100_v5",
            gpu_count=8,
            temp_disk_gib=1024,
            nvme_disk_count=8,
            nvme_disk_gib=3584,
        ),
        # ND H200 v5: 8x H200 141GB (1,128 GB); 8 NVMe disks, 28 TiB in all, and a 1,024 GiB
        # temp disk.
        _size(
            _ND_H200_V5,
            "Standard_ND96isr_H200_v5",
            gpu_count=8,
            temp_disk_gib=1024,
            nvme_disk_count=8,
            nvme_disk_gib=3584,
        ),
        # ND MI300X v5: 96 vCPUs, 1,850 GiB, 8x AMD Instinct MI300X (192 GB each), a 1,000 GiB
        # temp disk and 8 NVMe disks, 28,000 GiB in all (3,500 GiB each) ("ND-MI300X-v5 sizes
        # series": host specifications and Local storage tab). The one AMD size AKS supports
        # (https://learn.microsoft.com/azure/aks/use-amd-gpus, "Limitations"). No MIG.
        _size(
            _ND_MI300X_V5,
            "Standard_ND96isr_MI300X_v5",
            gpu_count=8,
            temp_disk_gib=1000,
            nvme_disk_count=8,
            nvme_disk_gib=3500,
            vcpus=96,
            memory_gib=1850,
        ),
        # NCasT4_v3: T4 16GB.
        _size(_NCAST4_V3, "Standard_NC4as_T4_v3", gpu_count=1, temp_disk_gib=176),
        _size(_NCAST4_V3, "Standard_NC8as_T4_v3", gpu_count=1, temp_disk_gib=352),
        _size(_NCAST4_V3, "Standard_NC16as_T4_v3", gpu_count=1, temp_disk_gib=352),
        _size(_NCAST4_V3, "Standard_NC64as_T4_v3", gpu_count=4, temp_disk_gib=2816),
        # NCv3: V100 16GB.
        _size(_NCV3, "Standard_NC6s_v3", gpu_count=1, temp_disk_gib=736),
        _size(_NCV3, "Standard_NC12s_v3", gpu_count=2, temp_disk_gib=1474),
        _size(_NCV3, "Standard_NC24s_v3", gpu_count=4, temp_disk_gib=2948),
        _size(_NCV3, "Standard_NC24rs_v3", gpu_count=4, temp_disk_gib=2948),
        # NDv2: 8x V100 32GB (256 GB).
        _size(_NDV2, "Standard_ND40rs_v2", gpu_count=8, temp_disk_gib=2948),
        # NVadsA10 v5: only the whole-GPU sizes; the 1/6 to 1/2 sizes are vGPU slices.
        _size(_NVADSA10_V5, "Standard_NV36ads_A10_v5", gpu_count=1, temp_disk_gib=1440),
        _size(_NVADSA10_V5, "Standard_NV36adms_A10_v5", gpu_count=1, temp_disk_gib=2880),
        _size(_NVADSA10_V5, "Standard_NV72ads_A10_v5", gpu_count=2, temp_disk_gib=2880),
    )
}
"""Azure GPU sizes by name: one row per size (``_size``), its series' facts once above."""


_GENERAL_PURPOSE = "https://learn.microsoft.com/azure/virtual-machines/sizes/general-purpose/"

AZURE_CPU_VM_SIZES: dict[str, AzureCpuVmSize] = {
    size.name: size
    for size in (
        # Ddsv5 (the default system pool size): one temp disk, 37.5 GiB per vCPU; no cache.
        *(
            AzureCpuVmSize(
                f"Standard_D{vcpus}ds_v5",
                "Ddsv5",
                vcpus,
                vcpus * 4,
                temp_disk_gib=vcpus * 75 // 2,
                source=_GENERAL_PURPOSE + "ddsv5-series",
            )
            for vcpus in (2, 4, 8, 16, 32, 48, 64, 96)
        ),
        # Dsv5: no local storage at all, so no ephemeral OS disk ("Ephemeral OS Disks: Not
        # Supported").
        *(
            AzureCpuVmSize(
                f"Standard_D{vcpus}s_v5",
                "Dsv5",
                vcpus,
                vcpus * 4,
                source=_GENERAL_PURPOSE + "dsv5-series",
            )
            for vcpus in (2, 4, 8, 16, 32, 48, 64, 96)
        ),
    )
}
"""Azure sizes without GPUs that system and CPU pools use, with their local disks (sources
per entry). A size missing here is still allowed for those pools; only an ephemeral OS disk on
it cannot be checked."""
