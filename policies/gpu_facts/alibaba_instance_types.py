"""Alibaba Cloud ECS GPU instance types used for ACK GPU node pools.

Source: Alibaba Cloud ECS documentation, "GPU-accelerated compute-optimized instance
families" (https://www.alibabacloud.com/help/en/ecs/user-guide/gpu-accelerated-compute-optimized-and-vgpu-accelerated-instance-families-1).
"""

from __future__ import annotations

from .models import EcsInstanceType

_DOCS = (
    "https://www.alibabacloud.com/help/en/ecs/user-guide/"
    "gpu-accelerated-compute-optimized-and-vgpu-accelerated-instance-families-1"
)


def _family(
    family: str, gpu_model: str, sizes: tuple[tuple[str, int], ...]
) -> tuple[EcsInstanceType, ...]:
    return tuple(
        EcsInstanceType(f"ecs.{family}-{size}", family, gpu_model, gpus, _DOCS) for size, gpus in sizes
    )


ECS_INSTANCE_TYPES: dict[str, EcsInstanceType] = {
    it.name: it
    for it in (
        *_family(
            "gn6i",
            "T4",
            (
                ("c4g1.xlarge", 1),
                ("c8g1.2xlarge", 1),
                ("c16g1.4xlarge", 1),
                ("c24g1.6xlarge", 1),
                ("c24g1.12xlarge", 2),
                ("c24g1.24xlarge", 4),
            ),
        ),
        *_family(
            "gn6v",
            "V100-16GB",
            (("c8g1.2xlarge", 1), ("c8g1.8xlarge", 4), ("c8g1.16xlarge", 8)),
        ),
        *_family(
            "gn7i",
            "A10",
            (
                ("c8g1.2xlarge", 1),
                ("c16g1.4xlarge", 1),
                ("c32g1.8xlarge", 1),
                ("c32g1.16xlarge", 2),
                ("c32g1.32xlarge", 4),
                ("c48g1.12xlarge", 1),
                ("c56g1.14xlarge", 1),
            ),
        ),
        *_family(
            "gn7",
            "A100-40GB",
            (("c12g1.3xlarge", 1), ("c13g1.13xlarge", 4), ("c13g1.26xlarge", 8)),
        ),
        *_family(
            "gn7e",
            "A100-80GB",
            (("c16g1.4xlarge", 1), ("c16g1.16xlarge", 4), ("c16g1.32xlarge", 8)),
        ),
    )
}
