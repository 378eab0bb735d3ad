"""What Azure and Alibaba Cloud take as resource tags, with their sources.

The stack's ``cluster.tags`` go to every resource the platform creates on that cloud, so the
rule is the strictest of those resources'.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TagRules:
    """A cloud's tag limits: lengths are in characters."""

    cloud: str
    max_tags: int
    key_max: int
    value_max: int
    key_forbidden_chars: str
    """Characters a key must not contain."""
    forbidden_prefixes: tuple[str, ...]
    """Prefixes neither a key nor a value may start with."""
    forbidden_substrings: tuple[str, ...]
    """Text neither a key nor a value may contain."""
    case_insensitive_keys: bool
    source: str


AZURE_TAGS = TagRules(
    cloud="Azure",
    max_tags=50,
    key_max=512,
    value_max=256,
    key_forbidden_chars="<>%&\\?/",
    forbidden_prefixes=(),
    forbidden_substrings=(),
    case_insensitive_keys=True,
    source="https://learn.microsoft.com/azure/azure-resource-manager/management/tag-resources"
    "#limitations",
)
""""Each resource, resource group, and subscription can have a maximum of 50 tag name-value
pairs"; "The tag name has a limit of 512 characters and the tag value has a limit of 256
characters"; "Tag names can't contain these characters: <, >, %, &, \\, ?, /"; tag names are
case-insensitive (so two keys differing only in case are one tag; AKS takes the alphabetically
first: https://learn.microsoft.com/azure/aks/use-tags). Control characters are refused too
(the naming rules page)."""

ACK_TAGS = TagRules(
    cloud="Alibaba Cloud",
    max_tags=20,
    key_max=64,
    value_max=128,
    key_forbidden_chars="",
    forbidden_prefixes=("aliyun", "acs:", "https://", "http://"),
    forbidden_substrings=("https://", "http://"),
    case_insensitive_keys=False,
    source="https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/"
    "developer-reference/api-cs-2015-12-15-createcluster",
)
"""The cluster's ``tags`` (CreateCluster): at most 20, "The tag key ... cannot exceed 64
characters ... cannot start with aliyun, acs:, https://, or http://"; values at most 128
characters with the same prefixes refused. The same tags go to the node pools
(CreateClusterNodePool: keys and values "cannot start with aliyun or acs: or contain https://
or http://"), the VPC and the vSwitches (alibabacloud-go/cs-20151215@1331d118
``create_cluster_request_model.go`` L1096-1100, ``create_cluster_node_pool_request_model.go``
L1902). Whether the prefixes are matched case-insensitively is unconfirmed: as written."""
