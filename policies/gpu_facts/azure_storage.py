"""Azure storage facts the GPU platform relies on: the local NVMe cache of GPU VMs (BP-18).

Source: Microsoft Learn, "Use Azure Container Storage with local NVMe"
(https://learn.microsoft.com/azure/storage/container-storage/use-container-storage-with-local-disk),
for Azure Container Storage version 2.x: its StorageClass for local NVMe names this CSI driver
as the provisioner. Data on those disks is lost when the VM is deallocated or redeployed.
"""

from __future__ import annotations

LOCAL_NVME_PROVISIONER = "localdisk.csi.acstor.io"
"""Azure Container Storage's local NVMe CSI driver: the provisioner of the cache StorageClass
(components/nvme_cache.py) and what the policy ``nvme-cache-volumes-ephemeral`` looks for."""
