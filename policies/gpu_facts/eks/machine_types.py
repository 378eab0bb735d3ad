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

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class _Family:
    """What every type of one EC2 family shares: its GPU and the page that states it (the
    family's Karpenter section unless given)."""

    family: str
    gpu_model: str
    source: str = ""


def _type(family: _Family, name: str, *, gpu_count: int) -> AwsInstanceType:
    """One instance type: one row with its name and GPUs, its family's facts from the family."""
    return AwsInstanceType(
        name=name,
        family=family.family,
        gpu_model=family.gpu_model,
        gpu_count=gpu_count,
        source=family.source or family_source(family.family),
    )


_P5 = _Family("p5", "H100-80GB")
_P5E = _Family("p5e", "H200-141GB")
_P5EN = _Family("p5en", "H200-141GB")
_P4D = _Family("p4d", "A100-40GB")
_P4DE = _Family("p4de", "A100-80GB")
_P3 = _Family("p3", "V100-16GB")
_P3DN = _Family("p3dn", "V100-32GB")
_G5 = _Family("g5", "A10G")
_G6 = _Family("g6", "L4")
_G6E = _Family("g6e", "L40S")
_G4AD = _Family("g4ad", "Radeon-Pro-V520", AWS_SPECS_PAGE)
_G4DN = _Family("g4dn", "T4")

AWS_INSTANCE_TYPES: dict[str, AwsInstanceType] = {
    it.name: it
    for it in (
        # P5: H100 80GB; P5e / P5en: H200 141GB.
        _type(_P5, "p5.48xlarge", gpu_count=8),
        _type(_P5E, "p5e.48xlarge", gpu_count=8),
        _type(_P5EN, "p5en.48xlarge", gpu_count=8),
        # P4d: A100 40GB; P4de: A100 80GB.
        _type(_P4D, "p4d.24xlarge", gpu_count=8),
        _type(_P4DE, "p4de.24xlarge", gpu_count=8),
        # P3: V100 16GB; P3dn: V100 32GB.
        _type(_P3, "p3.2xlarge", gpu_count=1),
        _type(_P3, "p3.8xlarge", gpu_count=4),
        _type(_P3, "p3.16xlarge", gpu_count=8),
        _type(_P3DN, "p3dn.24xlarge", gpu_count=8),
        # G5: A10G 24GB; G6: L4 24GB; G6e: L40S 48GB.
        _type(_G5, "g5.xlarge", gpu_count=1),
        _type(_G5, "g5.2xlarge", gpu_count=1),
        _type(_G5, "g5.4xlarge", gpu_count=1),
        _type(_G5, "g5.8xlarge", gpu_count=1),
        _type(_G5, "g5.16xlarge", gpu_count=1),
        _type(_G5, "g5.12xlarge", gpu_count=4),
        _type(_G5, "g5.24xlarge", gpu_count=4),
        _type(_G5, "g5.48xlarge", gpu_count=8),
        _type(_G6, "g6.xlarge", gpu_count=1),
        _type(_G6, "g6.2xlarge", gpu_count=1),
        _type(_G6, "g6.4xlarge", gpu_count=1),
        _type(_G6, "g6.8xlarge", gpu_count=1),
        _type(_G6, "g6.16xlarge", gpu_count=1),
        _type(_G6, "g6.12xlarge", gpu_count=4),
        _type(_G6, "g6.24xlarge", gpu_count=4),
        _type(_G6, "g6.48xlarge", gpu_count=8),
        _type(_G6E, "g6e.xlarge", gpu_count=1),
        _type(_G6E, "g6e.2xlarge", gpu_count=1),
        _type(_G6E, "g6e.4xlarge", gpu_count=1),
        _type(_G6E, "g6e.8xlarge", gpu_count=1),
        _type(_G6E, "g6e.16xlarge", gpu_count=1),
        _type(_G6E, "g6e.12xlarge", gpu_count=4),
        _type(_G6E, "g6e.24xlarge", gpu_count=4),
        _type(_G6E, "g6e.48xlarge", gpu_count=8),
        # G4ad: AMD Radeon Pro V520 8GB (AWS's specifications page).
        _type(_G4AD, "g4ad.xlarge", gpu_count=1),
        _type(_G4AD, "g4ad.2xlarge", gpu_count=1),
        _type(_G4AD, "g4ad.4xlarge", gpu_count=1),
        _type(_G4AD, "g4ad.8xlarge", gpu_count=2),
        _type(_G4AD, "g4ad.16xlarge", gpu_count=4),
        # G4dn: T4 16GB.
        _type(_G4DN, "g4dn.xlarge", gpu_count=1),
        _type(_G4DN, "g4dn.2xlarge", gpu_count=1),
        _type(_G4DN, "g4dn.4xlarge", gpu_count=1),
        _type(_G4DN, "g4dn.8xlarge", gpu_count=1),
        _type(_G4DN, "g4dn.16xlarge", gpu_count=1),
        _type(_G4DN, "g4dn.12xlarge", gpu_count=4),
        _type(_G4DN, "g4dn.metal", gpu_count=8),
    )
}
"""EC2 GPU types by name: one row per type (``_type``), its family's facts once above."""
