"""Node inputs every pool component shares (components/node_hardening.py): AKS's pods per
node, OS disk, size and surge; ACK's system disks."""

from __future__ import annotations

from gpu_platform.components.node_hardening import (
    ack_system_disk,
    aks_node_inputs,
    aks_size_inputs,
    aks_upgrade_settings,
)
from gpu_platform.settings import AksGpuPoolSettings, AutoscaleSettings, UpgradeSettings


def test_an_aks_pool_gets_explicit_hardening() -> None:
    pool = AksGpuPoolSettings.model_validate({"name": "t4", "vmSize": "Standard_NC4as_T4_v3"})
    inputs = aks_node_inputs("Standard_NC4as_T4_v3", pool, encryption_at_host=True)
    # The 176 GiB temp disk holds the default 128 GiB OS disk: ephemeral, always explicit.
    assert inputs == {
        "max_pods": 110,
        "os_disk_type": "Ephemeral",
        "os_disk_size_gb": 128,
        "enable_encryption_at_host": True,
    }
    small = aks_node_inputs("Standard_NC24ads_A100_v4", pool, encryption_at_host=False)
    assert small["os_disk_type"] == "Managed"  # its 64 GiB temp disk does not hold 128 GiB


def test_size_and_surge() -> None:
    assert aks_size_inputs(None, 3) == {
        "enable_auto_scaling": False,
        "min_count": None,
        "max_count": None,
        "count": 3,
    }
    autoscaled = aks_size_inputs(AutoscaleSettings(min=0, max=4), None)
    assert (autoscaled["enable_auto_scaling"], autoscaled["count"]) == (True, 0)
    surge = aks_upgrade_settings(UpgradeSettings(max_surge="33%"))
    assert surge.max_surge == "33%" and surge.drain_timeout_in_minutes == 60


def test_ack_system_disks_are_explicit_and_checked() -> None:
    inputs, problems = ack_system_disk(None, "system_disk")
    assert problems == [] and inputs is not None
    assert inputs["system_disk_category"] == "cloud_essd" and inputs["system_disk_size"] == 120
    inputs, problems = ack_system_disk({"kms_key_id": "key-1"}, "system_disk")
    assert inputs is None and [path for path, _ in problems] == ["systemDisk.kmsKeyId"]
