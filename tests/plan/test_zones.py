"""plan.zones: AKS zones per region, Alibaba zone IDs per region, ACK pools' zones among the
node vSwitches."""

from __future__ import annotations

import pytest

from gpu_facts.regions import (
    ALIBABA_REGIONS,
    ALIBABA_ZONES,
    AZURE_REGIONS,
    AZURE_REGIONS_WITHOUT_ZONES,
    AZURE_ZONAL_REGIONS,
    alibaba_zone_prefix,
)
from gpu_platform.plan.zones import (
    ack_pool_zone_problems,
    aks_zone_problems,
    alibaba_zone_problem,
    alibaba_zone_region,
    alibaba_zones_problems,
)


def test_zone_facts_name_known_regions() -> None:
    assert not AZURE_ZONAL_REGIONS & AZURE_REGIONS_WITHOUT_ZONES
    assert AZURE_ZONAL_REGIONS | AZURE_REGIONS_WITHOUT_ZONES <= AZURE_REGIONS
    assert (len(AZURE_ZONAL_REGIONS), len(AZURE_REGIONS_WITHOUT_ZONES)) == (39, 18)
    assert set(ALIBABA_ZONES) <= ALIBABA_REGIONS
    for region, zones in ALIBABA_ZONES.items():
        assert all(zone.startswith(alibaba_zone_prefix(region)) for zone in zones)


def test_aks_takes_zones_1_to_3() -> None:
    assert aks_zone_problems(["1", "2", "3"], "westeurope") == []
    assert aks_zone_problems([], "westus") == []  # a regional pool anywhere
    assert aks_zone_problems(["4", "0", "1", "1", "zone1"]) == [
        ("[0]", "AKS zones are 1, 2, 3, not '4'"),
        ("[1]", "AKS zones are 1, 2, 3, not '0'"),
        ("[3]", "zone '1' is listed twice"),
        ("[4]", "AKS zones are 1, 2, 3, not 'zone1'"),
    ]


@pytest.mark.parametrize("location", ["westus", "West US", "ukwest", "northcentralus"])
def test_aks_refuses_zones_in_a_region_without_any(location: str) -> None:
    assert aks_zone_problems(["1"], location) == [
        (
            "",
            f"{location} has no availability zones "
            "(https://learn.microsoft.com/azure/reliability/regions-list): leave zones out for a "
            "regional pool",
        )
    ]


def test_aks_does_not_judge_regions_the_list_leaves_out() -> None:
    # Sovereign clouds: zone support not recorded, so not refused.
    assert aks_zone_problems(["1"], "chinanorth3") == []
    assert aks_zone_problems(["2"], "usgovvirginia") == []


HANGZHOU = (
    "its zones are cn-hangzhou-b, cn-hangzhou-e, cn-hangzhou-f, cn-hangzhou-g, cn-hangzhou-h, "
    "cn-hangzhou-i, cn-hangzhou-j, cn-hangzhou-k "
    "(https://www.alibabacloud.com/help/en/elastic-container-instance/latest/regions-and-zones; "
    "a zone newer than that list: add it to policies/gpu_facts/regions.py)"
)


@pytest.mark.parametrize(
    ("zone", "region"),
    [
        ("cn-hangzhou-i", "cn-hangzhou"),
        ("cn-hangzhou-k", "cn-hangzhou"),
        ("cn-shanghai-n", "cn-shanghai"),
        ("ap-southeast-1a", "ap-southeast-1"),
        ("cn-shanghai-finance-1f", "cn-shanghai-finance-1"),
        ("eu-central-1b", "eu-central-1"),
        ("cn-beijing-l", "cn-beijing"),
    ],
)
def test_alibaba_zones_of_their_region(zone: str, region: str) -> None:
    assert alibaba_zone_problem(zone, region) is None
    assert alibaba_zone_region(zone) == region
    assert alibaba_zones_problems([zone]) == []
    assert alibaba_zones_problems([zone], region) == []


@pytest.mark.parametrize(
    ("zone", "region", "message"),
    [
        (
            "cn-hangzhou-z",
            "cn-hangzhou",
            f"'cn-hangzhou-z' is not a zone of cn-hangzhou: {HANGZHOU}",
        ),
        (
            "cn-hangzhou-a",
            "cn-hangzhou",
            f"'cn-hangzhou-a' is not a zone of cn-hangzhou: {HANGZHOU}",
        ),
        (
            "ap-southeast-1-a",
            "ap-southeast-1",
            "'ap-southeast-1-a' is not a zone of ap-southeast-1: its zone IDs are the region ID "
            "and a letter (e.g. ap-southeast-1a)",
        ),
        (
            "cn-beijingl",
            "cn-beijing",
            "'cn-beijingl' is not a zone of cn-beijing: its zone IDs are the region ID and a "
            "letter (e.g. cn-beijing-a)",
        ),
        (
            "cn-beijing-ab",
            "cn-beijing",
            "'cn-beijing-ab' is not a zone of cn-beijing: its zone IDs are the region ID and a "
            "letter (e.g. cn-beijing-a)",
        ),
    ],
)
def test_alibaba_zones_refused(zone: str, region: str, message: str) -> None:
    assert alibaba_zone_problem(zone, region) == message


def test_alibaba_zones_without_a_region_are_one_regions() -> None:
    assert alibaba_zones_problems(
        ["cn-hangzhou-i", "cn-shanghai-b", "nowhere-1x", "cn-hangzhou-z"]
    ) == [
        (
            "[1]",
            "'cn-shanghai-b' is in cn-shanghai, the other zones in cn-hangzhou: one region only",
        ),
        ("[2]", "'nowhere-1x' is no zone of an Alibaba Cloud region"),
        ("[3]", f"'cn-hangzhou-z' is not a zone of cn-hangzhou: {HANGZHOU}"),
    ]


def test_ack_pool_zones_pick_among_the_created_vswitches() -> None:
    created = ["cn-hangzhou-i", "cn-hangzhou-j", "cn-hangzhou-i"]
    assert ack_pool_zone_problems([], []) == []
    assert ack_pool_zone_problems(["cn-hangzhou-j"], created) == []
    assert ack_pool_zone_problems(["cn-hangzhou-j", "cn-hangzhou-k", "cn-hangzhou-j"], created) == [
        (
            "[1]",
            "no node vSwitch in zone 'cn-hangzhou-k'; zones of cluster.vpc.vswitches: "
            "cn-hangzhou-i, cn-hangzhou-j",
        ),
        ("[2]", "zone 'cn-hangzhou-j' is listed twice"),
    ]
    assert ack_pool_zone_problems(["cn-hangzhou-i"], []) == [
        (
            "",
            "zones pick among the node vSwitches the stack creates (cluster.vpc.vswitches); with "
            "existing vswitchIds, leave zones out (the pool uses every vSwitch)",
        )
    ]
