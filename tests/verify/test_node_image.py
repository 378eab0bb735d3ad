"""readiness.node_image: the date in an AKS node image version, and a pool's images against the
node OS upgrade channel."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from gpu_facts.aks.nodes import NODE_IMAGE_MAX_AGE_DAYS, NODE_IMAGE_VERSION_LABEL
from gpu_platform.verify.node_image import image_date, node_image

TODAY = date(2026, 11, 20)


@pytest.mark.parametrize(
    ("version", "built"),
    [
        ("AKSUbuntu-2204gen2containerd-202405.20.0", date(2024, 5, 20)),
        ("AKSUbuntu-2204gen2containerd-202311.07.0", date(2023, 11, 7)),
        ("AKSAzureLinux-V2gen2-202410.09.1", date(2024, 10, 9)),
        ("AKSCBLMariner-V2katagen2-202503.13.0", date(2025, 3, 13)),
        ("AKSUbuntu-1804-2020.03.05", date(2020, 3, 5)),  # the older form
        ("AKSUbuntu-2204gen2containerd-202413.40.0", None),  # no such day
        ("AKSWindows-23H2-gen2", None),
        ("", None),
    ],
)
def test_image_date(version: str, built: date | None) -> None:
    assert image_date(version) == built


def nodes(*versions: str | None) -> list[dict[str, Any]]:
    out = []
    for version in versions:
        labels = {} if version is None else {NODE_IMAGE_VERSION_LABEL: version}
        out.append({"metadata": {"name": "n", "labels": labels}})
    return out


def test_the_limit_is_inclusive_for_both_kinds_of_channel() -> None:
    built = date.fromordinal(TODAY.toordinal() - NODE_IMAGE_MAX_AGE_DAYS)
    at_limit = f"AKSUbuntu-2204gen2containerd-{built:%Y%m.%d}.0"
    for channel in ("NodeImage", "SecurityPatch", "Unmanaged"):
        assert node_image("p", nodes(at_limit), channel, TODAY).status == "pass"


def test_security_patch_is_an_automatic_channel() -> None:
    row = node_image("p", nodes("AKSUbuntu-2204gen2containerd-202609.01.0"), "SecurityPatch", TODAY)
    assert (row.status, row.expected) == ("fail", "image ≤ 35 days old (SecurityPatch channel)")
    assert "(80 days old) on 1 node: the SecurityPatch channel has not replaced it" in row.found


def test_a_fresh_image_without_a_channel_passes_and_says_how_to_upgrade() -> None:
    row = node_image("p", nodes("AKSUbuntu-2204gen2containerd-202611.16.0"), "Unmanaged", TODAY)
    assert (row.status, row.found) == (
        "pass",
        "AKSUbuntu-2204gen2containerd-202611.16.0 (4 days old) on 1 node; no automatic channel: "
        "upgrade by hand (az aks nodepool upgrade --node-image-only)",
    )


def test_an_image_dated_after_today_is_a_finding() -> None:
    """Not "0 days old": a label (or this machine's clock) is wrong, and the row says so."""
    row = node_image("p", nodes("AKSUbuntu-2204gen2containerd-202611.22.0"), "NodeImage", TODAY)
    assert (row.status, row.found) == (
        "fail",
        "AKSUbuntu-2204gen2containerd-202611.22.0 (dated 2026-11-22, 2 days after today) on "
        "1 node: an image cannot be built in the future; check the node's label and this "
        "machine's clock",
    )


def test_unreadable_versions_fail_and_empty_pools_skip() -> None:
    row = node_image("p", nodes("AKSWindows-23H2-gen2", None), "NodeImage", TODAY)
    assert (row.status, row.found) == (
        "fail",
        f"no {NODE_IMAGE_VERSION_LABEL} label on 1 node; AKSWindows-23H2-gen2 on 1 node: no image "
        "date to read",
    )
    assert node_image("p", [], "NodeImage", TODAY).status == "skip"
