"""What AKS allows on a node pool's nodes, and what its node-hardening options are called.

Sources beside each fact. The local disks of each VM size (what an ephemeral OS disk needs)
are in ``aks.machine_types``.
"""

from __future__ import annotations

AKS_MAX_PODS_SOURCE = (
    "https://learn.microsoft.com/azure/aks/concepts-network-ip-address-planning"
    "#maximum-pods-per-node"
)
AKS_MAX_PODS = 250
""""The maximum number of pods per node in an AKS cluster is 250" (Azure CNI Overlay's
default too, so an unset ``maxPods`` means 250 pods' worth of kubelet memory reservation)."""
AKS_KUBE_RESERVED_MB_PER_POD = 20
"""From Kubernetes 1.29 AKS reserves for the kubelet "the lesser value of: 20 MB * Max Pods
supported on the Node + 50 MB or 25% of the total system memory resources"
(https://learn.microsoft.com/azure/aks/node-resource-reservations): a lower ``maxPods`` leaves
pods more memory."""
AKS_MIN_MAX_PODS = 10
""""The minimum value that can be set for maximum pods per node is 10"."""
AKS_SYSTEM_POOL_MIN_PODS = 30
""""System node pools must support at least 30 pods"
(https://learn.microsoft.com/azure/aks/use-system-pools)."""

AKS_POOL_NAME_PATTERN = r"^[a-z][a-z0-9]{0,11}$"
"""A Linux node pool name: lowercase letters and digits, a letter first, 1 to 12 characters
(https://learn.microsoft.com/azure/aks/create-node-pools, "Limitations")."""
AKS_ZONES: tuple[str, ...] = ("1", "2", "3")
"""Availability zones a node pool can spread over, in regions that have zones
(https://learn.microsoft.com/azure/aks/availability-zones)."""

OS_DISK_MIN_GIB = 30
"""Smallest OS disk we accept: "Standard Ubuntu server image from marketplace is about 30 GiB"
(``EPHEMERAL_OS_DISKS`` in ``aks.machine_types``)."""
OS_DISK_MAX_GIB = 2048
"""``osDiskSizeGB`` maximum in the AKS agent pool API (ContainerServiceOSDisk)."""
EPHEMERAL_OS_DISK_MAX_GIB = 2040
"""An ephemeral OS disk is at most the "Cache, temp, or NVMe disk size for the VM size or
2,040 GiB, whichever is smaller" (``EPHEMERAL_OS_DISKS``)."""

CREATION_ONLY_POOL_PROPERTIES: tuple[str, ...] = (
    "enableEncryptionAtHost",
    "maxPods",
    "osDiskSizeGB",
    "osDiskType",
)
"""Agent pool properties AKS sets only when a pool is created: encryption at host "can only be
set at cluster or node pool creation time" (https://learn.microsoft.com/azure/aks/
enable-host-encryption); "Set maxPods at cluster or node-pool creation. To change it later,
create a new node pool" (``AKS_MAX_PODS_SOURCE``); the OS disk type "May not be changed after
creation" (the API's ``osDiskType``) and an OS disk is sized "during VM creation only"
(``EPHEMERAL_OS_DISKS``)."""

ENCRYPTION_AT_HOST_FEATURE = "Microsoft.Compute/EncryptionAtHost"
"""The subscription feature encryption at host needs: ``az feature register --namespace
Microsoft.Compute --name EncryptionAtHost``, then ``az provider register --namespace
Microsoft.Compute`` (https://learn.microsoft.com/azure/virtual-machines/linux/
disks-enable-host-based-encryption-cli, "Prerequisites")."""

AZURE_POLICY_ADDON = "azurepolicy"
"""``addonProfiles`` key of the Azure Policy add-on (Gatekeeper, managed by Azure Policy)
(https://learn.microsoft.com/azure/governance/policy/concepts/policy-for-kubernetes)."""
DEFENDER_SOURCE = (
    "https://learn.microsoft.com/azure/defender-for-cloud/defender-for-containers-enable"
)
"""Defender for Containers' sensor: ``securityProfile.defender`` with a Log Analytics workspace
and ``securityMonitoring.enabled``; the subscription's Defender for Containers plan bills it."""

# --- Node images (BP-06) ---------------------------------------------------------------------

