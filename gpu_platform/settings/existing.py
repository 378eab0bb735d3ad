"""A GPU pool of an existing cluster, in its own terms: what each node has (the GPU model and how
many), or the machine type of the cloud it runs on, from that cloud's catalogue (EKS, GKE, AKS,
ACK). MIG profiles are NVIDIA's names (``1g.10gb``)."""

from __future__ import annotations

from .base import PositiveWhole, SettingsModel
from .pools import GpuPoolSettingsBase


class NodeGpuSettings(SettingsModel):
    model: str
    """GPU model as the catalogue names it (``gpu_facts.gpu_models``), e.g. ``A100-80GB``,
    ``H100-80GB``, ``T4``, ``MI300X``."""
    count: PositiveWhole
    """GPUs per node, e.g. 8 on a DGX."""


class ExistingGpuPoolSettings(GpuPoolSettingsBase):
    """A pool of nodes an existing cluster already has (``cloud: existing``): give ``gpu`` or
    ``machineType``."""

    gpu: NodeGpuSettings | None = None
    """What each node has: ``{model: A100-80GB, count: 8}`` (on-premises, a DGX, any cloud)."""
    machine_type: str | None = None
    """Or the machine type of the cloud the cluster runs on, from its catalogue: an EKS instance
    type (``p5.48xlarge``), a GKE machine type (``a3-highgpu-8g``), an Azure VM size
    (``Standard_ND96asr_v4``) or an ECS instance type (``ecs.gn7i-c8g1.2xlarge``)."""
