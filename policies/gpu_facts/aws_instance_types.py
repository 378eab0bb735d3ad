"""Amazon EC2 GPU instance types that EKS GPU node groups use, and the EKS AMI types that
carry the NVIDIA driver.

Source: Amazon EC2 "Accelerated computing instance types" (accelerator model and count per
type, https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html). AMI types: Amazon EKS
API reference, ``Nodegroup.amiType``
(https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html), and "Use EKS
optimized accelerated AMIs" (https://docs.aws.amazon.com/eks/latest/userguide/ml-eks-optimized-ami.html).
"""

from __future__ import annotations

from .models import AwsInstanceType

_DOCS = "https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html"

ACCELERATED_AMI_TYPES: frozenset[str] = frozenset(
    {
        "AL2_x86_64_GPU",
        "AL2023_x86_64_NVIDIA",
        "AL2023_ARM_64_NVIDIA",
        "BOTTLEROCKET_x86_64_NVIDIA",
        "BOTTLEROCKET_ARM_64_NVIDIA",
    }
)
"""EKS ``amiType`` values whose nodes come with the NVIDIA driver: a node group using one is a
GPU node group even when its instance type is not in the catalog."""
AMI_TYPES_SOURCE = "https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html"


def _family(
    family: str, gpu_model: str, sizes: tuple[tuple[str, int], ...]
) -> tuple[AwsInstanceType, ...]:
    """Types of one family: (size, GPUs)."""
    return tuple(
        AwsInstanceType(f"{family}.{size}", family, gpu_model, gpus, _DOCS) for size, gpus in sizes
    )


_G_SIZES_4_8 = (
    ("xlarge", 1),
    ("2xlarge", 1),
    ("4xlarge", 1),
    ("8xlarge", 1),
    ("16xlarge", 1),
    ("12xlarge", 4),
    ("24xlarge", 4),
    ("48xlarge", 8),
)
"""The g5, g6 and g6e size ladder: one GPU up to 16xlarge, then 4, 4 and 8."""

AWS_INSTANCE_TYPES: dict[str, AwsInstanceType] = {
    it.name: it
    for it in (
        # P5: H100 80GB; P5e / P5en: H200 141GB.
        *_family("p5", "H100-80GB", (("48xlarge", 8),)),
        *_family("p5e", "H200-141GB", (("48xlarge", 8),)),
        *_family("p5en", "H200-141GB", (("48xlarge", 8),)),
        # P4d: A100 40GB; P4de: A100 80GB.
        *_family("p4d", "A100-40GB", (("24xlarge", 8),)),
        *_family("p4de", "A100-80GB", (("24xlarge", 8),)),
        # P3: V100 16GB; P3dn: V100 32GB.
        *_family("p3", "V100-16GB", (("2xlarge", 1), ("8xlarge", 4), ("16xlarge", 8))),
        *_family("p3dn", "V100-32GB", (("24xlarge", 8),)),
        # G5: A10G 24GB; G6: L4 24GB; G6e: L40S 48GB.
        *_family("g5", "A10G", _G_SIZES_4_8),
        *_family("g6", "L4", _G_SIZES_4_8),
        *_family("g6e", "L40S", _G_SIZES_4_8),
        # G4dn: T4 16GB.
        *_family(
            "g4dn",
            "T4",
            (
                ("xlarge", 1),
                ("2xlarge", 1),
                ("4xlarge", 1),
                ("8xlarge", 1),
                ("16xlarge", 1),
                ("12xlarge", 4),
                ("metal", 8),
            ),
        ),
    )
}