NODE_IMAGE_VERSION_LABEL = "kubernetes.azure.com/node-image-version"
"""The node label AKS sets to the node's image (VHD) version, e.g.
``AKSUbuntu-2204gen2containerd-202405.20.0``: an AKS reserved label
(https://learn.microsoft.com/azure/aks/use-labels, "Reserved system labels"), and how AKS says to
tell whether a ``NodeImage`` or ``SecurityPatch`` upgrade reached a node: "the base node image
version is ``AKSUbuntu-2204gen2containerd``. If applicable, the security patch version typically
follows" (https://learn.microsoft.com/azure/aks/auto-upgrade-node-os-image, FAQ "How do I know if a
SecurityPatch or NodeImage upgrade is applied on my node?"). Older images wrote the date as
``AKSUbuntu-1804-2020.03.05`` (the use-labels table)."""
AUTO_NODE_IMAGE_CHANNELS: frozenset[str] = frozenset({"NodeImage", "SecurityPatch"})
"""Node OS upgrade channels that roll nodes onto a new VHD: both on a weekly cadence ("Update
ownership and schedule" in auto-upgrade-node-os-image). ``Unmanaged`` patches the running OS
(unattended-upgrades) without a new image, ``None`` does nothing: with either, the image label
never moves."""
NODE_IMAGE_CLUSTER_CHANNEL = "node-image"
"""The cluster auto-upgrade channel that also sets the node OS channel to ``NodeImage`` ("Node
channel known limitations" in auto-upgrade-node-os-image)."""
NODE_IMAGE_MAX_AGE_DAYS = 35
"""How old a node image may be on a pool an automatic channel keeps current. "Linux node images
are updated weekly" and a release can take "up to two weeks" to reach every region
(https://learn.microsoft.com/azure/aks/upgrade-node-image; "up to a week" in its older text); the
channel applies it in its weekly maintenance window (default cadence "Weekly"). 7 days of release
cadence + 14 of roll-out + 7 to the next window = 28; a week more for one release held back.
Older than this, the channel is not working (no window, a failing upgrade) or, without a
channel, newer images are waiting."""

AKS_AMD_GPUS_SOURCE = "https://learn.microsoft.com/azure/aks/use-amd-gpus"
GPU_DRIVER_INSTALL = "Install"
GPU_DRIVER_NONE = "None"
"""``gpuProfile.driver`` of an agent pool (API 2025-09-01, ``GPUDriver``): ``Install`` lets the
AKS GPU image bring the driver, ``None`` skips it. "AKS currently enforces the use of the
``gpu-driver`` field to skip automatic driver installation at AMD GPU node pool creation time"
and "doesn't manage nor automate the installation of GPU drivers or the AMD GPU device plugin"
(``AKS_AMD_GPUS_SOURCE``): AMD pools are created with ``None``."""
AMD_POOL_OS_SKUS: tuple[str, ...] = ("Ubuntu", "Ubuntu2204")
""""``AzureLinux`` and ``Windows`` are not yet supported with AMD GPU" (``AKS_AMD_GPUS_SOURCE``,
"Limitations"): of the OS SKUs we accept, the Ubuntu ones."""
INFINIBAND_FEATURE = "Microsoft.ContainerService/AKSInfinibandSupport"
"""RDMA sizes (an ``r`` in the name, ``Standard_ND96isr_MI300X_v5``) want it registered so a
pool's nodes land on one InfiniBand network (``AKS_AMD_GPUS_SOURCE``)."""
AZURE_LINUX_OS_SKUS: frozenset[str] = frozenset(
    {"AzureLinux", "AzureLinux3", "CBLMariner", "Mariner"}
)
"""AKS ``osSKU`` values of the Azure Linux family: the agent pool API's ``AzureLinux``,
``AzureLinux3`` and ``CBLMariner`` (Azure Linux's former name; pulumi-azure-native
``containerservice.OSSKU``), and ``Mariner``, the same image under its short former name."""
_AZURE_LINUX_LOWER = frozenset(sku.lower() for sku in AZURE_LINUX_OS_SKUS)


def is_azure_linux(os_sku: str) -> bool:
    """Whether an AKS ``osSKU`` names Azure Linux (AKS compares OS SKUs without case)."""
    return os_sku.lower() in _AZURE_LINUX_LOWER


AKS_LABEL_DOMAIN = "kubernetes.azure.com"
"""The node label domain AKS reserves: it refuses a pool whose ``nodeLabels`` use it
(https://learn.microsoft.com/azure/aks/use-labels, "Reserved system labels")."""


AKS_CDI_SOURCE = (
    "https://learn.microsoft.com/azure/aks/supported-kubernetes-versions (node images: AKS 1.36 "
    "on Ubuntu 24.04 runs containerd 2.3.1, 1.34 and 1.35 on Ubuntu 22.04 containerd 1.7.29, "
    "Azure Linux 3.0 on 1.35 containerd 2.0.0)"
)
"""Which AKS node images run a containerd that turns CDI on by default. containerd 2.0 enables
CDI (``enable_cdi``) by default, 1.7 leaves it off, and AKS's 1.7 configuration does not turn it
on (Azure/AgentBaker PRs #6014 and #6726, "enable CDI in containerd ... needed for DRA", are
unmerged). NVIDIA's DRA driver hands devices to containers only through CDI (its
``docs/prerequisites.md``)."""
AKS_CDI_UBUNTU_MINOR = (1, 36)
"""The first AKS minor whose Ubuntu node image runs containerd 2 (Ubuntu 24.04)."""
AKS_CDI_AZURE_LINUX_MINOR = (1, 35)
"""The first AKS minor whose Azure Linux 3 node image runs containerd 2."""


def aks_runs_cdi(os_sku: str, minor: tuple[int, int]) -> bool:
    """Whether AKS nodes of ``os_sku`` on Kubernetes ``minor`` run a containerd with CDI on
    (``Ubuntu2204`` keeps Ubuntu 22.04 and its containerd 1.7 on every minor)."""
    if os_sku.lower() == "ubuntu2204":
        return False
    first = AKS_CDI_AZURE_LINUX_MINOR if is_azure_linux(os_sku) else AKS_CDI_UBUNTU_MINOR
    return minor >= first
