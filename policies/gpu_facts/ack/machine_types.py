"""Alibaba Cloud ECS GPU instance types used for ACK GPU node pools.

Source: Alibaba Cloud ECS documentation, "GPU-accelerated compute-optimized instance
families" (one table per family: GPUs and "GPU memory" per type). gn7 and gn7e list only
"40 GB × n" / "80 GB × n": their GPU is the A100 40GB / 80GB that Alibaba's price list
names. gn8v and gn8v-tee are left out: the page does not name their 96 GB GPU.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class _Family:
    """What every type of one ECS family shares: its GPU and that GPU's memory as listed."""

    family: str
    gpu_model: str
    gpu_memory_gb: int


def _type(family: _Family, name: str, *, gpu_count: int) -> EcsInstanceType:
    """One instance type: one row with its name and GPUs, its family's facts from the family."""
    return EcsInstanceType(
        name=name,
        family=family.family,
        gpu_model=family.gpu_model,
        gpu_count=gpu_count,
        gpu_memory_gb=family.gpu_memory_gb,
        source=_DOCS,
    )


_GN8IS = _Family("gn8is", "L20", 48)
_GN7E = _Family("gn7e", "A100-80GB", 80)
_GN7I = _Family("gn7i", "A10", 24)
_GN7 = _Family("gn7", "A100-40GB", 40)
_GN6I = _Family("gn6i", "T4", 16)
_GN6E = _Family("gn6e", "V100-32GB", 32)
_GN6V = _Family("gn6v", "V100-16GB", 16)

ECS_INSTANCE_TYPES: dict[str, EcsInstanceType] = {
    it.name: it
    for it in (
        # gn8is: NVIDIA L20 48GB.
        _type(_GN8IS, "ecs.gn8is.2xlarge", gpu_count=1),
        _type(_GN8IS, "ecs.gn8is.4xlarge", gpu_count=1),
        _type(_GN8IS, "ecs.gn8is-2x.8xlarge", gpu_count=2),
        _type(_GN8IS, "ecs.gn8is-4x.16xlarge", gpu_count=4),
        _type(_GN8IS, "ecs.gn8is-8x.32xlarge", gpu_count=8),
        # gn7e: A100 80GB.
        _type(_GN7E, "ecs.gn7e-c16g1.4xlarge", gpu_count=1),
        _type(_GN7E, "ecs.gn7e-c16g1.8xlarge", gpu_count=2),
        _type(_GN7E, "ecs.gn7e-c16g1.16xlarge", gpu_count=4),
        _type(_GN7E, "ecs.gn7e-c16g1.32xlarge", gpu_count=8),
        # gn7i: NVIDIA A10 24GB.
        _type(_GN7I, "ecs.gn7i-c8g1.2xlarge", gpu_count=1),
        _type(_GN7I, "ecs.gn7i-c16g1.4xlarge", gpu_count=1),
        _type(_GN7I, "ecs.gn7i-c32g1.8xlarge", gpu_count=1),
        _type(_GN7I, "ecs.gn7i-c32g1.16xlarge", gpu_count=2),
        _type(_GN7I, "ecs.gn7i-c32g1.32xlarge", gpu_count=4),
        _type(_GN7I, "ecs.gn7i-c48g1.12xlarge", gpu_count=1),
        _type(_GN7I, "ecs.gn7i-c56g1.14xlarge", gpu_count=1),
        _type(_GN7I, "ecs.gn7i-2x.8xlarge", gpu_count=2),
        _type(_GN7I, "ecs.gn7i-4x.8xlarge", gpu_count=4),
        _type(_GN7I, "ecs.gn7i-4x.16xlarge", gpu_count=4),
        _type(_GN7I, "ecs.gn7i-8x.32xlarge", gpu_count=8),
        _type(_GN7I, "ecs.gn7i-8x.16xlarge", gpu_count=8),
        # gn7: A100 40GB.
        _type(_GN7, "ecs.gn7-c12g1.3xlarge", gpu_count=1),
        _type(_GN7, "ecs.gn7-c13g1.13xlarge", gpu_count=4),
        _type(_GN7, "ecs.gn7-c13g1.26xlarge", gpu_count=8),
        # gn6i: NVIDIA T4 16GB.
        _type(_GN6I, "ecs.gn6i-c4g1.xlarge", gpu_count=1),
        _type(_GN6I, "ecs.gn6i-c8g1.2xlarge", gpu_count=1),
        _type(_GN6I, "ecs.gn6i-c16g1.4xlarge", gpu_count=1),
        _type(_GN6I, "ecs.gn6i-c24g1.6xlarge", gpu_count=1),
        _type(_GN6I, "ecs.gn6i-c40g1.10xlarge", gpu_count=1),
        _type(_GN6I, "ecs.gn6i-c24g1.12xlarge", gpu_count=2),
        _type(_GN6I, "ecs.gn6i-c24g1.24xlarge", gpu_count=4),
        # gn6e: NVIDIA V100 32GB (SXM2).
        _type(_GN6E, "ecs.gn6e-c12g1.3xlarge", gpu_count=1),
        _type(_GN6E, "ecs.gn6e-c12g1.6xlarge", gpu_count=2),
        _type(_GN6E, "ecs.gn6e-c12g1.12xlarge", gpu_count=4),
        _type(_GN6E, "ecs.gn6e-c12g1.24xlarge", gpu_count=8),
        # gn6v: NVIDIA V100 16GB (SXM2).
        _type(_GN6V, "ecs.gn6v-c8g1.2xlarge", gpu_count=1),
        _type(_GN6V, "ecs.gn6v-c8g1.4xlarge", gpu_count=2),
        _type(_GN6V, "ecs.gn6v-c8g1.8xlarge", gpu_count=4),
        _type(_GN6V, "ecs.gn6v-c8g1.16xlarge", gpu_count=8),
        _type(_GN6V, "ecs.gn6v-c10g1.20xlarge", gpu_count=8),
    )
}
"""ECS GPU types by name: one row per type (``_type``), its family's facts once above."""
