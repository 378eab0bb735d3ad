"""Names and IDs the clouds and Kubernetes validate: what each takes, whose rule it is, and where
the rule is published.

Each ``NameRule`` states the rule as its owner does (``text``, quoted in our refusals) and the
pattern and length that encode it; ``plan.names`` and the settings models ask ``refusal``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .aks.nodes import AKS_POOL_NAME_PATTERN


@dataclass(frozen=True, slots=True)
class NameRule:
    """One name rule: a full-match pattern and length bounds (characters), and the rule's text
    with its owner, e.g. "(Azure's rule for Microsoft.Resources/resourceGroups)"."""

    pattern: str
    min_length: int
    max_length: int
    text: str
    source: str

    def matches(self, value: str) -> bool:
        return self.min_length <= len(value) <= self.max_length and bool(
            re.fullmatch(self.pattern, value)
        )

    def refusal(self, value: str) -> str | None:
        """Why ``value`` breaks the rule (the value, its length when that is what breaks it,
        and the rule's own words), or None."""
        if self.matches(value):
            return None
        fits = self.min_length <= len(value) <= self.max_length
        return f"{value!r}{'' if fits else f' ({len(value)} characters)'}: {self.text}"


# --- Kubernetes --------------------------------------------------------------------------
# k8s.io/apimachinery pkg/util/validation/validation.go (IsDNS1123Label, IsDNS1123Subdomain,
# IsQualifiedName, IsValidLabelValue), read at eed236ce (2026-07-23); the same rules in prose:
# https://kubernetes.io/docs/concepts/overview/working-with-objects/names/ and .../labels/.
APIMACHINERY_VALIDATION = (
    "https://github.com/kubernetes/apimachinery/blob/master/pkg/util/validation/validation.go"
)
_DNS1123_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"

DNS1123_LABEL = NameRule(
    _DNS1123_LABEL,
    1,
    63,
    "Kubernetes namespace names are RFC 1123 labels: 1-63 characters, lowercase letters, "
    "digits and '-', starting and ending with a letter or digit",
    APIMACHINERY_VALIDATION,
)
"""Namespace names (and the other names Kubernetes validates as a DNS label)."""
DNS1123_SUBDOMAIN = NameRule(
    rf"{_DNS1123_LABEL}(\.{_DNS1123_LABEL})*",
    1,
    253,
    "a DNS subdomain (RFC 1123): 1-253 characters, lowercase letters, digits, '-' and '.', "
    "each dot-separated part starting and ending with a letter or digit",
    APIMACHINERY_VALIDATION,
)
"""Most Kubernetes object names, and the prefix of a label or annotation key."""
LABEL_NAME = NameRule(
    r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]",
    1,
    63,
    "1-63 characters: letters, digits, '-', '_' and '.', starting and ending with a letter "
    "or digit",
    APIMACHINERY_VALIDATION,
)
"""The name part of a label or annotation key (``IsQualifiedName``), after an optional
``prefix/``."""
LABEL_VALUE = NameRule(
    r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?",
    0,
    63,
    "Kubernetes label values are at most 63 characters: letters, digits, '-', '_' and '.', "
    "starting and ending with a letter or digit (or empty)",
    APIMACHINERY_VALIDATION,
)

# --- Azure -------------------------------------------------------------------------------
# The ARM types of the API versions pulumi-azure-native 3.29.0 calls (bicep-types-az@1f896de2:
# microsoft.containerservice 2025-09-01, microsoft.resources 2024-03-01), and Azure's naming
# rules: https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules
AZURE_NAME_RULES = (
    "https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules"
)

