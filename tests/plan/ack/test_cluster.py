"""What ACK refuses in a cluster's networking and system disk (plan.ack.cluster)."""

from __future__ import annotations

from typing import Any

from gpu_platform.plan.ack.cluster import (
    EXISTING_NEED_VPC,
    KEY_WITHOUT_ENCRYPTION,
    NODE_VSWITCHES_REQUIRED,
    POD_VSWITCHES_REQUIRED,
    ack_cluster_problems,
    system_disk_problems,
    vpc_problems,
)
from gpu_platform.settings import AckClusterSettings, AckSystemDiskSettings, AckVpcSettings

SWITCHES = {
    "vswitches": [{"zone": "cn-hangzhou-i", "cidr": "10.1.0.0/16"}],
    "podVswitches": [{"zone": "cn-hangzhou-i", "cidr": "10.2.0.0/16"}],
}


def test_vpc() -> None:
    assert list(vpc_problems(AckVpcSettings.model_validate(SWITCHES))) == []
    existing = AckVpcSettings.model_validate({"vswitchIds": ["vsw-1"], "podVswitchIds": ["vsw-2"]})
    assert list(vpc_problems(existing)) == [
        ("vswitchIds", EXISTING_NEED_VPC),
        ("podVswitchIds", EXISTING_NEED_VPC),
    ]
    assert list(vpc_problems(AckVpcSettings())) == [
        ("", NODE_VSWITCHES_REQUIRED),
        ("", POD_VSWITCHES_REQUIRED),
    ]


def test_system_disk_key_needs_encryption() -> None:
    assert list(system_disk_problems(AckSystemDiskSettings(kms_key_id="k"))) == [
        ("kmsKeyId", KEY_WITHOUT_ENCRYPTION)
    ]
    assert list(system_disk_problems(AckSystemDiskSettings(kms_key_id="k", encrypted=True))) == []


def test_the_cluster_relative_to_itself() -> None:
    fields: dict[str, Any] = {"name": "ack", "region": "cn-hangzhou", "vpc": {}}
    fields["nodeSystemDisk"] = {"kmsKeyId": "k"}
    found = list(ack_cluster_problems(AckClusterSettings.model_validate(fields)))
    # The default auto-upgrade channel with no maintenance window: the last one.
    assert [path for path, _ in found] == [
        "vpc",
        "vpc",
        "nodeSystemDisk.kmsKeyId",
        "maintenanceWindow",
    ]
