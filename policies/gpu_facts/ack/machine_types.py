"""Alibaba Cloud ECS GPU instance types used for ACK GPU node pools.

Source: Alibaba Cloud ECS documentation, "GPU-accelerated compute-optimized instance
families" (one table per family: GPUs and "GPU memory" per type). gn7 and gn7e list only
"40 GB × n" / "80 GB × n": their GPU is the A100 40GB / 80GB that Alibaba's price list
names. gn8v and gn8v-tee are left out: the page does not name their 96 GB GPU.
"""

from __future__ import annotations

from ..models import EcsInstanceType

_DOCS = (
    "https://www.alibabacloud.com/help/en/ecs/user-guide/"
    "gpu-accelerated-compute-optimized-and-vgpu-accelerated-instance-families-1"
)


GPU_FAMILY_PREFIXES = ("gn", "vgn", "sgn", "ebmgn")
"""ECS instance families with GPUs: the GPU-accelerated compute-optimized ``gn*`` and their
bare-metal ``ebmgn*``, the vGPU-accelerated ``vgn*`` and ``sgn*`` (the same page): never a
type for system or CPU pools."""


def ecs_family(instance_type: str) -> str:
    """The family of an ECS type: ``ecs.gn7i-c8g1.2xlarge`` -> ``gn7i``, ``ecs.g7.xlarge`` ->
    ``g7``."""
    family = instance_type.removeprefix("ecs.")
    return family.split(".", 1)[0].split("-", 1)[0]


def has_gpus(instance_type: str) -> bool:
    """Whether an ECS type belongs to a GPU family (catalogued or not)."""
    return instance_type in ECS_INSTANCE_TYPES or ecs_family(instance_type).startswith(
        GPU_FAMILY_PREFIXES
    )


def _family(
    family: str, gpu_model: str, gpu_memory_gb: int, sizes: tuple[tuple[str, int], ...]
) -> tuple[EcsInstanceType, ...]:
    """Types of one family: (size suffix, GPUs); every GPU of a family has the same memory."""
    return tuple(
        EcsInstanceType(f"ecs.{family}{size}", family, gpu_model, gpus, gpu_memory_gb, _DOCS)
        for size, gpus in sizes
    )


ECS_INSTANCE_TYPES: dict[str, EcsInstanceType] = {
    it.name: it
    for it in (
        # gn8is: NVIDIA L20 48GB.
        *_family(
            "gn8is",
            "L20",
            48,
            (
                (".2xlarge", 1),
                (".4xlarge", 1),
                ("-2x.8xlarge", 2),
                ("-4x.16xlarge", 4),
                ("-8x.32xlarge", 8),
            ),
        ),
        # gn7e: A100 80GB.
        *_family(
            "gn7e",
            "A100-80GB",
            80,
            (
                ("-c16g1.4xlarge", 1),
                ("-c16g1.8xlarge", 2),
                ("-c16g1.16xlarge", 4),
                ("-c16g1.32xlarge", 8),
            ),
        ),
        # gn7i: NVIDIA A10 24GB.
        *_family(
            "gn7i",
            "A10",
            24,
            (
                ("-c8g1.2xlarge", 1),
                ("-c16g1.4xlarge", 1),
                ("-c32g1.8xlarge", 1),
                ("-c32g1.16xlarge", 2),
                ("-c32g1.32xlarge", 4),
                ("-c48g1.12xlarge", 1),
                ("-c56g1.14xlarge", 1),
                ("-2x.8xlarge", 2),
                ("-4x.8xlarge", 4),
                ("-4x.16xlarge", 4),
                ("-8x.32xlarge", 8),
                ("-8x.16xlarge", 8),
            ),
        ),
        # gn7: A100 40GB.
        *_family(
            "gn7",
            "A100-40GB",
            40,
            (("-c12g1.3xlarge", 1), ("-c13g1.13xlarge", 4), ("-c13g1.26xlarge", 8)),
        ),
        # gn6i: NVIDIA T4 16GB.
        *_family(
            "gn6i",
            "T4",
            16,
            (
                ("-c4g1.xlarge", 1),
                ("-c8g1.2xlarge", 1),
                ("-c16g1.4xlarge", 1),
                ("-c24g1.6xlarge", 1),
                ("-c40g1.10xlarge", 1),
                ("-c24g1.12xlarge", 2),
                ("-c24g1.24xlarge", 4),
            ),
        ),
        # gn6e: NVIDIA V100 32GB (SXM2).
        *_family(
            "gn6e",
            "V100-32GB",
            32,
            (
                ("-c12g1.3xlarge", 1),
                ("-c12g1.6xlarge", 2),
                ("-c12g1.12xlarge", 4),
                ("-c12g1.24xlarge", 8),
            ),
        ),
        # gn6v: NVIDIA V100 16GB (SXM2).
        *_family(
            "gn6v",
            "V100-16GB",
            16,
            (
                ("-c8g1.2xlarge", 1),
                ("-c8g1.4xlarge", 2),
                ("-c8g1.8xlarge", 4),
                ("-c8g1.16xlarge", 8),
                ("-c10g1.20xlarge", 8),
            ),
        ),
    )
}
