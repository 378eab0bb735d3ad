"""Node-image currency of each AKS GPU pool (seed 000, BP-06): the image version its nodes run,
how old it is, against the node OS upgrade channel the stack sets.

The version is the node label ``kubernetes.azure.com/node-image-version``; its date is in it
(``AKSUbuntu-2204gen2containerd-202405.20.0`` was built on 2024-05-20; older images wrote
``AKSUbuntu-1804-2020.03.05``). An automatic channel (``NodeImage``, ``SecurityPatch``) keeps
nodes within ``NODE_IMAGE_MAX_AGE_DAYS`` of today (the reasoning is with the constant): older
fails. Without one (``Unmanaged``, ``None``), an image older than that is a warning: newer ones
exist and nothing applies them (``az aks nodepool upgrade --node-image-only``).

What the label does not say: whether a newer image is out for this exact OS SKU in this region
today (``az aks nodepool get-upgrades``), which the age stands in for.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

from gpu_facts.aks.nodes import (
    AUTO_NODE_IMAGE_CHANNELS,
    NODE_IMAGE_MAX_AGE_DAYS,
    NODE_IMAGE_VERSION_LABEL,
)

from .cluster import Obj
from .objects import labels_of
from .results import CheckResult, many, outcome

CHECK = "node-image"
_DATED = (
    re.compile(r"-(\d{4})(\d{2})\.(\d{2})\.\d+$"),  # AKSUbuntu-2204gen2containerd-202405.20.0
    re.compile(r"-(\d{4})\.(\d{2})\.(\d{2})$"),  # AKSUbuntu-1804-2020.03.05
)
MANUAL_UPGRADE = "az aks nodepool upgrade --node-image-only"


def image_date(version: str) -> date | None:
    """The build date in a node image version, None when it has none we can read."""
    for pattern in _DATED:
        match = pattern.search(version)
        if match:
            year, month, day = (int(part) for part in match.groups())
            try:
                return date(year, month, day)
            except ValueError:
                return None
    return None


def node_image(pool: str, nodes: list[Obj], channel: str, today: date) -> CheckResult:
    """One pool's row: each image version on its nodes, with its age."""
    subject = f"pool/{pool}"
    automatic = channel in AUTO_NODE_IMAGE_CHANNELS
    expected = f"image ≤ {NODE_IMAGE_MAX_AGE_DAYS} days old ({channel} channel)"
    if not nodes:
        return CheckResult(CHECK, subject, expected, "no node in the pool to read", "skip")
    versions = Counter(labels_of(node).get(NODE_IMAGE_VERSION_LABEL, "") for node in nodes)
    shown, unreadable, future, oldest = [], [], [], 0
    for version, count in sorted(versions.items()):
        on = f"on {many(count, 'node')}"
        built = image_date(version) if version else None
        if built is None:
            unreadable.append(f"{version or f'no {NODE_IMAGE_VERSION_LABEL} label'} {on}")
            continue
        age = (today - built).days
        if age < 0:  # a label (or this machine's clock) that is wrong: never "0 days old"
            future.append(f"{version} (dated {built}, {many(-age, 'day')} after today) {on}")
            continue
        oldest = max(oldest, age)
        shown.append(f"{version} ({many(age, 'day')} old) {on}")
    found = "; ".join(shown + unreadable + future)
    if unreadable:
        return outcome(CHECK, subject, expected, f"{found}: no image date to read", False)
    if future:
        return outcome(
            CHECK,
            subject,
            expected,
            f"{found}: an image cannot be built in the future; check the node's label and "
            "this machine's clock",
            False,
        )
    if oldest <= NODE_IMAGE_MAX_AGE_DAYS:
        if not automatic:
            found += f"; no automatic channel: upgrade by hand ({MANUAL_UPGRADE})"
        return outcome(CHECK, subject, expected, found, True)
    if automatic:
        found += (
            f": the {channel} channel has not replaced it; see the node OS maintenance window "
            "(aksManagedNodeOSUpgradeSchedule) and the cluster's upgrade events"
        )
        return outcome(CHECK, subject, expected, found, False)
    found += (
        f": newer node images exist and no channel applies them; upgrade ({MANUAL_UPGRADE}) or "
        "set nodeOsUpgradeChannel: NodeImage (BP-06)"
    )
    return CheckResult(CHECK, subject, expected, found, "warn")
