"""GPU facts: one source of truth for GPU models, MIG profiles, cloud machine types (Azure,
Alibaba, AWS, Google Cloud),
scheduler resource names and the capacity model.

Shared by the Pulumi components, the stack-config validation and the CrossGuard policy pack;
it lives inside the policy pack so that the pack still loads on its own.
"""

from .ack.machine_types import ECS_INSTANCE_TYPES
from .aks.machine_types import AZURE_CPU_VM_SIZES, AZURE_VM_SIZES
from .aks.mig import AKS_MIG_PROFILES, AKS_MIG_TO_NVIDIA
from .capacity import (
    ACK_SHARING_MODES,
    DEVICE_PLUGIN_SHARING_MODES,
    Capacity,
    MigStrategy,
    PoolShape,
    SharingMode,
    mig_instances_per_gpu,
    pool_capacity,
)
from .eks.machine_types import ACCELERATED_AMI_TYPES, AWS_INSTANCE_TYPES
from .gke.machine_types import GCP_ACCELERATORS, GCP_GPU_MACHINE_TYPES
from .gpu_models import GPU_MODELS
from .lookup import (
    CatalogueMachine,
    UnknownGpuFact,
    aks_mig_profile,
    aws_instance_type,
    azure_node_size,
    azure_vm_size,
    catalogue_machine,
    ecs_instance_type,
    gcp_accelerator,
    gpu_model,
    mig_profile,
)
from .models import (
    MIG_COMPUTE_SLICES,
    MIG_MEMORY_SLICES,
    AwsInstanceType,
    AzureCpuVmSize,
    AzureVmSize,
    EcsInstanceType,
    GcpAccelerator,
    GpuModel,
    MigProfile,
)

__all__ = [
    "ACCELERATED_AMI_TYPES",
    "ACK_SHARING_MODES",
    "AKS_MIG_PROFILES",
    "AKS_MIG_TO_NVIDIA",
    "AWS_INSTANCE_TYPES",
    "AZURE_CPU_VM_SIZES",
    "AZURE_VM_SIZES",
    "DEVICE_PLUGIN_SHARING_MODES",
    "ECS_INSTANCE_TYPES",
    "GCP_ACCELERATORS",
    "GCP_GPU_MACHINE_TYPES",
    "GPU_MODELS",
    "MIG_COMPUTE_SLICES",
    "MIG_MEMORY_SLICES",
    "AwsInstanceType",
    "AzureCpuVmSize",
    "AzureVmSize",
    "Capacity",
    "CatalogueMachine",
    "EcsInstanceType",
    "GcpAccelerator",
    "GpuModel",
    "MigProfile",
    "MigStrategy",
    "PoolShape",
    "SharingMode",
    "UnknownGpuFact",
    "aks_mig_profile",
    "aws_instance_type",
    "azure_node_size",
    "azure_vm_size",
    "catalogue_machine",
    "ecs_instance_type",
    "gcp_accelerator",
    "gpu_model",
    "mig_instances_per_gpu",
    "mig_profile",
    "pool_capacity",
]
