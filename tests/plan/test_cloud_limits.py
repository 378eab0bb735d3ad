"""The cloud's limits in the stack config: region names, node pool and cluster sizes refused
with their key paths; default quotas and regional offers as warnings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gpu_facts.cloud_limits import (
    ACK_CLUSTER_TYPES,
    ACK_NODE_POOL_SCALING,
    AKS_QUOTAS,
)
from gpu_facts.regions import ALIBABA_REGIONS_SOURCE, AZURE_REGIONS_SOURCE, RegionalOffer
from gpu_platform.plan.cloud_limits import cloud_limit_warnings, cluster_max_nodes
from gpu_platform.stack_config import load_platform
from tests.stack_config.rules.subjects import problems, raw

Raw = dict[str, Any]
NEW_REGION = "(a region newer than the catalog: add it to policies/gpu_facts/regions.py)"


def pool(stack: str, i: int, **changes: Any) -> Callable[[Raw], object]:
    def mutate(r: Raw) -> None:
        p = r["gpuPools"][i]
        p.pop("count", None)
        p.pop("autoscale", None)
        p.update(changes)

    return mutate


@pytest.mark.parametrize("stack", ["dev", "prod", "ack-dev", "existing"])
def test_sample_stacks_stay_valid_without_limit_warnings(stack: str) -> None:
    platform = load_platform(raw(stack))
    assert cloud_limit_warnings(platform.settings) == []


# --- regions ---------------------------------------------------------------------------


def test_mars_central_is_refused_with_the_closest_names() -> None:
    assert problems("dev", lambda r: r["cluster"].update(location="mars-central")) == [
        (
            "cluster.location",
            "unknown Azure region 'mars-central'; did you mean qatarcentral or uaecentral or "
            f"spaincentral? {NEW_REGION}",
        )
    ]


def test_a_typo_gets_the_region_it_meant() -> None:
    [(path, message)] = problems("prod", lambda r: r["cluster"].update(location="westeurop"))
    assert path == "cluster.location"
    assert message.startswith("unknown Azure region 'westeurop'; did you mean westeurope or ")


def test_a_name_like_no_region_points_at_the_list() -> None:
    assert problems("dev", lambda r: r["cluster"].update(location="x")) == [
        (
            "cluster.location",
            f"unknown Azure region 'x'; region names: {AZURE_REGIONS_SOURCE} {NEW_REGION}",
        )
    ]


@pytest.mark.parametrize("location", ["West Europe", "WestEurope", "swedencentral", "chinaeast2"])
def test_azure_takes_display_names_and_every_listed_region(location: str) -> None:
    load_platform(raw("dev", lambda r: r["cluster"].update(location=location)))


def test_unknown_ack_region_is_refused_and_its_zones_not_judged() -> None:
    assert problems("ack-dev", lambda r: r["cluster"].update(region="cn-hangzou")) == [
        (
            "cluster.region",
            "unknown Alibaba Cloud region 'cn-hangzou'; did you mean cn-hangzhou or "
            f"cn-guangzhou or cn-zhangjiakou? {NEW_REGION}",
        )
    ]
    [(_, message)] = problems("ack-dev", lambda r: r["cluster"].update(region="x"))
    assert f"region names: {ALIBABA_REGIONS_SOURCE}" in message


def test_ack_vswitch_zones_must_be_in_the_region() -> None:
    def move(r: Raw) -> None:
        r["cluster"]["vpc"]["vswitches"][1]["zone"] = "cn-shanghai-b"
        r["cluster"]["vpc"]["podVswitches"][0]["zone"] = "ap-southeast-1a"

    hangzhou = (
        "is not a zone of cn-hangzhou: its zones are cn-hangzhou-b, cn-hangzhou-e, cn-hangzhou-f, "
        "cn-hangzhou-g, cn-hangzhou-h, cn-hangzhou-i, cn-hangzhou-j, cn-hangzhou-k "
        "(https://www.alibabacloud.com/help/en/elastic-container-instance/latest/regions-and-zones;"
        " a zone newer than that list: add it to policies/gpu_facts/regions.py)"
    )
    assert problems("ack-dev", move) == [
        ("cluster.vpc.vswitches[1].zone", f"'cn-shanghai-b' {hangzhou}"),
        ("cluster.vpc.podVswitches[0].zone", f"'ap-southeast-1a' {hangzhou}"),
    ]


def test_ack_zone_letter_past_the_regions_zones_is_refused() -> None:
    def move(r: Raw) -> None:
        r["cluster"]["vpc"]["vswitches"][0]["zone"] = "cn-hangzhou-z"

    ((path, message),) = problems("ack-dev", move)
    assert path == "cluster.vpc.vswitches[0].zone"
    assert message.startswith("'cn-hangzhou-z' is not a zone of cn-hangzhou: its zones are ")


def test_singapore_zones_have_no_hyphen_before_the_letter() -> None:
    def singapore(r: Raw) -> None:
        r["cluster"]["region"] = "ap-southeast-1"
        for key in ("vswitches", "podVswitches"):
            for switch, zone in zip(r["cluster"]["vpc"][key], ("a", "b"), strict=True):
                switch["zone"] = f"ap-southeast-1{zone}"

    load_platform(raw("ack-dev", singapore))


# --- pool sizes --------------------------------------------------------------------------


def test_a_pool_of_5000_nodes_is_refused_alone() -> None:
    # Only the pool: its workload quota and the cluster total are not also blamed.
    assert problems("dev", pool("dev", 0, count=5000, mig={"profile": "MIG1g"})) == [
        (
            "gpuPools[0].count",
            f"5000 nodes; AKS allows at most 1000 in one node pool ({AKS_QUOTAS}): "
            "split it into several pools",
        )
    ]


def test_aks_autoscale_max_is_bounded_too() -> None:
    assert problems("prod", pool("prod", 1, autoscale={"min": 0, "max": 1001})) == [
        (
            "gpuPools[1].autoscale.max",
            f"1001 nodes; AKS allows at most 1000 in one node pool ({AKS_QUOTAS}): "
            "split it into several pools",
        )
    ]


def test_pools_of_exactly_the_limit_are_accepted() -> None:
    load_platform(raw("prod", pool("prod", 1, autoscale={"min": 0, "max": 1000})))
    load_platform(raw("ack-dev", pool("ack-dev", 1, autoscale={"min": 0, "max": 1000})))


def test_ack_autoscale_max_is_bounded() -> None:
    assert problems("ack-dev", pool("ack-dev", 1, autoscale={"min": 0, "max": 1500})) == [
        (
            "gpuPools[1].autoscale.max",
            f"1500 nodes; ACK allows at most 1000 in one node pool ({ACK_NODE_POOL_SCALING}): "
            "split it into several pools",
        )
    ]


def test_aks_system_pool_is_bounded_like_any_pool() -> None:
    [(path, message)] = problems("dev", lambda r: r["cluster"]["systemPool"].update(count=1001))
    assert path == "cluster.systemPool.count"
    assert message.startswith("1001 nodes; AKS allows at most 1000 in one node pool")


def test_aks_system_pool_needs_a_node() -> None:
    [(path, _)] = problems("dev", lambda r: r["cluster"]["systemPool"].update(count=0))
    assert path == "cluster.systemPool.count"


# --- cluster sizes -----------------------------------------------------------------------


def six_pools_of(stack: str, nodes: int) -> Callable[[Raw], object]:
    """The stack's second pool, six times, each up to ``nodes`` nodes; no CPU pool."""

    def mutate(r: Raw) -> None:
        template = r["gpuPools"][1]
        r["gpuPools"] = [
            {**template, "name": f"p{i}", "autoscale": {"min": 0, "max": nodes}} for i in range(6)
        ]
        r["workloads"] = []
        r.pop("cpuPools", None)

    return mutate


