"""The Kubernetes version of a cluster we create, judged against what the cloud offers
(``gpu_facts.kubernetes_versions``: each cloud's list with its source and date) and the oldest
the platform runs on (``settings.MIN_KUBERNETES``).

The rule: a version in the cloud's format, of a minor the cloud supports for new clusters, is
taken. One minor newer than the newest the list knows is taken with a warning (the cloud may
have released it since the list was read); anything newer, anything older than the platform's
or the cloud's oldest, a minor the cloud dropped, and (AKS) a minor left only to long-term
support the platform does not set, is refused. Patch levels are not checked: only the cloud
knows which exist in a region.
"""

from __future__ import annotations

import re

from gpu_facts.kubernetes_versions import ACK_VERSIONS, AKS_VERSIONS, SupportedVersions
from gpu_platform.settings import MIN_KUBERNETES, PlatformSettings

CLOUD_VERSIONS: dict[str, SupportedVersions] = {"aks": AKS_VERSIONS, "ack": ACK_VERSIONS}
"""The version facts of each cloud whose clusters we create (an existing cluster has its own)."""
PLATFORM_FLOOR_REASON = (
    "ValidatingAdmissionPolicy, which the admission policy uses, is GA from 1.30"
)


def minor_version(version: str) -> tuple[int, int] | None:
    """``"1.35.6-aliyun.1"`` -> ``(1, 35)``; None for text that does not start so."""
    match = re.match(r"(\d+)\.(\d+)(\D|$)", version)
    return None if match is None else (int(match[1]), int(match[2]))


def _minor(label: str) -> tuple[int, int]:
    minor = minor_version(label)
    assert minor is not None, label
    return minor


def _listed(facts: SupportedVersions) -> str:
    return f"{facts.source}, as of {facts.as_of}"


def kubernetes_version_problem(cloud: str, version: str) -> str | None:
    """Why a new cluster on ``cloud`` cannot run ``version``, or None."""
    facts = CLOUD_VERSIONS.get(cloud)
    if facts is None:
        return None
    if not re.fullmatch(facts.version_format, version):
        return f"{version!r} is not a version {facts.cloud} takes: {facts.format_text}"
    major, minor = _minor(version)
    label = f"{major}.{minor}"
    if (major, minor) < _minor(MIN_KUBERNETES):
        return (
            f"Kubernetes {label} is older than {MIN_KUBERNETES}, the oldest the platform runs "
            f"on ({PLATFORM_FLOOR_REASON}): must be {MIN_KUBERNETES} or newer"
        )
    newest = _minor(facts.newest)
    supported = ", ".join(facts.supported)
    if major != newest[0] or minor > newest[1] + 1:
        return (
            f"Kubernetes {label} is not a release {facts.cloud} offers: the newest it lists is "
            f"{facts.newest} ({_listed(facts)}); one minor past it is taken with a warning"
        )
    if minor == newest[1] + 1:
        return None
    if label in facts.long_term_only:
        return (
            f"{facts.cloud} runs {label} only under {facts.long_term_text}, which the platform "
            f"does not set: use one of {supported} ({_listed(facts)})"
        )
    if label not in facts.supported:
        return (
            f"{facts.cloud} no longer supports Kubernetes {label} for new clusters: use one "
            f"of {supported} ({_listed(facts)})"
        )
    return None


def kubernetes_version_warning(cloud: str, version: str) -> str | None:
    """A version one minor past the newest the cloud's list knows: taken, with this warning
    (the list may predate the release)."""
    facts = CLOUD_VERSIONS.get(cloud)
    minor = minor_version(version)
    if facts is None or minor is None or kubernetes_version_problem(cloud, version) is not None:
        return None
    newest = _minor(facts.newest)
    if minor != (newest[0], newest[1] + 1):
        return None
    return (
        f"Kubernetes {minor[0]}.{minor[1]} is newer than the newest {facts.cloud} release the "
        f"platform knows ({facts.newest}: {_listed(facts)}, read {facts.read}); if "
        f"{facts.cloud} does not offer it yet the cluster is refused at deploy time"
    )


def kubernetes_version_warnings(settings: PlatformSettings) -> list[str]:
    """The config's version warning, with its key path."""
    version = getattr(settings.cluster, "kubernetes_version", None)
    warning = None if version is None else kubernetes_version_warning(settings.cloud, version)
    return [] if warning is None else [f"cluster.kubernetesVersion: {warning}"]
