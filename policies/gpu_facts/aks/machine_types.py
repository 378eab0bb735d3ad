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

from ..models import AzureCpuVmSize, AzureVmSize

_DOCS = "https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/"
EPHEMERAL_OS_DISKS = (
    "https://learn.microsoft.com/azure/virtual-machines/ephemeral-os-disks#size-requirements"
)
GPU_SIZE_PREFIX = "Standard_N"
"""The N family: every Azure size named ``Standard_N*`` carries GPUs (NC, ND, NG, NV) or FPGAs
(NP) (https://learn.microsoft.com/azure/virtual-machines/sizes/overview, "GPU accelerated" and
"FPGA accelerated"): never a size for system or CPU pools."""


def _series(
    family: str,
    page: str,
    gpu_model: str,
    sizes: tuple[tuple[str, int, int, int, int], ...],
    *,
    mig: bool = False,
) -> tuple[AzureVmSize, ...]:
    """Sizes of one series: (name, GPUs, local NVMe disks, GiB per NVMe disk, temp disk GiB)."""
    return tuple(
        AzureVmSize(
            name, family, gpu_model, gpus, disks, gib, mig, _DOCS + page, temp_disk_gib=temp
        )
        for name, gpus, disks, gib, temp in sizes
    )


AZURE_VM_SIZES: dict[str, AzureVmSize] = {
    size.name: size
    for size in (
        # ND A100 v4: 8x A100 40GB (320 GB). One 6,000 GiB temp disk, not listed as NVMe.
        *_series(
            "ND A100 v4",
            "ndasra100v4-series",
            "A100-40GB",
            (("Standard_ND96asr_v4", 8, 0, 0, 6000),),
            mig=True,
        ),
        # NDm A100 v4: 8x A100 80GB. One 6,400 GiB temp disk, not listed as NVMe.
        *_series(
            "NDm A100 v4",
            "ndma100v4-series",
            "A100-80GB",
            (("Standard_ND96amsr_A100_v4", 8, 0, 0, 6400),),
            mig=True,
        ),
        # NC A100 v4: A100 80GB PCIe; "1 - 4 NVMe Disks, 960 GiB" (one per GPU); a 64 to
        # 256 GiB temp disk: too small for a 128 GiB ephemeral OS disk on the smallest size.
        *_series(
            "NC A100 v4",
            "nca100v4-series",
            "A100-80GB",
            (
                ("Standard_NC24ads_A100_v4", 1, 1, 960, 64),
                ("Standard_NC48ads_A100_v4", 2, 2, 960, 128),
                ("Standard_NC96ads_A100_v4", 4, 4, 960, 256),
            ),
            mig=True,
        ),
        # NCads H100 v5: H100 NVL 94GB PCIe; one local NVMe disk of 3,576 / 7,152 GiB, which
        # the size page lists as its temp disk.
        *_series(
            "NCads H100 v5",
            "ncadsh100v5-series",
            "H100-NVL-94GB",
            (
                ("Standard_NC40ads_H100_v5", 1, 1, 3576, 3576),
                ("Standard_NC80adis_H100_v5", 2, 1, 7152, 7152),
            ),
            mig=True,
        ),
        # ND H100 v5: 8x H100 80GB (640 GB); 8 NVMe disks, 28 TiB in all (3,584 GiB each),
        # and a 1,024 GiB temp disk.
        *_series(
            "ND H100 v5",
            "ndh100v5-series",
            "H100-80GB",
            (("Standard_ND96isr_H100_v5", 8, 8, 3584, 1024),),
            mig=True,
        ),
        # ND H200 v5: 8x H200 141GB (1,128 GB); 8 NVMe disks, 28 TiB in all, and a 1,024 GiB
        # temp disk.
        *_series(
            "ND H200 v5",
            "nd-h200-v5-series",
            "H200-141GB",
            (("Standard_ND96isr_H200_v5", 8, 8, 3584, 1024),),
            mig=True,
        ),
        # ND MI300X v5: 96 vCPUs, 1,850 GiB, 8x AMD Instinct MI300X (192 GB each), a 1,000 GiB
        # temp disk and 8 NVMe disks, 28,000 GiB in all (3,500 GiB each) ("ND-MI300X-v5 sizes
        # series": host specifications and Local storage tab). The one AMD size AKS supports
        # (https://learn.microsoft.com/azure/aks/use-amd-gpus, "Limitations"). No MIG.
        AzureVmSize(
            "Standard_ND96isr_MI300X_v5",
            "ND MI300X v5",
            "MI300X",
            8,
            nvme_disk_count=8,
            nvme_disk_gib=3500,
            source=_DOCS + "ndmi300xv5-series",
            temp_disk_gib=1000,
            vcpus=96,
            memory_gib=1850,
        ),
        # NCasT4_v3: T4 16GB.
        *_series(
            "NCasT4_v3",
            "ncast4v3-series",
            "T4",
            (
                ("Standard_NC4as_T4_v3", 1, 0, 0, 176),
                ("Standard_NC8as_T4_v3", 1, 0, 0, 352),
                ("Standard_NC16as_T4_v3", 1, 0, 0, 352),
                ("Standard_NC64as_T4_v3", 4, 0, 0, 2816),
            ),
        ),
        # NCv3: V100 16GB.
        *_series(
            "NCv3",
            "ncv3-series",
            "V100-16GB",
            (
                ("Standard_NC6s_v3", 1, 0, 0, 736),
                ("Standard_NC12s_v3", 2, 0, 0, 1474),
                ("Standard_NC24s_v3", 4, 0, 0, 2948),
                ("Standard_NC24rs_v3", 4, 0, 0, 2948),
            ),
        ),
        # NDv2: 8x V100 32GB (256 GB).
        *_series("NDv2", "ndv2-series", "V100-32GB", (("Standard_ND40rs_v2", 8, 0, 0, 2948),)),
        # NVadsA10 v5: only the whole-GPU sizes; the 1/6 to 1/2 sizes are vGPU slices.
        *_series(
            "NVadsA10 v5",
            "nvadsa10v5-series",
            "A10",
            (
                ("Standard_NV36ads_A10_v5", 1, 0, 0, 1440),
                ("Standard_NV36adms_A10_v5", 1, 0, 0, 2880),
                ("Standard_NV72ads_A10_v5", 2, 0, 0, 2880),
            ),
        ),
    )
}


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
