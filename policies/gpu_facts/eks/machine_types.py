"""Amazon EC2 GPU instance types that EKS GPU node groups use, and the EKS AMI types that
carry the NVIDIA driver.

Every (instance type, GPU model, GPUs) row below was checked against the Karpenter project's
generated instance-type reference (aws/karpenter-provider-aws,
``website/content/en/docs/reference/instance-types.md``; published at
https://karpenter.sh/docs/reference/instance-types/), which prints EC2's own
``DescribeInstanceTypes`` answer per size: ``instance-gpu-name``, ``instance-gpu-count`` and
``instance-gpu-memory`` (MiB per GPU). Each family's ``source`` is that page's section for the
family. The per-GPU memory there agrees with the catalog's GPU models: A10G and L4 22888 MiB
(24 GB as marketed), L40S 45776 MiB (48 GB), T4 16384, V100 16384 (p3) and 32768 (p3dn),
A100 40960 (p4d) and 81920 (p4de), H100 81920 (p5), H200 144384 (p5e, p5en: 141 GB).
AWS's own page for these numbers is Amazon EC2 "Accelerated computing instance types"
(https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html); the older EC2 User Guide
table it replaced gives the same counts for g4dn, g5, p3 and p3dn.

G4ad (AMD Radeon Pro V520, 8 GiB each) is read from AWS's own page (``AWS_SPECS_PAGE``,
"Performance specifications": 1 GPU on xlarge to 4xlarge, 2 on 8xlarge, 4 on 16xlarge); EKS
has no AMI type with AMD's driver, so a G4ad node group is a GPU pool by its instance type only.

Not listed: ``p5.4xlarge`` (EC2's answer as printed there gives it 0 GPUs, so no count is
confirmed) and g5g (Graviton with T4G).

AMI types: Amazon EKS API reference, ``Nodegroup.amiType``
(https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html: its valid values
include the two Bottlerocket NVIDIA FIPS variants), and "Use EKS
optimized accelerated AMIs" (https://docs.aws.amazon.com/eks/latest/userguide/ml-eks-optimized-ami.html).
"""

from __future__ import annotations

from ..models import AwsInstanceType

AWS_SPECS_PAGE = "https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html"
"""AWS's page for accelerated computing instance specifications (named in docs/gpu-facts.md)."""
_KARPENTER = "https://karpenter.sh/docs/reference/instance-types/"

ACCELERATED_AMI_TYPES: frozenset[str] = frozenset(
    {
        "AL2_x86_64_GPU",
        "AL2023_x86_64_NVIDIA",
        "AL2023_ARM_64_NVIDIA",
        "BOTTLEROCKET_x86_64_NVIDIA",
        "BOTTLEROCKET_ARM_64_NVIDIA",
        "BOTTLEROCKET_x86_64_NVIDIA_FIPS",
        "BOTTLEROCKET_ARM_64_NVIDIA_FIPS",
    }
)
"""EKS ``amiType`` values whose nodes come with the NVIDIA driver: a node group using one is a
GPU node group even when its instance type is not in the catalog."""
AMI_TYPES_SOURCE = "https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html"


def family_source(family: str) -> str:
    """The page section that states one family's GPU model and counts."""
    return f"{_KARPENTER}#{family}-family"


def _family(
    family: str, gpu_model: str, sizes: tuple[tuple[str, int], ...], source: str = ""
) -> tuple[AwsInstanceType, ...]:
    """Types of one family: (size, GPUs); the source is the family's Karpenter section unless
    given."""
    source = source or family_source(family)
    return tuple(
        AwsInstanceType(f"{family}.{size}", family, gpu_model, gpus, source) for size, gpus in sizes
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
        # G4ad: AMD Radeon Pro V520 8GB (AWS's specifications page).
        *_family(
            "g4ad",
            "Radeon-Pro-V520",
            (("xlarge", 1), ("2xlarge", 1), ("4xlarge", 1), ("8xlarge", 2), ("16xlarge", 4)),
            AWS_SPECS_PAGE,
        ),
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
