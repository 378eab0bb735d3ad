"""An AKS GPU pool: an Azure VM size from the catalogue, AKS's node hardening, its NVMe cache
and OS. (The AKS cluster's own settings are in ``clusters``.)"""

from __future__ import annotations

from pydantic import StrictBool

from .pools import AksNodeSettings, AksOsSku, ManagedGpuPoolSettings


class AksGpuPoolSettings(AksNodeSettings, ManagedGpuPoolSettings):
    """A GPU pool of an AKS cluster (``cloud: aks``)."""

    vm_size: str
    """Azure VM size with GPUs, from the catalogue (``gpu_facts.aks.machine_types``)."""
    nvme: StrictBool = False
    """Offer the VM's local NVMe disks as an ephemeral cache StorageClass."""
    os_sku: AksOsSku = "Ubuntu"
    """Node OS: ``Ubuntu`` (default), ``Ubuntu2204``, ``AzureLinux``, ``AzureLinux3``; MIG needs
    Ubuntu."""
