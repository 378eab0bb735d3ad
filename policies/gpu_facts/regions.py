"""Region names of Azure and Alibaba Cloud, and where a GPU machine type is (not) offered.

Region names are the API form: Azure's ``name`` (``westeurope``, as ``az account
list-locations --query [].name`` prints it), Alibaba's region ID (``cn-hangzhou``). The lists
lean inclusive: a new region that is missing here is refused by the config until it is added,
so they hold every public region the sources list, the sovereign ones (Azure China, Azure
Government) and Alibaba's finance regions included.

Where a GPU size is offered is recorded only where a public source states the complete list of
its regions, as a ``RegionalOffer`` with that source and its date: the config warns when that
list leaves the cluster's region out, so a partial list ("available in regions including
...", a launch announcement's first regions, a third party's summary) is not recorded, nor is
a list read off a live tool. No such source exists for the sizes in the catalog (searched
again for issue 15): Microsoft Learn's series and family pages (``ncast4v3-series``,
``ndasra100v4-series``, ``nca100v4-series``, ``ncadsh100v5-series``, ``ndh100v5-series``,
``nvadsa10v5-series``, ``nd-family``) state no regions; where a size runs is answered by
live, subscription-dependent tools (Azure's "products available by region", ``az vm list-skus
--location``, as the AKS team answers it in https://github.com/Azure/AKS/issues/280).
Alibaba's GPU family pages state none either and send readers to the ECS console's "instance
types available by region" tool (https://ecs-buy.aliyun.com/instanceTypes/#/instanceTypeByRegion)
or ``DescribeAvailableResource``. So both tables are empty and the config warns about nothing
rather than guess: unknown is not "not offered".
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

AZURE_REGIONS_SOURCE = "https://learn.microsoft.com/azure/reliability/regions-list"
ALIBABA_REGIONS_SOURCE = "https://www.alibabacloud.com/help/en/ecs/user-guide/regions-and-zones"

AZURE_REGIONS: frozenset[str] = frozenset(
    {
        # Americas
        "brazilsouth",
        "brazilsoutheast",
        "canadacentral",
        "canadaeast",
        "centralus",
        "chilecentral",
        "eastus",
        "eastus2",
        "mexicocentral",
        "northcentralus",
        "southcentralus",
        "westcentralus",
        "westus",
        "westus2",
        "westus3",
        # Europe
        "austriaeast",
        "belgiumcentral",
        "denmarkeast",
        "francecentral",
        "francesouth",
        "germanynorth",
        "germanywestcentral",
        "italynorth",
        "northeurope",
        "norwayeast",
        "norwaywest",
        "polandcentral",
        "spaincentral",
        "swedencentral",
        "swedensouth",
        "switzerlandnorth",
        "switzerlandwest",
        "uksouth",
        "ukwest",
        "westeurope",
        # Asia Pacific
        "australiacentral",
        "australiacentral2",
        "australiaeast",
        "australiasoutheast",
        "centralindia",
        "eastasia",
        "indiasouthcentral",
        "indonesiacentral",
        "japaneast",
        "japanwest",
        "jioindiacentral",
        "jioindiawest",
        "koreacentral",
        "koreasouth",
        "malaysiawest",
        "newzealandnorth",
        "southeastasia",
        "southindia",
        "westindia",
        # Middle East and Africa
        "israelcentral",
        "qatarcentral",
        "southafricanorth",
        "southafricawest",
        "uaecentral",
        "uaenorth",
        # Sovereign clouds: Azure operated by 21Vianet, Azure Government
        "chinaeast",
        "chinaeast2",
        "chinaeast3",
        "chinanorth",
        "chinanorth2",
        "chinanorth3",
        "usgovarizona",
        "usgovtexas",
        "usgovvirginia",
    }
)
"""Azure region names (``location``), as the Azure regions list and ``az account
list-locations`` give them. ARM also takes the display name (``West Europe``): compare with
``azure_region_key``."""


def azure_region_key(location: str) -> str:
    """``West Europe`` and ``westeurope`` name the same region: ARM ignores case and spaces."""
    return location.replace(" ", "").lower()


ALIBABA_REGIONS: frozenset[str] = frozenset(
    {
        # Chinese mainland
        "cn-qingdao",
        "cn-beijing",
        "cn-zhangjiakou",
        "cn-huhehaote",
        "cn-wulanchabu",
        "cn-hangzhou",
        "cn-shanghai",
        "cn-nanjing",
        "cn-fuzhou",
        "cn-shenzhen",
        "cn-heyuan",
        "cn-guangzhou",
        "cn-chengdu",
        "cn-wuhan-lr",
        "cn-shanghai-finance-1",
        "cn-shenzhen-finance-1",
        # Outside the Chinese mainland
        "cn-hongkong",
        "ap-northeast-1",
        "ap-northeast-2",
        "ap-southeast-1",
        "ap-southeast-2",
        "ap-southeast-3",
        "ap-southeast-5",
        "ap-southeast-6",
        "ap-southeast-7",
        "ap-south-1",
        "us-east-1",
        "us-west-1",
        "na-south-1",
        "eu-west-1",
        "eu-central-1",
        "me-east-1",
        "me-central-1",
    }
)
"""Alibaba Cloud region IDs (``cluster.region``), as the ECS "Regions and zones" page gives
them."""

AZURE_ZONES_SOURCE = "https://learn.microsoft.com/azure/reliability/regions-list"
AZURE_ZONAL_REGIONS: frozenset[str] = frozenset(
    {
        "australiaeast",
        "austriaeast",
        "belgiumcentral",
        "brazilsouth",
        "canadacentral",
        "centralindia",
        "centralus",
        "chilecentral",
        "denmarkeast",
        "eastasia",
        "eastus",
        "eastus2",
        "francecentral",
        "germanywestcentral",
        "indiasouthcentral",
        "indonesiacentral",
        "israelcentral",
        "italynorth",
        "japaneast",
        "japanwest",
        "koreacentral",
        "malaysiawest",
        "mexicocentral",
        "newzealandnorth",
        "northeurope",
        "norwayeast",
        "polandcentral",
        "qatarcentral",
        "southafricanorth",
        "southcentralus",
        "southeastasia",
        "spaincentral",
        "swedencentral",
        "switzerlandnorth",
        "uaenorth",
        "uksouth",
        "westeurope",
        "westus2",
        "westus3",
    }
)
"""Azure regions with availability zones: the regions ``AZURE_ZONES_SOURCE`` marks with them
(MicrosoftDocs/reliability-docs ``articles/reliability/regions-list.md``, ``ms.date``
2025-09-23, last commit 2026-07-28; read 2026-11-25)."""
AZURE_REGIONS_WITHOUT_ZONES: frozenset[str] = frozenset(
    {
        "australiacentral",
        "australiacentral2",
        "australiasoutheast",
        "brazilsoutheast",
        "canadaeast",
        "francesouth",
        "germanynorth",
        "koreasouth",
        "northcentralus",
        "norwaywest",
        "southafricawest",
        "southindia",
        "switzerlandwest",
        "uaecentral",
        "ukwest",
        "westcentralus",
        "westindia",
        "westus",
    }
)
"""Azure regions the same list gives without availability zones: a node pool there takes no
``zones``. Regions in neither set (sovereign clouds, restricted regions) are not judged."""

ALIBABA_ZONES_SOURCE = (
    "https://www.alibabacloud.com/help/en/elastic-container-instance/latest/regions-and-zones"
)
ALIBABA_ZONES: dict[str, frozenset[str]] = {
    "cn-hangzhou": frozenset("cn-hangzhou-" + z for z in "befghijk"),
    "cn-shanghai": frozenset("cn-shanghai-" + z for z in "abcdefgklmn"),
    "cn-qingdao": frozenset("cn-qingdao-" + z for z in "bc"),
}
"""Zone IDs of the Alibaba regions whose full zone list a source we read states (the Elastic
Container Instance table of ``ALIBABA_ZONES_SOURCE``, "Zone ID" column, last updated
2025-12-19, read 2026-11-25; Alibaba's own tables elsewhere were not readable in
full). Other regions are judged by the form of their zone IDs only (``alibaba_zone_prefix`` and a
letter).
A zone newer than this list is refused until it is added here."""


def alibaba_zone_prefix(region: str) -> str:
    """What every zone ID of ``region`` starts with, before the zone letter: the region ID and
    '-' when the ID ends in a letter (``cn-hangzhou-i``), the ID alone when it ends in a digit
    (``ap-southeast-1a``, ``cn-shanghai-finance-1f``)."""
    return region if region[-1:].isdigit() else region + "-"


@dataclass(frozen=True, slots=True)
class RegionalOffer:
    """The regions a source says offer a machine type: its complete list, as of the source."""

    regions: frozenset[str]
    source: str


AZURE_VM_SIZE_REGIONS: Mapping[str, RegionalOffer] = {}
"""VM size (the catalog's spelling) -> where Microsoft says it is offered. Empty: no source
states a complete list (see above)."""
ECS_INSTANCE_TYPE_REGIONS: Mapping[str, RegionalOffer] = {}
"""ECS instance type -> where Alibaba says it is offered. Empty: no source states a complete
list (see above)."""


def offer_problems(
    offers: Mapping[str, RegionalOffer], machines: Collection[str], regions: Collection[str]
) -> list[str]:
    """What is wrong with an offer table: a machine the catalog does not spell so (the lookup
    is exact: it would never warn), a region not spelled as the region list spells it
    (``West Europe``: a cluster there would be warned wrongly), an offer with no region or no
    https source."""
    problems: list[str] = []
    for machine, offer in offers.items():
        if machine not in machines:
            problems.append(f"{machine}: not a catalog machine")
        problems.extend(
            f"{machine}: unknown region {r!r}" for r in sorted(offer.regions - set(regions))
        )
        if not offer.regions:
            problems.append(f"{machine}: no region")
        if not offer.source.startswith("https://"):
            problems.append(f"{machine}: source {offer.source!r} is not an https URL")
    return problems


def not_offered_in(
    offers: Mapping[str, RegionalOffer], machine: str, region: str
) -> RegionalOffer | None:
    """The offer whose source leaves ``region`` out for ``machine``, or None when the region
    is in it or no source says (unknown never warns)."""
    offer = offers.get(machine)
    if offer is None or region in offer.regions:
        return None
    return offer
