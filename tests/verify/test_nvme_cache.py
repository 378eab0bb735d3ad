"""readiness.nvme_cache: our StorageClass, the local NVMe driver and each NVMe node's free space
as the driver publishes it."""

from __future__ import annotations

from typing import Any

from gpu_facts.aks.storage import LOCAL_NVME_TOPOLOGY_KEY, NVME_CACHE_STORAGE_CLASS
from gpu_platform.verify.nvme_cache import csi_driver, node_disks
from gpu_platform.verify.seed_expectations import NvmeDisks

ND_H100_V5 = NvmeDisks(8, 3584)


def test_the_storage_class_name_is_the_components() -> None:
    """One name: the component creates what make verify looks for (the component keeps its own
    constant; tests/components read it)."""
    from gpu_platform.components.aks.nvme_cache import STORAGE_CLASS_NAME

    assert STORAGE_CLASS_NAME == NVME_CACHE_STORAGE_CLASS


def node(name: str = "aks-h100-1-vmss000000", registered: bool = True) -> dict[str, Any]:
    labels = {LOCAL_NVME_TOPOLOGY_KEY: name} if registered else {}
    return {"metadata": {"name": name, "labels": labels}}


def capacity(
    node_name: str, quantity: str, storage_class: str = NVME_CACHE_STORAGE_CLASS
) -> dict[str, Any]:
    return {
        "storageClassName": storage_class,
        "nodeTopology": {"matchLabels": {LOCAL_NVME_TOPOLOGY_KEY: node_name}},
        "capacity": quantity,
    }


def test_only_our_class_on_this_node_counts() -> None:
    name = "aks-h100-1-vmss000000"
    others = [capacity("aks-h100-1-vmss000001", "28Ti"), capacity(name, "28Ti", "local-csi")]
    assert node_disks(node(name), ND_H100_V5, others).status == "fail"
    row = node_disks(node(name), ND_H100_V5, [*others, capacity(name, "30786325577728")])
    assert (row.status, row.expected, row.found) == (
        "pass",
        "8 local NVMe disks, 28,672 GiB in the cache's volume group",
        "28,672 GiB free in the volume group (100% of the disks)",
    )


def test_volumes_in_use_lower_the_free_space() -> None:
    name = "aks-h100-1-vmss000000"
    row = node_disks(node(name), ND_H100_V5, [capacity(name, "7Ti")])
    assert (row.status, row.found) == (
        "pass",
        "7,168 GiB free in the volume group (25% of the disks)",
    )


def test_an_unreadable_capacity_fails() -> None:
    name = "aks-h100-1-vmss000000"
    row = node_disks(node(name), ND_H100_V5, [capacity(name, "lots")])
    assert (row.status, row.found) == (
        "fail",
        "capacity lots: the driver found no free NVMe space on the node",
    )


def test_a_driver_without_capacity_tracking_fails() -> None:
    row = csi_driver({"metadata": {"name": "localdisk.csi.acstor.io"}, "spec": {}})
    assert (row.status, row.found) == ("fail", "registered, without storage capacity tracking")
