"""What AKS refuses in a cluster's own settings, or what would lock everyone out: local accounts
off without Entra ID, a kubelogin mode without it, the API server's authorized ranges, and the
system pool (size, pods per node, OS disk); and the values Azure validates (names, tags, Entra
IDs: ``aks_cluster_value_problems``). The stack config's rules (under ``cluster``) and the
AksCluster component ask the same questions here; paths are relative to the cluster."""

from __future__ import annotations

from collections.abc import Iterator
from ipaddress import ip_network

from gpu_platform.settings import AksClusterSettings

from ..cloud_tags import azure_tag_problems
from ..names import aks_cluster_name_problem, entra_object_id_problems, resource_group_name_problem
from ..problems import Problem, under
from .nodes import system_pool_problems

LOCKED_OUT = "needs entraId.enabled, or nobody can log in"
KUBELOGIN_WITHOUT_ENTRA = "used only with entraId.enabled; set that, or remove it"
RANGES_ON_PRIVATE_SERVER = "not allowed on a private API server"


def aks_cluster_problems(cluster: AksClusterSettings) -> Iterator[Problem]:
    """Every problem of an AKS cluster's own settings, relative to the cluster."""
    entra = cluster.entra_id.enabled
    if cluster.disable_local_accounts and not entra:
        yield "disableLocalAccounts", LOCKED_OUT
    if "kubelogin_mode" in cluster.model_fields_set and not entra:
        yield "kubeloginMode", KUBELOGIN_WITHOUT_ENTRA
    ranges = cluster.api_server.authorized_ip_ranges
    if cluster.api_server.private and ranges:
        yield "apiServer.authorizedIpRanges", RANGES_ON_PRIVATE_SERVER
    for j, cidr in enumerate(ranges):
        try:
            ip_network(cidr, strict=False)  # AKS accepts host bits and single addresses
        except ValueError:
            yield f"apiServer.authorizedIpRanges[{j}]", f"not a CIDR: {cidr!r}"
    yield from under("systemPool", system_pool_problems(cluster.system_pool))


def aks_cluster_value_problems(cluster: AksClusterSettings) -> Iterator[Problem]:
    """The cluster's values Azure validates, by Azure's rules (``plan.names``,
    ``plan.cloud_tags``): its name, resource group, tags and Entra group IDs."""
    if (problem := aks_cluster_name_problem(cluster.name)) is not None:
        yield "name", problem
    if (problem := resource_group_name_problem(cluster.resource_group.name)) is not None:
        yield "resourceGroup.name", problem
    yield from under("tags", azure_tag_problems(cluster.tags))
    yield from under(
        "entraId.adminGroupObjectIds",
        entra_object_id_problems(cluster.entra_id.admin_group_object_ids),
    )
