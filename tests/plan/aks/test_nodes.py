"""AKS node hardening a valid config means, and what AKS refuses in it (plan.aks.nodes)."""

from __future__ import annotations

from gpu_platform.plan.aks.nodes import (
    SURGE_COUNT_OR_PERCENTAGE,
    SYSTEM_POOL_TOO_FEW_PODS,
    aks_node,
    ephemeral_os_problem,
    os_disk_problems,
    os_disk_type,
    surge_problems,
    system_pool_problems,
)
from gpu_platform.settings import AksNodeSettings, SystemPoolSettings, UpgradeSettings


def test_os_disk_follows_the_sizes_local_disks() -> None:
    # The T4 size's temp disk (176 GiB) holds the default 128 GiB OS disk.
    assert os_disk_type("Standard_NC4as_T4_v3", AksNodeSettings()) == "Ephemeral"
    # A size the catalog does not know: managed, the safe default.
    assert os_disk_type("Standard_X1_v9", AksNodeSettings()) == "Managed"
    node = aks_node("Standard_NC4as_T4_v3", AksNodeSettings(max_pods=30), encryption_at_host=True)
    assert (node.max_pods, node.os_disk_type, node.encryption_at_host) == (30, "Ephemeral", True)


def test_an_explicit_ephemeral_disk_too_large_for_the_size() -> None:
    big = AksNodeSettings(os_disk_type="Ephemeral", os_disk_size_gb=1024)
    problem = ephemeral_os_problem("Standard_NC4as_T4_v3", big)
    assert problem is not None and problem.endswith("GiB")
    assert list(os_disk_problems("Standard_NC4as_T4_v3", big)) == [("osDiskType", problem)]
    assert list(os_disk_problems(None, big)) == []


def test_surge_is_a_count_or_a_percentage() -> None:
    assert list(surge_problems(UpgradeSettings(max_surge="33%"))) == []
    assert list(surge_problems(UpgradeSettings(max_surge="0"))) == [
        ("upgrade.maxSurge", SURGE_COUNT_OR_PERCENTAGE)
    ]


def test_the_system_pool() -> None:
    assert list(system_pool_problems(SystemPoolSettings())) == []
    bad = SystemPoolSettings(vm_size="Standard_NC4as_T4_v3", max_pods=20)
    assert [path for path, _ in system_pool_problems(bad)] == ["vmSize", "maxPods"]
    assert ("maxPods", SYSTEM_POOL_TOO_FEW_PODS) in list(system_pool_problems(bad))
