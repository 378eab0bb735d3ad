"""The NVMe cache on AKS (seed 000, BP-18): Azure Container Storage's local NVMe driver, our
StorageClass, and each NVMe pool node's disks in the driver's volume group.

What the Kubernetes API shows (sources in ``gpu_facts.aks.storage``):
- our StorageClass, its provisioner, binding mode and reclaim policy;
- the driver's ``CSIDriver`` object, which exists once the Azure Container Storage extension
  installed the driver (the extension itself is an Azure resource: ``az k8s-extension show``);
- per node, the driver's topology label (its node plugin registered there) and the
  ``CSIStorageCapacity`` the driver publishes for our StorageClass on that node: the free space
  of the volume group it built from the node's NVMe disks.
What it does not show: the extension's version and state, how many disks went into the volume
group and their sizes (the capacity is what is free, so volumes in use lower it), the RAID
layout. Those need the Azure API or a shell on the node.
"""

from __future__ import annotations

from decimal import Decimal

from kubernetes.utils import parse_quantity

from gpu_facts.aks.storage import (
    LOCAL_NVME_PROVISIONER,
    LOCAL_NVME_TOPOLOGY_KEY,
    NVME_CACHE_BINDING_MODE,
    NVME_CACHE_RECLAIM_POLICY,
    NVME_CACHE_STORAGE_CLASS,
)

from .cluster import Obj
from .objects import labels_of, mapping, name_of, text
from .results import CheckResult, outcome
from .seed_expectations import NvmeDisks

CHECK = "nvme-cache"
DISKS_CHECK = "nvme-disks"
_GIB = 1024**3


def storage_class(found: Obj | None) -> CheckResult:
    """Our StorageClass exists as the NvmeCache component made it."""
    subject = f"storageclass/{NVME_CACHE_STORAGE_CLASS}"
    expected = (
        f"provisioner {LOCAL_NVME_PROVISIONER}, {NVME_CACHE_BINDING_MODE}, "
        f"reclaim {NVME_CACHE_RECLAIM_POLICY}"
    )
    if found is None:
        return outcome(CHECK, subject, expected, "not found: pods get no NVMe cache volume", False)
    have = {
        "provisioner": text(found, "provisioner"),
        "volumeBindingMode": text(found, "volumeBindingMode"),
        "reclaimPolicy": text(found, "reclaimPolicy"),
    }
    want = {
        "provisioner": LOCAL_NVME_PROVISIONER,
        "volumeBindingMode": NVME_CACHE_BINDING_MODE,
        "reclaimPolicy": NVME_CACHE_RECLAIM_POLICY,
    }
    wrong = [f"{key} {have[key] or 'unset'}" for key in want if have[key] != want[key]]
    shown = f"provisioner {have['provisioner']}, {have['volumeBindingMode']}, "
    shown += f"reclaim {have['reclaimPolicy']}"
    if wrong:
        shown = f"{'; '.join(wrong)}: not the StorageClass the stack creates"
    return outcome(CHECK, subject, expected, shown, not wrong)


def csi_driver(found: Obj | None) -> CheckResult:
    """Azure Container Storage installed its local NVMe driver (its ``CSIDriver`` object)."""
    subject = f"csidriver/{LOCAL_NVME_PROVISIONER}"
    expected = "installed by Azure Container Storage, with storage capacity tracking"
    if found is None:
        return outcome(
            CHECK,
            subject,
            expected,
            "not registered: the Azure Container Storage extension (acstor) has not installed "
            "its local NVMe driver (az k8s-extension show --name acstor ...)",
            False,
        )
    tracked = mapping(found, "spec").get("storageCapacity") is True
    shown = "registered" + ("" if tracked else ", without storage capacity tracking")
    return outcome(CHECK, subject, expected, shown, tracked)


def _capacity_on(node: str, capacities: list[Obj]) -> Obj | None:
    for capacity in capacities:
        if text(capacity, "storageClassName") != NVME_CACHE_STORAGE_CLASS:
            continue
        selector = mapping(capacity, "nodeTopology", "matchLabels")
        if selector.get(LOCAL_NVME_TOPOLOGY_KEY) == node:
            return capacity
    return None


def _gib(quantity: str) -> Decimal | None:
    """GiB in a quantity; None when it is none, or not a finite number (the client's parser
    takes ``NaN`` and ``Infinity``, which Decimal refuses to compare)."""
    try:
        parsed = parse_quantity(quantity)
    except (ValueError, ArithmeticError):
        return None
    return parsed / _GIB if parsed.is_finite() else None


def node_disks(node: Obj, disks: NvmeDisks, capacities: list[Obj]) -> CheckResult:
    """The node's NVMe disks are in the driver's volume group: the driver is registered on the
    node and reports free space there for our StorageClass."""
    name = name_of(node)
    subject, expected = f"node/{name}", f"{disks} in the cache's volume group"
    if labels_of(node).get(LOCAL_NVME_TOPOLOGY_KEY) != name:
        return outcome(
            DISKS_CHECK,
            subject,
            expected,
            f"no {LOCAL_NVME_TOPOLOGY_KEY} label: the local NVMe driver is not running on the "
            "node (its DaemonSet pod in kube-system)",
            False,
        )
    capacity = _capacity_on(name, capacities)
    if capacity is None:
        return outcome(
            DISKS_CHECK,
            subject,
            expected,
            f"no CSIStorageCapacity of {NVME_CACHE_STORAGE_CLASS} for the node: the driver has "
            "not reported its volume group",
            False,
        )
    free = _gib(text(capacity, "capacity"))
    if free is None or free <= 0:
        shown = text(capacity, "capacity") or "none"
        return outcome(
            DISKS_CHECK,
            subject,
            expected,
            f"capacity {shown}: the driver found no free NVMe space on the node",
            False,
        )
    share = free / disks.total_gib
    found = f"{free:,.0f} GiB free in the volume group ({share:.0%} of the disks)"
    return outcome(DISKS_CHECK, subject, expected, found, True)
