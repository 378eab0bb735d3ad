"""GPU models and their MIG profiles.

MIG tables: NVIDIA MIG User Guide, "Supported MIG Profiles"
(https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html);
instance counts agree with NVIDIA's default mig-parted config shipped by the GPU Operator
(NVIDIA/gpu-operator assets/state-mig-manager/0400_configmap.yaml).
"""

from __future__ import annotations

from .models import GpuModel, MigProfile

_MIG_GUIDE = "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html"


def _profiles(*rows: tuple[str, int, int, int]) -> tuple[MigProfile, ...]:
    return tuple(MigProfile(name, g, mem, n) for name, g, mem, n in rows)


GPU_MODELS: dict[str, GpuModel] = {
    m.name: m
    for m in (
        GpuModel(
            "A100-40GB",
            40,
            _profiles(
                ("1g.5gb", 1, 5, 7),
                ("1g.5gb+me", 1, 5, 1),
                ("1g.10gb", 1, 10, 4),
                ("2g.10gb", 2, 10, 3),
                ("3g.20gb", 3, 20, 2),
                ("4g.20gb", 4, 20, 1),
                ("7g.40gb", 7, 40, 1),
            ),
            _MIG_GUIDE,
        ),
        GpuModel(
            "A100-80GB",
            80,
            _profiles(
                ("1g.10gb", 1, 10, 7),
                ("1g.10gb+me", 1, 10, 1),
                ("1g.20gb", 1, 20, 4),
                ("2g.20gb", 2, 20, 3),
                ("3g.40gb", 3, 40, 2),
                ("4g.40gb", 4, 40, 1),
                ("7g.80gb", 7, 80, 1),
            ),
            _MIG_GUIDE,
        ),
        GpuModel(
            "H100-80GB",
            80,
            _profiles(
                ("1g.10gb", 1, 10, 7),
                ("1g.10gb+me", 1, 10, 1),
                ("1g.20gb", 1, 20, 4),
                ("2g.20gb", 2, 20, 3),
                ("3g.40gb", 3, 40, 2),
                ("4g.40gb", 4, 40, 1),
                ("7g.80gb", 7, 80, 1),
            ),
            _MIG_GUIDE,
        ),
        GpuModel(
            "H100-NVL-94GB",
            94,
            _profiles(
                ("1g.12gb", 1, 12, 7),
                ("1g.12gb+me", 1, 12, 1),
                ("1g.24gb", 1, 24, 4),
                ("2g.24gb", 2, 24, 3),
                ("3g.47gb", 3, 47, 2),
                ("4g.47gb", 4, 47, 1),
                ("7g.94gb", 7, 94, 1),
            ),
            _MIG_GUIDE,
        ),
        GpuModel(
            "H200-141GB",
            141,
            _profiles(
                ("1g.18gb", 1, 18, 7),
                ("1g.18gb+me", 1, 18, 1),
                ("1g.35gb", 1, 35, 4),
                ("2g.35gb", 2, 35, 3),
                ("3g.71gb", 3, 71, 2),
                ("4g.71gb", 4, 71, 1),
                ("7g.141gb", 7, 141, 1),
            ),
            _MIG_GUIDE,
        ),
        # GPUs without MIG that GPU pools commonly use.
        GpuModel("V100-16GB", 16, source="https://www.nvidia.com/en-us/data-center/v100/"),
        GpuModel("V100-32GB", 32, source="https://www.nvidia.com/en-us/data-center/v100/"),
        GpuModel("T4", 16, source="https://www.nvidia.com/en-us/data-center/tesla-t4/"),
        GpuModel("A10", 24, source="https://www.nvidia.com/en-us/data-center/products/a10-gpu/"),
        GpuModel("L4", 24, source="https://www.nvidia.com/en-us/data-center/l4/"),
        GpuModel("L20", 48, source="https://www.nvidia.com/en-us/data-center/l20/"),
        GpuModel("L40S", 48, source="https://www.nvidia.com/en-us/data-center/l40s/"),
    )
}
