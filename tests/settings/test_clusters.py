"""The cluster settings of each cloud (settings.clusters)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_platform.settings.clusters import (
    AckClusterSettings,
    AksClusterSettings,
    ExistingClusterSettings,
    MaintenanceWindowSettings,
)

AKS = {"name": "aks", "location": "westeurope", "resourceGroup": {"name": "rg"}}


def test_aks_defaults_are_hardened() -> None:
    aks = AksClusterSettings.model_validate(AKS)
    assert aks.system_pool.vm_size == "Standard_D4ds_v5" and aks.system_pool.count == 3
    assert aks.entra_id.enabled and aks.entra_id.azure_rbac
    assert aks.network_policy == "cilium"
    assert aks.node_os_upgrade_channel == "NodeImage"
    assert aks.resource_group.create


def test_ack_defaults_to_pro_with_rrsa_and_audit() -> None:
    ack = AckClusterSettings.model_validate({"name": "ack", "region": "cn-hangzhou"})
    assert ack.cluster_spec.startswith("ack.pro.")
    assert ack.rrsa and ack.audit_log and ack.auto_upgrade_channel == "patch"
    assert ack.node_system_disk.category == "cloud_essd"


def test_existing_clusters_need_nothing() -> None:
    assert ExistingClusterSettings().name == "existing"


@pytest.mark.parametrize(
    "window",
    [{"day": "Monday", "startHour": 24}, {"day": "Monday", "startHour": 1, "durationHours": 3}],
)
def test_maintenance_windows_aks_and_ack_take(window: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        MaintenanceWindowSettings.model_validate(window)
