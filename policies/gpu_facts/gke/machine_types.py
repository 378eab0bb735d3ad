"""Google Cloud GPUs as GKE node pools name them.

Accelerator types (``nodeConfig.guestAccelerators[].type``): Compute Engine "GPU machine
types" (https://cloud.google.com/compute/docs/gpus). The accelerator-optimized machine types
come with their GPUs attached, so a pool of them has GPUs without ``guestAccelerators``:
"Accelerator-optimized machine family"
(https://cloud.google.com/compute/docs/accelerator-optimized-machines).

Checked against Google-authored copies: the accelerator names and their GPUs against GKE's
"Deploy GPU workloads in Autopilot" (https://cloud.google.com/kubernetes-engine/docs/how-to/autopilot-gpus:
``nvidia-h200-141gb`` H200 141GB, ``nvidia-h100-mega-80gb`` H100 Mega 80GB, ``nvidia-h100-80gb``,
``nvidia-a100-80gb``, ``nvidia-tesla-a100`` A100 40GB, ``nvidia-l4``, ``nvidia-tesla-t4``); the
N1 accelerators ``nvidia-tesla-v100`` / ``-p100`` / ``-p4`` against the names Compute Engine
lists for N1; every machine type below except ``a3-edgegpu-8g`` against Google's Cluster
Toolkit map of machine type to (accelerator, count)
(https://github.com/GoogleCloudPlatform/cluster-toolkit/blob/main/modules/internal/gpu-definition/main.tf);
A3 Edge against "Create an A3, A2 or G2 VM" (H100 80GB attached) and GKE's ComputeClass example
for ``a3-edgegpu-8g-nolssd`` (8 x ``nvidia-h100-80gb``).

GKE taints GPU nodes with key ``nvidia.com/gpu`` and effect ``NoSchedule`` (when the cluster
also runs a non-GPU pool; a cluster of GPU pools only has nothing to keep off them) and its
``ExtendedResourceToleration`` admission adds the matching toleration to pods that ask for
``nvidia.com/gpu``; Google installs the device plugin ("Run GPUs in GKE Standard node pools",
https://cloud.google.com/kubernetes-engine/docs/how-to/gpus).
"""

from __future__ import annotations

from ..models import GcpAccelerator

_GPUS = "https://cloud.google.com/compute/docs/gpus"
_MACHINES = "https://cloud.google.com/compute/docs/accelerator-optimized-machines"
GKE_GPUS_SOURCE = "https://cloud.google.com/kubernetes-engine/docs/how-to/gpus"

GKE_NODE_POOL_LABEL = "cloud.google.com/gke-nodepool"
"""Label GKE puts on every node: the name of its node pool."""
GKE_ACCELERATOR_LABEL = "cloud.google.com/gke-accelerator"
"""Label GKE puts on GPU nodes: the accelerator type."""

GKE_DCGM_COMPONENT = "DCGM"
"""``monitoringConfig.enableComponents`` value that turns on GKE's managed DCGM metrics: Google
runs the exporter on the cluster's GPU nodes (GKE API ``MonitoringComponentConfig.Component``;
"Collect and view DCGM metrics")."""

GCP_ACCELERATORS: dict[str, GcpAccelerator] = {
    a.name: a
    for a in (
        GcpAccelerator("nvidia-tesla-t4", "T4", source=_GPUS),
        GcpAccelerator("nvidia-l4", "L4", source=_GPUS),
        GcpAccelerator("nvidia-tesla-a100", "A100-40GB", source=_GPUS),
        GcpAccelerator("nvidia-a100-80gb", "A100-80GB", source=_GPUS),
        GcpAccelerator("nvidia-h100-80gb", "H100-80GB", source=_GPUS),
        GcpAccelerator("nvidia-h100-mega-80gb", "H100-80GB", source=_GPUS),
        GcpAccelerator("nvidia-h200-141gb", "H200-141GB", source=_GPUS),
        GcpAccelerator("nvidia-tesla-v100", "V100-16GB", source=_GPUS),
        GcpAccelerator("nvidia-tesla-p100", "P100", source=_GPUS),
        GcpAccelerator("nvidia-tesla-p4", "P4", source=_GPUS),
    )
}
"""GKE accelerator types."""


def _machine(series: str, name: str, *, gpu_model: str, gpu_count: int) -> GcpAccelerator:
    """One machine type: one row with its GPU and how many it comes with (``series`` checks the
    name belongs to the series it is listed under)."""
    assert name.startswith(f"{series}-"), name
    return GcpAccelerator(name=name, gpu_model=gpu_model, gpu_count=gpu_count, source=_MACHINES)


GCP_GPU_MACHINE_TYPES: dict[str, GcpAccelerator] = {
    m.name: m
    for m in (
        # A2 Standard: A100 40GB; A2 Ultra: A100 80GB.
        _machine("a2-highgpu", "a2-highgpu-1g", gpu_model="A100-40GB", gpu_count=1),
        _machine("a2-highgpu", "a2-highgpu-2g", gpu_model="A100-40GB", gpu_count=2),
        _machine("a2-highgpu", "a2-highgpu-4g", gpu_model="A100-40GB", gpu_count=4),
        _machine("a2-highgpu", "a2-highgpu-8g", gpu_model="A100-40GB", gpu_count=8),
        _machine("a2-megagpu", "a2-megagpu-16g", gpu_model="A100-40GB", gpu_count=16),
        _machine("a2-ultragpu", "a2-ultragpu-1g", gpu_model="A100-80GB", gpu_count=1),
        _machine("a2-ultragpu", "a2-ultragpu-2g", gpu_model="A100-80GB", gpu_count=2),
        _machine("a2-ultragpu", "a2-ultragpu-4g", gpu_model="A100-80GB", gpu_count=4),
        _machine("a2-ultragpu", "a2-ultragpu-8g", gpu_model="A100-80GB", gpu_count=8),
        # A3: H100 80GB; A3 Ultra: H200 141GB.
        _machine("a3-highgpu", "a3-highgpu-1g", gpu_model="H100-80GB", gpu_count=1),
        _machine("a3-highgpu", "a3-highgpu-2g", gpu_model="H100-80GB", gpu_count=2),
        _machine("a3-highgpu", "a3-highgpu-4g", gpu_model="H100-80GB", gpu_count=4),
        _machine("a3-highgpu", "a3-highgpu-8g", gpu_model="H100-80GB", gpu_count=8),
        _machine("a3-megagpu", "a3-megagpu-8g", gpu_model="H100-80GB", gpu_count=8),
        _machine("a3-edgegpu", "a3-edgegpu-8g", gpu_model="H100-80GB", gpu_count=8),
        _machine("a3-ultragpu", "a3-ultragpu-8g", gpu_model="H200-141GB", gpu_count=8),
        # G2: L4.
        _machine("g2-standard", "g2-standard-4", gpu_model="L4", gpu_count=1),
        _machine("g2-standard", "g2-standard-8", gpu_model="L4", gpu_count=1),
        _machine("g2-standard", "g2-standard-12", gpu_model="L4", gpu_count=1),
        _machine("g2-standard", "g2-standard-16", gpu_model="L4", gpu_count=1),
        _machine("g2-standard", "g2-standard-32", gpu_model="L4", gpu_count=1),
        _machine("g2-standard", "g2-standard-24", gpu_model="L4", gpu_count=2),
        _machine("g2-standard", "g2-standard-48", gpu_model="L4", gpu_count=4),
        _machine("g2-standard", "g2-standard-96", gpu_model="L4", gpu_count=8),
    )
}
"""GCE machine types that come with GPUs (accelerator-optimized families)."""
