"""Azure storage facts the GPU platform relies on: the local NVMe cache of GPU VMs (BP-18).

Sources (Microsoft Learn, Azure Container Storage version 2.x; MicrosoftDocs/azure-docs,
articles/storage/container-storage/):

- "Install Azure Container Storage for use with AKS" (install-container-storage-aks.md): the
  v2 AKS extension type ``microsoft.azurecontainerstoragev2``, named ``acstor`` ("for Azure CLI
  compatibility"), configured with ``enable-azure-container-storage: "true"``; its components
  run in ``kube-system``. The installer (``acstor-cluster-manager``, 2.1.x and later) installs
  the local NVMe CSI driver when a StorageClass of that driver is created. Version selection:
  only the major version can be pinned ("minor/patch pinning isn't supported"); the Terraform
  flow sets no version and "updates itself automatically".
- "Azure Container Storage release notes" (container-storage-release-notes.md): 2.0.0 renamed
  the local NVMe provisioner from ``containerstorage.csi.azure.com`` to
  ``localdisk.csi.acstor.io``; 1.x (still released, e.g. 1.4.1) is the extension type
  ``microsoft.azurecontainerstorage`` named ``azurecontainerstorage``; an extension upgrade can
  briefly interrupt I/O.
- "Use Azure Container Storage with local NVMe" (use-container-storage-with-local-disk.md): the
  StorageClass (``localdisk.csi.acstor.io``, ``WaitForFirstConsumer``, reclaim ``Delete``); data
  on those disks is lost when the VM is deallocated or redeployed. The driver is open source:
  github.com/Azure/local-csi-driver.
"""

from __future__ import annotations

from types import MappingProxyType

LOCAL_NVME_PROVISIONER = "localdisk.csi.acstor.io"
"""Azure Container Storage's local NVMe CSI driver (v2): the provisioner of the cache StorageClass
(components/aks/nvme_cache.py) and what the policy ``nvme-cache-volumes-ephemeral`` looks for."""

ACSTOR_EXTENSION_TYPE = "microsoft.azurecontainerstoragev2"
"""AKS extension type of Azure Container Storage version 2.x (the one with
``localdisk.csi.acstor.io``)."""
ACSTOR_V1_EXTENSION_TYPE = "microsoft.azurecontainerstorage"
"""The version 1.x extension type (StoragePools, provisioner ``containerstorage.csi.azure.com``):
not what the cache uses; v1 must be removed before v2 is installed."""
ACSTOR_EXTENSION_NAME = "acstor"
"""Extension name Microsoft requires for v2 (the Azure CLI manages it under this name)."""
ACSTOR_NAMESPACE = "kube-system"
"""Where the v2 components run."""
ACSTOR_CONFIGURATION_SETTINGS = MappingProxyType({"enable-azure-container-storage": "true"})
"""Configuration settings of the v2 extension, as Microsoft's Terraform install sets them."""
NVME_DISKS_BESIDE_EPHEMERAL_OS = 2
"""With fewer local NVMe disks than this, an ephemeral OS disk may take the only one and leave
the cache none: Microsoft's AKS NVMe guidance is a size with two or more NVMe disks, or a
managed OS disk (https://learn.microsoft.com/azure/aks/best-practices-storage-nvme)."""
NVME_CACHE_STORAGE_CLASS = "gpu-nvme-cache-ephemeral"
"""The StorageClass of our NVMe cache (``components.aks.nvme_cache.STORAGE_CLASS_NAME`` creates it;
``make verify`` looks for it)."""
NVME_CACHE_BINDING_MODE = "WaitForFirstConsumer"
NVME_CACHE_RECLAIM_POLICY = "Delete"
"""The cache StorageClass binds where the pod lands and drops the volume after it (the volume
lives on one node's disks; "Use Azure Container Storage with local NVMe", above): what
``components.aks.nvme_cache`` creates and ``make verify`` expects."""
LOCAL_NVME_TOPOLOGY_KEY = "topology.localdisk.csi.acstor.io/node"
"""The driver's topology key (``TopologyKey`` in Azure/local-csi-driver
``internal/csi/core/lvm/lvm.go``): the kubelet labels a node with it, value the node's name, once
the driver's node plugin registered there (CSI ``NodeGetInfo`` topology).

The driver also publishes each node's free space: its ``CSIDriver`` sets
``storageCapacity: true`` (lvm.go) and its chart runs the external-provisioner with
``--enable-capacity`` and ``--node-deployment`` (``charts/latest/templates/daemonset.yaml``,
``NAMESPACE`` from the pod), which writes one ``CSIStorageCapacity`` per StorageClass of the
driver and node, ``nodeTopology`` selecting this key with the node's name, in the driver's
namespace (``ACSTOR_NAMESPACE``). Its ``capacity`` is what the node's volume group has free, not
the disks' size."""
