"""plan.kubernetes_versions: each cloud's format, its supported minors (as of the source's
date), the platform's floor, one minor past the list warned about and anything further
refused."""

from __future__ import annotations

import pytest

from gpu_facts.kubernetes_versions import ACK_VERSIONS, AKS_VERSIONS
from gpu_platform.plan.kubernetes_versions import (
    kubernetes_version_problem,
    kubernetes_version_warning,
    minor_version,
)

AKS_SOURCE = "https://learn.microsoft.com/azure/aks/supported-kubernetes-versions, as of 2026-08-05"
ACK_SOURCE = (
    "https://www.alibabacloud.com/help/en/ack/product-overview/support-for-kubernetes-versions, "
    "as of 2026-03-17"
)
FLOOR = (
    "the oldest the platform runs on (ValidatingAdmissionPolicy, which the admission policy "
    "uses, is GA from 1.30): must be 1.30 or newer"
)


def test_the_facts_carry_sources_and_dates() -> None:
    for facts in (AKS_VERSIONS, ACK_VERSIONS):
        assert facts.source.startswith("https://")
        assert facts.as_of <= facts.read
        assert list(facts.supported) == sorted(facts.supported, key=minor_version)  # type: ignore[arg-type]
    assert (AKS_VERSIONS.newest, ACK_VERSIONS.newest) == ("1.36", "1.35")


@pytest.mark.parametrize(
    ("cloud", "version"),
    [
        ("aks", "1.34"),
        ("aks", "1.35"),
        ("aks", "1.35.6"),
        ("aks", "1.36.2"),
        ("ack", "1.30"),
        ("ack", "1.33.3-aliyun.1"),
        ("ack", "1.35.1"),
        ("existing", "anything: an existing cluster has no version of ours"),
    ],
)
def test_supported_versions_are_taken_without_warning(cloud: str, version: str) -> None:
    assert kubernetes_version_problem(cloud, version) is None
    assert kubernetes_version_warning(cloud, version) is None


@pytest.mark.parametrize(
    ("cloud", "version", "message"),
    [
        (
            "aks",
            "1.33",
            "AKS runs 1.33 only under long-term support (Premium tier and supportPlan "
            "AKSLongTermSupport), which the platform does not set: use one of 1.34, 1.35, 1.36 "
            f"({AKS_SOURCE})",
        ),
        (
            "aks",
            "1.31.9",
            "AKS runs 1.31 only under long-term support (Premium tier and supportPlan "
            "AKSLongTermSupport), which the platform does not set: use one of 1.34, 1.35, 1.36 "
            f"({AKS_SOURCE})",
        ),
        (
            "aks",
            "1.30",
            "AKS no longer supports Kubernetes 1.30 for new clusters: use one of 1.34, 1.35, "
            f"1.36 ({AKS_SOURCE})",
        ),
        (
            "ack",
            "1.32",
            "ACK no longer supports Kubernetes 1.32 for new clusters: use one of 1.30, 1.33, "
            f"1.34, 1.35 ({ACK_SOURCE})",
        ),
        ("aks", "1.29", f"Kubernetes 1.29 is older than 1.30, {FLOOR}"),
        ("ack", "1.29.9-aliyun.1", f"Kubernetes 1.29 is older than 1.30, {FLOOR}"),
        ("aks", "0.99", f"Kubernetes 0.99 is older than 1.30, {FLOOR}"),
        (
            "aks",
            "1.38",
            "Kubernetes 1.38 is not a release AKS offers: the newest it lists is 1.36 "
            f"({AKS_SOURCE}); one minor past it is taken with a warning",
        ),
        (
            "aks",
            "1.99",
            "Kubernetes 1.99 is not a release AKS offers: the newest it lists is 1.36 "
            f"({AKS_SOURCE}); one minor past it is taken with a warning",
        ),
        (
            "ack",
            "1.37",
            "Kubernetes 1.37 is not a release ACK offers: the newest it lists is 1.35 "
            f"({ACK_SOURCE}); one minor past it is taken with a warning",
        ),
        (
            "aks",
            "2.0",
            "Kubernetes 2.0 is not a release AKS offers: the newest it lists is 1.36 "
            f"({AKS_SOURCE}); one minor past it is taken with a warning",
        ),
    ],
)
def test_unsupported_versions_are_refused(cloud: str, version: str, message: str) -> None:
    assert kubernetes_version_problem(cloud, version) == message
    assert kubernetes_version_warning(cloud, version) is None


AKS_FORMAT = "major.minor (e.g. 1.35: AKS picks the newest patch) or major.minor.patch"
ACK_FORMAT = "major.minor, major.minor.patch or ACK's release name major.minor.patch-aliyun.N"


@pytest.mark.parametrize(
    ("cloud", "version", "form"),
    [
        ("aks", "1.35.6-aliyun.1", AKS_FORMAT),
        ("aks", "v1.35", AKS_FORMAT),
        ("aks", "1", AKS_FORMAT),
        ("aks", "1.35.", AKS_FORMAT),
        ("aks", "1.035", AKS_FORMAT),
        ("aks", "1.35.6.1", AKS_FORMAT),
        ("aks", "latest", AKS_FORMAT),
        ("aks", "", AKS_FORMAT),
        ("ack", "1.35-aliyun.1", ACK_FORMAT),
        ("ack", "1.35.1-aliyun", ACK_FORMAT),
        ("ack", "1.35.1-gke.1", ACK_FORMAT),
    ],
)
def test_malformed_versions_are_refused(cloud: str, version: str, form: str) -> None:
    cloud_name = "AKS" if cloud == "aks" else "ACK"
    assert kubernetes_version_problem(cloud, version) == (
        f"{version!r} is not a version {cloud_name} takes: {form}"
    )


@pytest.mark.parametrize(
    ("cloud", "version"), [("aks", "1.37"), ("aks", "1.37.1"), ("ack", "1.36.0-aliyun.1")]
)
def test_one_minor_past_the_list_is_taken_with_a_warning(cloud: str, version: str) -> None:
    assert kubernetes_version_problem(cloud, version) is None
    facts = AKS_VERSIONS if cloud == "aks" else ACK_VERSIONS
    source = AKS_SOURCE if cloud == "aks" else ACK_SOURCE
    minor = "1.37" if cloud == "aks" else "1.36"
    assert kubernetes_version_warning(cloud, version) == (
        f"Kubernetes {minor} is newer than the newest {facts.cloud} release the platform knows "
        f"({facts.newest}: {source}, read 2026-11-25); if {facts.cloud} does not offer it yet "
        "the cluster is refused at deploy time"
    )


def test_minor_version() -> None:
    assert minor_version("1.35.6-aliyun.1") == (1, 35)
    assert minor_version("1.35") == (1, 35)
    assert minor_version("1") is None
    assert minor_version("x1.35") is None
