"""What an AKS pool or cluster gets from the API version a program writes it against.

A team's program declares AKS with pulumi-azure-native at its default API version, with an
explicit API-version SDK (``pulumi package add azure-native containerservice <version>``, whose
tokens carry the version: ``azure-native:containerservice/v20250801:AgentPool``), or with the
classic, azurerm-based pulumi-azure. The pack reads the version from the token; these are the
facts that change with it.
"""

from __future__ import annotations

AZURE_NATIVE_DEFAULT_API_VERSION = "2025-09-01"
"""The API version of azure-native 3.x's default ``containerservice`` module: "Uses Azure REST API
version 2025-09-01. In version 2.x of the Azure Native provider, it used API version 2023-04-01"
(pulumi-azure-native 3.29.0 ``containerservice/agent_pool.py`` and ``managed_cluster.py``
docstrings). Other versions, 2019-11-01 to 2026-05-02-preview, come only as a local SDK whose
tokens name them. The token of the default module does not say which major version made it: the
pack reads it as 3.x, the release this project pins."""
AZURE_NATIVE_V2_DEFAULT_API_VERSION = "2023-04-01"
"""azure-native 2.x's default ``containerservice`` API version (same docstring)."""

MIG_MIN_API_VERSION = "2021-08-01"
"""The oldest agent-pool API version with ``gpuInstanceProfile``. Seed 001 (the AKS MIG guide),
troubleshooting: if a pool shows no multi-instance GPU after it is created, check that the API
version is not older than 2021-08-01 (aks-docs ``gpu-multi-instance.md``). An older API drops the
field: the pool comes up with whole GPUs."""

NODE_IMAGE_CHANNEL = "NodeImage"
NODE_IMAGE_DEFAULT_FROM_API_VERSION = "2023-06-01"
""""Starting with API version 2023-06-01, the default for any new AKS cluster is NodeImage"
(MicrosoftDocs/azure-aks-docs ``articles/aks/auto-upgrade-node-os-image.md`` @fb060abe, "Node OS
channel"; the ARM types of 2025-09-01 say the same). A cluster written against an older API
version, without ``autoUpgradeProfile.nodeOSUpgradeChannel``, has no such default."""
CLASSIC_NODE_OS_CHANNEL_DEFAULT = "NodeImage"
"""pulumi-azure's ``KubernetesCluster.node_os_upgrade_channel``: "Possible values are
``Unmanaged``, ``SecurityPatch``, ``NodeImage`` and ``None``. Defaults to ``NodeImage``"
(pulumi/pulumi-azure v6.39.0 ``sdk/python/pulumi_azure/containerservice/kubernetes_cluster.py``)."""

CLASSIC_CRITICAL_ADDONS_TAINT = "CriticalAddonsOnly=true:NoSchedule"
"""pulumi-azure's ``KubernetesCluster.default_node_pool`` has no ``node_taints``;
``only_critical_addons_enabled`` taints it ``CriticalAddonsOnly=true:NoSchedule`` (pulumi-azure
v6.39.0 ``containerservice/_inputs.py``, ``KubernetesClusterDefaultNodePoolArgs``). So a GPU size
in the default pool can never carry the GPU taint."""


def api_date(api_version: str) -> str:
    """``2025-08-02-preview`` -> ``2025-08-02``: API versions compare by their date."""
    return api_version[:10]


def has_mig(api_version: str) -> bool:
    """Whether an agent-pool API version knows ``gpuInstanceProfile``."""
    return api_date(api_version) >= MIG_MIN_API_VERSION


def default_node_os_channel(api_version: str) -> str | None:
    """The node OS upgrade channel a new cluster gets when it sets none, at this API version;
    None before 2023-06-01."""
    if api_date(api_version) >= NODE_IMAGE_DEFAULT_FROM_API_VERSION:
        return NODE_IMAGE_CHANNEL
    return None
