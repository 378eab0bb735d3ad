"""nvme-cache-volumes-ephemeral: the NVMe cache only through generic ephemeral volumes."""

from __future__ import annotations

import pytest

from .harness import Case, assert_case, policy_named, violations
from .platform_fixtures import (
    cache_workload,
    many_workloads_stack,
    pvc,
    stateful_set_with_claim,
    storage_class,
)
from .pod_fixtures import BUILTIN_KINDS as KINDS
from .stack_fixtures import walks_once

NVME = "nvme-cache-volumes-ephemeral"

CASES: list[Case] = [
    Case(NVME, "pvc-on-another-class", (storage_class(), pvc("managed-csi"))),
    Case(NVME, "pvc-without-class-default-elsewhere", (storage_class(), pvc(None))),
    Case(NVME, "no-nvme-class", (storage_class(provisioner="disk.csi.azure.com"), pvc())),
    Case(NVME, "exempt-claim", (storage_class(), pvc()), config={"exemptNames": ["cache"]}),
    Case(
        NVME,
        "pvc",
        (storage_class(), pvc()),
        ("PersistentVolumeClaim 'cache' claims the local NVMe cache, which its data is lost",),
    ),
    Case(
        NVME,
        "stateful-set-claim",
        (storage_class(), stateful_set_with_claim()),
        ("volumeClaimTemplate 'cache'",),
    ),
    Case(NVME, "default-class", (storage_class(default=True), pvc(None)), ("'cache'",)),
    Case(
        NVME,
        "class-named-in-config",
        (pvc("team-nvme"),),
        ("'cache'",),
        config={"nvmeStorageClasses": ["team-nvme"]},
    ),
    Case(
        NVME,
        "exempt-namespace",
        (storage_class(), pvc()),
        config={"exemptNamespaces": ["gpu-training"]},
    ),
    *(
        Case(NVME, f"{kind}-ephemeral-volume", (storage_class(), cache_workload(kind)))
        for kind in KINDS
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_violations_point_at_the_claim() -> None:
    claim = pvc()
    assert [urn for _, urn in violations(policy_named(NVME), (storage_class(), claim))] == [
        claim.urn
    ]


def test_walks_the_resources_once() -> None:
    walks_once(NVME, many_workloads_stack())
