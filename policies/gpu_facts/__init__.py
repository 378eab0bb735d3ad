"""GPU facts: one source of truth for GPU models, MIG profiles, cloud machine types,
scheduler resource names and the capacity model.

Shared by the Pulumi components, the stack-config validation and the CrossGuard policy pack;
it lives inside the policy pack so that the pack still loads on its own.
"""

from .alibaba_instance_types import ECS_INSTANCE_TYPES
from .azure_mig import AKS_MIG_PROFILES, AKS_MIG_TO_NVIDIA
from .azure_vm_sizes import AZURE_VM_SIZES
from .capacity import Capacity, PoolShape, mig_instances_per_gpu, pool_capacity
from .gpu_models import GPU_MODELS
from .lookup import UnknownGpuFact, aks_mig_profile, azure_vm_size, ecs_instance_type, gpu_model
from .models import AzureVmSize, EcsInstanceType, GpuModel, MigProfile

__all__ = [
    "AKS_MIG_PROFILES",
    "AKS_MIG_TO_NVIDIA",
    "AZURE_VM_SIZES",
    "ECS_INSTANCE_TYPES",
    "GPU_MODELS",
    "AzureVmSize",
    "Capacity",
    "EcsInstanceType",
    "GpuModel",
    "MigProfile",
    "PoolShape",
    "UnknownGpuFact",
    "aks_mig_profile",
    "azure_vm_size",
    "ecs_instance_type",
    "gpu_model",
    "mig_instances_per_gpu",
    "pool_capacity",
]