AKS_CLUSTER_NAME = NameRule(
    r"[a-zA-Z0-9]|[a-zA-Z0-9][-_a-zA-Z0-9]{0,61}[a-zA-Z0-9]",
    1,
    63,
    "AKS cluster names are 1-63 characters: letters, digits, '-' and '_', starting and ending "
    "with a letter or digit (Azure's rule for Microsoft.ContainerService/managedClusters)",
    AZURE_NAME_RULES + "#microsoftcontainerservice",
)
AKS_DNS_PREFIX = NameRule(
    r"[a-zA-Z0-9]([a-zA-Z0-9-]{0,52}[a-zA-Z0-9])?",
    1,
    54,
    "the platform uses the cluster name as its dnsPrefix, which AKS takes as 1-54 letters, "
    "digits and '-', starting and ending with a letter or digit (no '_' or '.')",
    "https://aka.ms/aks-naming-rules",
)
"""The AKS FAQ's rule for ``dnsPrefix`` (ARM states none; the older stored copy of the FAQ is
MicrosoftDocs/azure-docs ``articles/aks/troubleshooting.md``)."""
AKS_POOL_NAME = NameRule(
    AKS_POOL_NAME_PATTERN.removeprefix("^").removesuffix("$"),
    1,
    12,
    "node pool names are 1-12 lowercase letters and digits, starting with a letter (AKS's "
    "rule for Microsoft.ContainerService/managedClusters/agentPools, kept on every cloud)",
    AZURE_NAME_RULES + "#microsoftcontainerservice",
)
RESOURCE_GROUP_NAME = NameRule(
    r"[-\w._()]*[-\w_()]",
    1,
    90,
    "resource group names are 1-90 characters: letters, digits, '_', '-', '.', '(' and ')', "
    "not ending with '.' (Azure's rule for Microsoft.Resources/resourceGroups)",
    AZURE_NAME_RULES + "#microsoftresources",
)
"""ARM's pattern ``^[-\\w\\._\\(\\)]+$`` (letters and digits are Unicode, as Python's ``\\w``)
and the naming page's "can't end with period"."""
ENTRA_OBJECT_ID = NameRule(
    r"[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}",
    36,
    36,
    "an Entra object ID is a GUID: 8-4-4-4-12 hexadecimal digits, e.g. "
    "00000000-0000-0000-0000-000000000000",
    "https://learn.microsoft.com/azure/aks/entra-id-control-plane-authentication",
)
"""ARM types state this exact pattern for tenant IDs (``DelegatedResource.tenantId``); AKS's
``adminGroupObjectIDs`` states none, and every example of it is a GUID."""

# --- Alibaba Cloud -----------------------------------------------------------------------
ACK_CREATE_CLUSTER = (
    "https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/developer-reference/"
    "api-cs-2015-12-15-createcluster"
)

ACK_CLUSTER_NAME = NameRule(
    r"[^\W_]([^\W_]|-){0,62}",
    1,
    63,
    "ACK cluster names are 1-63 characters: letters, digits and '-', not starting with '-' "
    "(Alibaba Cloud's rule for CreateCluster)",
    ACK_CREATE_CLUSTER,
)
"""CreateCluster ``name``: "The name must be 1 to 63 characters in length, and can contain
digits, letters, and hyphens (-). It cannot start with a hyphen (-)." (alibabacloud-go/
cs-20151215@1331d118 ``create_cluster_request_model.go``; terraform's ``StringLenBetween(1,
63)``). Letters are Unicode letters: whether ACK takes Chinese ones is unconfirmed."""
VSWITCH_ID = NameRule(
    r"vsw-[a-z0-9]*",
    4,
    64,
    "a vSwitch ID starts with 'vsw-' followed by lowercase letters and digits (the alicloud "
    "provider's rule for vswitch_ids)",
    "https://registry.terraform.io/providers/aliyun/alicloud/latest/docs/resources/"
    "cs_managed_kubernetes",
)
"""``StringMatch(^vsw-[a-z0-9]*$)`` on ``vswitch_ids`` and ``pod_vswitch_ids``
(aliyun/terraform-provider-alicloud@81c43b67 ``resource_alicloud_cs_managed_kubernetes.go``);
the upper length bound is ours, generous."""
SLS_PROJECT_NAME = NameRule(
    r"[a-z0-9]([a-z0-9-]*[a-z0-9])?",
    3,
    63,
    "Simple Log Service project names are 3-63 lowercase letters, digits and '-', starting and "
    "ending with a letter or digit (Alibaba Cloud's rule for CreateProject)",
    "https://www.alibabacloud.com/help/en/sls/api-createproject",
)
"""An SLS project (``auditLogProject``: audit logs, and the workloads' logstores): "The name
can contain only lowercase letters, digits, and hyphens (-). The name must start and end with
a lowercase letter or digit. The name must be 3 to 63 characters in length" (also the SLS CLI's
``create-project``). It must be globally unique: only the cloud can tell."""
