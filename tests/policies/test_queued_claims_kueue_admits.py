"""queued-claims-kueue-admits: a queued workload's claims are of a shape Kueue 0.19 admits, both
ways on every kind the issue names, and on each request Kueue refuses."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from .claim_fixtures import claim_object, claim_pod_spec
from .harness import Case, Res, assert_case, messages
from .pod_fixtures import wrap
from .queue_fixtures import KUEUE_KINDS, QUEUE, local_queue, queued, queues

POLICY = "queued-claims-kueue-admits"
BY_NAME = "Kueue cannot charge its claims (ResourceClaim 'gpu-h100': use of resource claims is not"


def template(**request: Any) -> Res:
    """The claim template of ``claim_pod_spec``, its one request changed by ``request``."""
    res = claim_object("template")
    props = copy.deepcopy(res.props)
    requests = props["spec"]["spec"]["devices"]["requests"]
    requests[0] = {**requests[0], **request}
    return Res(res.type, res.name, props)


def exactly(**fields: Any) -> dict[str, Any]:
    return {"exactly": {"deviceClassName": "gpu.nvidia.com", **fields}}


FIRST_AVAILABLE = {
    "exactly": None,
    "firstAvailable": [
        {"name": "h100", "deviceClassName": "gpu.nvidia.com", "count": 1},
        {"name": "a100", "deviceClassName": "gpu.nvidia.com", "count": 2},
    ],
}


def claimer(kind: str, shape: str = "template", queue: str | None = QUEUE) -> Res:
    return queued(kind, claim_pod_spec(shape), queue=queue)


CASES: list[Case] = [
    *(
        Case(POLICY, f"{kind}-queued-template", (*queues(), claimer(kind), template()))
        for kind in KUEUE_KINDS
    ),
    *(
        Case(
            POLICY,
            f"{kind}-queued-names-a-claim",
            (*queues(), claimer(kind, "named"), claim_object("named")),
            (BY_NAME,),
        )
        for kind in KUEUE_KINDS
    ),
    # Each request shape Kueue refuses in a template, and the ones it admits.
    Case(
        POLICY,
        "first-available",
        (*queues(), claimer("Job"), template(**FIRST_AVAILABLE)),
        ("template 'gpu-h100' request 'gpu': FirstAvailable device selection is not supported",),
    ),
    Case(
        POLICY,
        "allocation-mode-all",
        (*queues(), claimer("Job"), template(**exactly(allocationMode="All"))),
        ("request 'gpu': only allocationMode ExactCount is supported",),
    ),
    Case(
        POLICY,
        "admin-access",
        (*queues(), claimer("Job"), template(**exactly(adminAccess=True))),
        ("request 'gpu': AdminAccess is not supported",),
    ),
    Case(
        POLICY,
        "exact-count-of-two",
        (*queues(), claimer("Job"), template(**exactly(allocationMode="ExactCount", count=2))),
    ),
    Case(
        POLICY,
        "v1beta1-request-all",
        (
            *queues(),
            claimer("Job"),
            template(exactly=None, deviceClassName="gpu.nvidia.com", allocationMode="All"),
        ),
        ("only allocationMode ExactCount is supported",),
    ),
    # Not queued: Kueue has no say (another policy asks for the queue name).
    Case(
        POLICY,
        "unqueued-names-a-claim",
        (*queues(), claimer("Job", "named", queue=None), claim_object("named")),
    ),
    # Queued by LocalQueue defaulting: judged as any queued workload.
    Case(
        POLICY,
        "defaulted-names-a-claim",
        (
            *queues()[:2],
            local_queue(name="default"),
            claimer("Job", "named", queue=None),
            claim_object("named"),
        ),
        (BY_NAME,),
    ),
    # A template the program does not declare is not judged.
    Case(POLICY, "template-not-declared", (*queues(), claimer("Job"))),
    Case(POLICY, "no-claims", (*queues(), wrap("Job", claim_pod_spec() | {"resourceClaims": []}))),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_constraints_and_config_are_admitted() -> None:
    """Kueue's docs call device constraints and per-request config unsupported, but its code
    (pkg/dra/claims.go at v0.19.2) charges the counts and admits the workload."""
    shaped = template()
    devices = shaped.props["spec"]["spec"]["devices"]
    devices["constraints"] = [{"requests": ["gpu"], "matchAttribute": "gpu.nvidia.com/productName"}]
    devices["config"] = [{"requests": ["gpu"], "opaque": {"driver": "gpu.nvidia.com"}}]
    assert messages(Case(POLICY, "shaped", (*queues(), claimer("Job"), shaped))) == []


def test_the_message_names_the_queue_and_the_fix() -> None:
    (message,) = messages(
        Case(POLICY, "m", (*queues(), claimer("Job", "named"), claim_object("named")), ("x",))
    )
    assert "is queued to LocalQueue 'training'" in message
    assert "Fix: Claim the devices through a ResourceClaimTemplate" in message