def test_aks_cluster_past_5000_nodes_is_refused() -> None:
    assert problems("prod", six_pools_of("prod", 900)) == [
        (
            "gpuPools",
            "the cluster can grow to 5403 nodes (system pool 3 + GPU pools at their largest "
            f"5400); AKS allows at most 5000 per cluster ({AKS_QUOTAS})",
        )
    ]


def test_aks_cluster_past_its_default_limit_is_warned_not_refused() -> None:
    platform = load_platform(raw("prod", six_pools_of("prod", 200)))
    assert cluster_max_nodes(platform.settings) == 1203
    assert platform.warnings == [
        "gpuPools: the cluster can grow to 1203 nodes, past AKS's default limit of 1000 per "
        f"cluster; ask Azure support to raise it first ({AKS_QUOTAS})"
    ]


def test_free_tier_past_its_recommended_size_is_warned() -> None:
    # System 2 + a100mig 1 + t4 up to 8 + the CPU pool up to 3.
    platform = load_platform(raw("dev", pool("dev", 1, autoscale={"min": 0, "max": 8})))
    assert platform.warnings == [
        "cluster.skuTier: Free is recommended for at most 10 nodes and the cluster can grow "
        f"to 14; use Standard ({AKS_QUOTAS})"
    ]


@pytest.mark.parametrize("stack", ["dev", "ack-dev"])
def test_cpu_pools_count_towards_the_cluster_size(stack: str) -> None:
    with_cpu = load_platform(raw(stack)).settings
    without = load_platform(raw(stack, lambda r: r.pop("cpuPools"))).settings
    (general,) = with_cpu.cpu_pools
    assert general.autoscale is not None
    assert cluster_max_nodes(with_cpu) == (cluster_max_nodes(without) or 0) + general.autoscale.max


