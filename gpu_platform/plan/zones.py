"""Regions and availability zones per cloud: a cluster's region the cloud has, the zones AKS
takes for a node pool and whether the region has any, the zone IDs of an Alibaba region, and
which of a cluster's vSwitches place an ACK pool (``gpu_facts.regions``,
``gpu_facts.aks.nodes``)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Sequence

from gpu_facts.aks.nodes import AKS_ZONES
from gpu_facts.regions import (
    ALIBABA_REGIONS,
    ALIBABA_REGIONS_SOURCE,
    ALIBABA_ZONES,
    ALIBABA_ZONES_SOURCE,
    AZURE_REGIONS,
    AZURE_REGIONS_SOURCE,
    AZURE_REGIONS_WITHOUT_ZONES,
    AZURE_ZONES_SOURCE,
    alibaba_zone_prefix,
    azure_region_key,
)
from gpu_platform.settings import (
    AckClusterSettings,
    AksClusterSettings,
    ClusterSettings,
    CpuPoolSettings,
    GpuPoolSettings,
    ManagedGpuPoolSettings,
)

from .problems import Problem, under


def _listed_twice(zones: Sequence[str]) -> Iterable[tuple[int, str]]:
    for i, zone in enumerate(zones):
        if zone in zones[:i]:
            yield i, f"zone {zone!r} is listed twice"


def aks_zone_problems(zones: Sequence[str], location: str | None = None) -> list[Problem]:
    """``("", why)`` when the pool's region (if known) has no zones, ``("[i]", why)`` for
    each zone AKS does not take or that is listed twice."""
    problems: list[Problem] = []
    if zones and location is not None and azure_region_key(location) in AZURE_REGIONS_WITHOUT_ZONES:
        problems.append(
            (
                "",
                f"{location} has no availability zones ({AZURE_ZONES_SOURCE}): leave zones "
                "out for a regional pool",
            )
        )
    twice = dict(_listed_twice(zones))
    for i, zone in enumerate(zones):
        if i in twice:
            problems.append((f"[{i}]", twice[i]))
        elif zone not in AKS_ZONES:
            problems.append((f"[{i}]", f"AKS zones are {', '.join(AKS_ZONES)}, not {zone!r}"))
    return problems


def alibaba_zone_problem(zone: str, region: str) -> str | None:
    """Why ``zone`` is no zone of the Alibaba ``region``: not in the region's recorded zones,
    or (for a region without a recorded list) not of the form of its zone IDs."""
    known = ALIBABA_ZONES.get(region)
    if known is not None:
        if zone in known:
            return None
        return (
            f"{zone!r} is not a zone of {region}: its zones are {', '.join(sorted(known))} "
            f"({ALIBABA_ZONES_SOURCE}; a zone newer than that list: add it to "
            "policies/gpu_facts/regions.py)"
        )
    if _has_zone_form(zone, region):
        return None
    example = alibaba_zone_prefix(region) + "a"
    return (
        f"{zone!r} is not a zone of {region}: its zone IDs are the region ID and a letter "
        f"(e.g. {example})"
    )


def _has_zone_form(zone: str, region: str) -> bool:
    return re.fullmatch(re.escape(alibaba_zone_prefix(region)) + "[a-z]", zone) is not None


def alibaba_zone_region(zone: str) -> str | None:
    """The Alibaba region ``zone`` belongs to by its form, or None."""
    for region in sorted(ALIBABA_REGIONS, key=len, reverse=True):
        if _has_zone_form(zone, region):
            return region
    return None


def alibaba_zones_problems(zones: Sequence[str], region: str | None = None) -> list[Problem]:
    """``("[i]", why)`` of each zone that is not one of ``region``; without a region (a
    component gets none: the provider has it), each zone is judged in the region its form
    names, and every zone must be in the first one's."""
    problems: list[Problem] = []
    first = region
    for i, zone in enumerate(zones):
        where = region if region is not None else alibaba_zone_region(zone)
        if where is None:
            problems.append((f"[{i}]", f"{zone!r} is no zone of an Alibaba Cloud region"))
            continue
        problem = alibaba_zone_problem(zone, where)
        if problem is None and first is not None and where != first:
            problem = f"{zone!r} is in {where}, the other zones in {first}: one region only"
        first = first or where
        if problem is not None:
            problems.append((f"[{i}]", problem))
    return problems


