"""The Kubernetes versions AKS and ACK offer for new clusters, as their own pages list them on
the date given. A version newer than the list may have come out since (the config warns); one
the list says is no longer supported is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

_N = r"(0|[1-9][0-9]*)"
"""A version number: digits, no leading zero."""


@dataclass(frozen=True, slots=True)
class SupportedVersions:
    """The minors (``"1.35"``) a cloud supports for new clusters, as of a source's date."""

    cloud: str
    supported: tuple[str, ...]
    """Minors with standard support, oldest first."""
    long_term_only: tuple[str, ...]
    """Minors past standard support that the cloud still runs only under a long-term support
    plan the platform does not set (a new cluster on one is refused)."""
    version_format: str
    """The forms the cloud's API takes (a full-match pattern)."""
    format_text: str
    long_term_text: str
    """How the cloud's long-term support is had (empty: the cloud has none)."""
    source: str
    as_of: str
    """The source's own date (its last update)."""
    read: str
    """When we read it."""

    @property
    def newest(self) -> str:
        return self.supported[-1]


AKS_VERSIONS = SupportedVersions(
    cloud="AKS",
    supported=("1.34", "1.35", "1.36"),
    long_term_only=("1.31", "1.32", "1.33"),
    version_format=rf"{_N}\.{_N}(\.{_N})?",
    format_text="major.minor (e.g. 1.35: AKS picks the newest patch) or major.minor.patch",
    long_term_text="long-term support (Premium tier and supportPlan AKSLongTermSupport)",
    source="https://learn.microsoft.com/azure/aks/supported-kubernetes-versions",
    as_of="2026-08-05",
    read="2026-11-25",
)
"""AKS's release calendar (the page's ``ms.date`` 2026-08-05): community support of 1.33 ended
July 2026 and 1.34's ends November 2026; 1.35 runs to March 2027, 1.36 (GA 2026-06-19) to June
2027; 1.37 is planned for October 2026. Long-term support (Premium tier and ``supportPlan:
AKSLongTermSupport``) still covers 1.31 to 1.33 (1.30's ended July 2026); the platform sets no
support plan, and AKS refuses a removed version for a new cluster ("Version X is not supported
in this region", ``K8sVersionNotSupported``). The AKS release notes of 2026-07-17
(https://github.com/Azure/AKS/blob/master/CHANGELOG.md) agree: patches 1.36.2, 1.35.6, 1.34.9,
1.33.13, "1.33 is LTS-only". The format is ARM's ``kubernetesVersion``: "Both patch version
<major.minor.patch> (e.g. 1.20.13) and <major.minor> (e.g. 1.20) are supported". Which patches
exist, and per region, only ``az aks get-versions -l <region>`` says: not checked here."""

ACK_VERSIONS = SupportedVersions(
    cloud="ACK",
    supported=("1.30", "1.33", "1.34", "1.35"),
    long_term_only=(),
    version_format=rf"{_N}\.{_N}(\.{_N}(-aliyun\.{_N})?)?",
    format_text="major.minor, major.minor.patch or ACK's release name major.minor.patch-aliyun.N",
    long_term_text="",
    source="https://www.alibabacloud.com/help/en/ack/product-overview/support-for-kubernetes-versions",
    as_of="2026-03-17",
    read="2026-11-25",
)
"""ACK's "Kubernetes version overview" (updated 2026-03-17): 1.35 (supported to 2027-02-28),
1.34 (2026-09-30), 1.33 (2026-05-31) and 1.30 (2026-06-30); 1.32's support ended 2026-01-31
and 1.31 is no longer listed. From 1.31 each minor is supported for a year. ACK names its
releases ``1.33.3-aliyun.1`` (CreateCluster's example ``1.16.9-aliyun.1``); whether it takes
the shorter forms is unconfirmed. The live list: DescribeKubernetesVersionMetadata."""