def test_a_cpu_pool_past_the_pool_limit_is_refused_on_its_own_key() -> None:
    def huge(r: Raw) -> None:
        r["cpuPools"][0]["autoscale"]["max"] = 1001

    assert problems("dev", huge) == [
        (
            "cpuPools[0].autoscale.max",
            f"1001 nodes; AKS allows at most 1000 in one node pool ({AKS_QUOTAS}): split it into "
            "several pools",
        )
    ]


def test_ack_basic_past_10_nodes_is_refused() -> None:
    def basic(r: Raw) -> None:
        r["cluster"]["clusterSpec"] = "ack.standard"
        del r["gpuPools"][0]  # ACK sharing needs Pro
        del r["workloads"][0]
        r.pop("ackGpuSharing")
        r["gpuPools"][0]["autoscale"]["max"] = 9

    assert problems("ack-dev", basic) == [
        (
            "gpuPools",
            "the cluster can grow to 14 nodes (system pool 2 + GPU and CPU pools at their "
            "largest 12); "
            f"ACK Basic (ack.standard) allows at most 10 per cluster ({ACK_CLUSTER_TYPES})",
        )
    ]


def test_ack_pro_past_its_default_quota_is_warned_not_refused() -> None:
    platform = load_platform(raw("ack-dev", six_pools_of("ack-dev", 1000)))
    assert platform.warnings == [
        "gpuPools: the cluster can grow to 6002 nodes, past ACK Pro's default quota of 5000 "
        f"worker nodes; raise it in Quota Center first ({ACK_CLUSTER_TYPES})"
    ]


def test_existing_clusters_have_no_size_limit_of_ours() -> None:
    platform = load_platform(raw("existing", lambda r: r["gpuPools"][1].update(count=5000)))
    assert cluster_max_nodes(platform.settings) is None
    assert platform.warnings == []


# --- regional offers ---------------------------------------------------------------------

SOURCE = "https://example.test/offers"


def test_a_size_a_source_says_the_region_lacks_is_warned() -> None:
    settings = load_platform(raw("dev")).settings
    # The catalog has no regional source yet; state one, as a future source would.
    offers = {"Standard_ND96asr_v4": RegionalOffer(frozenset({"eastus", "southcentralus"}), SOURCE)}
    assert cloud_limit_warnings(settings, azure_offers=offers) == [
        "gpuPools[0].vmSize: Standard_ND96asr_v4 is not offered in westeurope "
        f"({SOURCE} lists eastus, southcentralus); its nodes would never be created there"
    ]
    offers["Standard_ND96asr_v4"] = RegionalOffer(frozenset({"westeurope"}), SOURCE)
    assert cloud_limit_warnings(settings, azure_offers=offers) == []


def test_display_name_and_any_size_case_match_the_offer() -> None:
    settings = load_platform(
        raw("dev", lambda r: r["cluster"].update(location="West Europe"))
    ).settings
    offers = {"Standard_NC4as_T4_v3": RegionalOffer(frozenset({"westeurope"}), SOURCE)}
    assert cloud_limit_warnings(settings, azure_offers=offers) == []


def test_an_ecs_type_a_source_says_the_region_lacks_is_warned() -> None:
    settings = load_platform(raw("ack-dev")).settings
    offers = {"ecs.gn6i-c4g1.xlarge": RegionalOffer(frozenset({"cn-beijing"}), SOURCE)}
    assert cloud_limit_warnings(settings, ecs_offers=offers) == [
        "gpuPools[1].instanceType: ecs.gn6i-c4g1.xlarge is not offered in cn-hangzhou "
        f"({SOURCE} lists cn-beijing); its nodes would never be created there"
    ]


def test_unknown_availability_never_warns() -> None:
    settings = load_platform(raw("dev")).settings
    assert cloud_limit_warnings(settings, azure_offers={}) == []


def test_a_display_name_typo_is_quoted_as_written() -> None:
    [(_, message)] = problems("dev", lambda r: r["cluster"].update(location="West Eurpe"))
    assert message.startswith("unknown Azure region 'West Eurpe'; did you mean westeurope")
