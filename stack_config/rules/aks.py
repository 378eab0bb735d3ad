"""Rules of AKS clusters and their pools: Entra ID, the API server, upgrade surge."""

from __future__ import annotations

from collections.abc import Iterator
from ipaddress import ip_network

from settings import AksClusterSettings, GpuPoolSettings

from .base import ConfigUnderCheck, Problem, Rule
from .pools import per_pool


def cluster(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    aks = cfg.settings.cluster
    if not isinstance(aks, AksClusterSettings):
        return
    if aks.disable_local_accounts and not aks.entra_id.enabled:
        yield "cluster.disableLocalAccounts", "needs entraId.enabled, or nobody can log in"
    if "kubelogin_mode" in aks.model_fields_set and not aks.entra_id.enabled:
        yield "cluster.kubeloginMode", "used only with entraId.enabled; set that, or remove it"
    if aks.api_server.private and aks.api_server.authorized_ip_ranges:
        yield "cluster.apiServer.authorizedIpRanges", "not allowed on a private API server"
    for j, cidr in enumerate(aks.api_server.authorized_ip_ranges):
        try:
            ip_network(cidr, strict=False)  # AKS accepts host bits and single addresses
        except ValueError:
            yield f"cluster.apiServer.authorizedIpRanges[{j}]", f"not a CIDR: {cidr!r}"


def _pool_surge(cfg: ConfigUnderCheck, at: str, pool: GpuPoolSettings) -> Iterator[Problem]:
    """AKS takes a node count or a percentage, never zero."""
    surge = pool.upgrade.max_surge.removesuffix("%")
    if cfg.cloud == "azure" and not (surge.isdigit() and int(surge) > 0):
        yield f"{at}.upgrade.maxSurge", "a node count (e.g. 1) or a percentage (e.g. 10%)"


POOL_RULES: tuple[Rule, ...] = (per_pool(_pool_surge),)
RULES: tuple[Rule, ...] = (cluster,)
