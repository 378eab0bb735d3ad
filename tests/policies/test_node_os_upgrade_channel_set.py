"""node-os-upgrade-channel-set: AKS clusters on an automatic node OS channel; unset, the
channel is its API version's default (NodeImage from 2023-06-01; pulumi-azure: NodeImage)."""

from __future__ import annotations

import pytest

from .cloud_fixtures import (
    AZURE_CLUSTER,
    MANAGED_CLUSTER,
    classic_cluster,
    cluster,
    managed_cluster,
    versioned,
)
from .harness import Case, Res, assert_case

POLICY = "node-os-upgrade-channel-set"


def at_api_version(api_version: str, **changes: object) -> tuple[Res, ...]:
    """The cluster written with a local SDK of ``api_version``."""
    return (Res(versioned(MANAGED_CLUSTER, api_version), "aks", cluster(**changes)),)


CASES: list[Case] = [
    # BP-06: node OS upgrade channel.
    Case("node-os-upgrade-channel-set", "node-image", managed_cluster()),
    Case(
        "node-os-upgrade-channel-set",
        "security-patch",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "SecurityPatch"}),
    ),
    # Unset: the default module's API (2025-09-01) and 2023-06-01 on default to NodeImage.
    Case(POLICY, "unset-defaults-to-node-image", managed_cluster(autoUpgradeProfile=None)),
    Case(POLICY, "unset-at-2023-06-01", at_api_version("2023-06-01", autoUpgradeProfile=None)),
    Case(
        POLICY,
        "unset-before-2023-06-01",
        at_api_version("2023-04-01", autoUpgradeProfile=None),
        (
            "AKS cluster 'aks' sets no nodeOSUpgradeChannel, and API version 2023-04-01 has no "
            "default (NodeImage is the default from 2023-06-01); use one of NodeImage, "
            "SecurityPatch.",
        ),
    ),
    Case(
        POLICY,
        "unset-at-a-preview-before-2023-06-01",
        at_api_version("2023-05-02-preview", autoUpgradeProfile={"upgradeChannel": "patch"}),
        ("API version 2023-05-02-preview has no default",),
    ),
    Case(
        POLICY,
        "versioned-unmanaged",
        at_api_version("2025-08-01", autoUpgradeProfile={"nodeOSUpgradeChannel": "Unmanaged"}),
        ("'Unmanaged'",),
    ),
    Case(POLICY, "pulumi-azure-unset", (Res(AZURE_CLUSTER, "aks", classic_cluster()),)),
    Case(
        POLICY,
        "default-not-allowed",
        managed_cluster(autoUpgradeProfile=None),
        ("has nodeOSUpgradeChannel 'NodeImage' (API version 2025-09-01's default)",),
        config={"allowedChannels": ["SecurityPatch"]},
    ),
    Case(
        POLICY,
        "pulumi-azure-none",
        (Res(AZURE_CLUSTER, "aks", classic_cluster(nodeOsUpgradeChannel="None")),),
        ("has nodeOSUpgradeChannel 'None'",),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "none",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "None"}),
        ("'None'",),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "unmanaged",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "Unmanaged"}),
        ("'Unmanaged'",),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "unmanaged-allowed",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "Unmanaged"}),
        config={"allowedChannels": ["NodeImage", "Unmanaged"]},
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)