def ack_pool_zone_problems(zones: Sequence[str], vswitch_zones: Sequence[str]) -> list[Problem]:
    """An ACK pool's zones pick among the node vSwitches the stack creates (their zones
    ``vswitch_zones``): ``("", why)`` with none to pick from, ``("[i]", why)`` per zone."""
    if not zones:
        return []
    created = sorted(set(vswitch_zones))
    if not created:
        return [
            (
                "",
                "zones pick among the node vSwitches the stack creates (cluster.vpc.vswitches); "
                "with existing vswitchIds, leave zones out (the pool uses every vSwitch)",
            )
        ]
    twice = dict(_listed_twice(zones))
    problems: list[Problem] = []
    for i, zone in enumerate(zones):
        if i in twice:
            problems.append((f"[{i}]", twice[i]))
        elif zone not in created:
            problems.append(
                (
                    f"[{i}]",
                    f"no node vSwitch in zone {zone!r}; zones of cluster.vpc.vswitches: "
                    f"{', '.join(created)}",
                )
            )
    return problems


def _unknown_region(
    key: str, name: str, known: frozenset[str], cloud: str, source: str, *, match: str = ""
) -> Problem:
    """``name`` as the user wrote it; ``match`` the form compared with the known names."""
    close = difflib.get_close_matches(match or name, sorted(known), n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}?" if close else f"region names: {source}"
    return (
        key,
        f"unknown {cloud} region {name!r}; {hint} (a region newer than the catalog: add it to "
        "policies/gpu_facts/regions.py)",
    )


def region_problems(cluster: ClusterSettings) -> Iterator[Problem]:
    """The cluster's region is one the cloud has, and ACK vSwitch zones are in it; paths
    relative to the cluster."""
    if isinstance(cluster, AksClusterSettings):
        key = azure_region_key(cluster.location)
        if key not in AZURE_REGIONS:
            yield _unknown_region(
                "location",
                cluster.location,
                AZURE_REGIONS,
                "Azure",
                AZURE_REGIONS_SOURCE,
                match=key,
            )
    elif isinstance(cluster, AckClusterSettings):
        if cluster.region not in ALIBABA_REGIONS:
            yield _unknown_region(
                "region", cluster.region, ALIBABA_REGIONS, "Alibaba Cloud", ALIBABA_REGIONS_SOURCE
            )
            return  # the zones are judged against a region that exists
        vpc = cluster.vpc
        for field, switches in (("vswitches", vpc.vswitches), ("podVswitches", vpc.pod_vswitches)):
            for i, switch in enumerate(switches):
                problem = alibaba_zone_problem(switch.zone, cluster.region)
                if problem is not None:
                    yield f"vpc.{field}[{i}].zone", problem


def pool_zone_problems(
    cluster: ClusterSettings, pool: GpuPoolSettings | CpuPoolSettings
) -> list[Problem]:
    """A GPU or CPU pool's zones on its cluster, relative to the pool. AKS: zones 1 to 3, in a
    region that has zones. ACK: zones pick among the node vSwitches the stack creates. An
    existing cluster's nodes are where they are (its pools have no zones)."""
    if not isinstance(pool, ManagedGpuPoolSettings | CpuPoolSettings) or not pool.zones:
        return []
    if isinstance(cluster, AksClusterSettings):
        return under("zones", aks_zone_problems(pool.zones, cluster.location))
    if isinstance(cluster, AckClusterSettings):
        switch_zones = [switch.zone for switch in cluster.vpc.vswitches]
        return under("zones", ack_pool_zone_problems(pool.zones, switch_zones))
    return []
