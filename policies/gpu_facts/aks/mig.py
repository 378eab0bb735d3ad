"""AKS ``gpuInstanceProfile`` names mapped to the NVIDIA MIG profile on each GPU model.

AKS applies one profile to every GPU of a pool and offers one profile per compute size, the
one with the most instances (https://learn.microsoft.com/azure/aks/gpu-multi-instance: on
Standard_ND96asr_v4 MIG1g is 1g.5gb ×7, MIG2g 2g.10gb ×3, MIG3g 3g.20gb ×2, MIG4g 4g.20gb,
MIG7g 7g.40gb). Variants such as ``1g.10gb`` on an A100 40GB or the ``+me`` profiles are
facts of the GPU (see ``gpu_models``), not choices for an AKS pool. So the mapping is derived
from ``gpu_models`` by that rule, not written again.
"""

from __future__ import annotations

from typing import Literal, get_args

from ..gpu_models import GPU_MODELS
from ..models import GpuModel

AksMigProfile = Literal["MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g"]
"""AKS ``gpuInstanceProfile`` values (the SDK's ``GPUInstanceProfile`` enum)."""
AKS_MIG_PROFILES: tuple[str, ...] = get_args(AksMigProfile)


def _aks_choice(model: GpuModel, aks_profile: str) -> str:
    """The NVIDIA profile AKS means by ``MIG<n>g``: of the profiles with n compute slices, the
    one with the most instances per GPU (so never a ``+me`` one)."""
    slices = int(aks_profile.removeprefix("MIG").removesuffix("g"))
    same_size = [p for p in model.mig_profiles if p.compute_slices == slices]
    return max(same_size, key=lambda p: p.max_per_gpu).name


AKS_MIG_TO_NVIDIA: dict[str, dict[str, str]] = {
    model.name: {aks: _aks_choice(model, aks) for aks in AKS_MIG_PROFILES}
    for model in GPU_MODELS.values()
    if model.mig_capable
}
"""GPU model -> AKS profile -> NVIDIA profile, derived from ``gpu_models``: a new MIG GPU is one
row there, and AKS's names for it follow."""

MIG_NO_AUTOSCALER = "MIG pools cannot use the cluster autoscaler; use a fixed count (BP-12)"
"""Why a MIG pool with the autoscaler on is refused, wherever it is judged (the stack config,
the pool components, the policy pack): AKS does not support the cluster autoscaler on MIG node
pools (Azure/AKS#4216; BP-12)."""
MIG_NOT_ON_AZURE_LINUX = "MIG is not supported on Azure Linux; use Ubuntu (BP-12)"
"""Why a MIG pool on an Azure Linux OS SKU (``aks_nodes.AZURE_LINUX_OS_SKUS``) is refused,
wherever it is judged: AKS MIG node pools run Ubuntu (https://learn.microsoft.com/azure/aks/
gpu-multi-instance; BP-12)."""
