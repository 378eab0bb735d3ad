"""Claims read from a program: devices per class as the quota evaluator counts them, GPU
classes known or found by their selectors, pods' claims resolved in their namespace."""

from __future__ import annotations

from typing import Any

import pytest
from pulumi_policy import PolicyResource
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE, unknown_checking_proxy

from gpu_facts.dra import ALLOCATION_RESULTS_MAX_SIZE
from gpu_facts.vendors import AMD, NVIDIA
from gpu_policy_support.claims import (
    gpu_demand,
    requested_devices,
    resource_kind,
    selector_vendor,
    stack_claims,
)
from gpu_policy_support.stack_index import index_by_type


def resource(kind: str, name: str, props: dict[str, Any], version: str = "v1") -> PolicyResource:
    return PolicyResource(
        resource_type=f"kubernetes:resource.k8s.io/{version}:{kind}",
        props=unknown_checking_proxy(props),
        urn=f"urn:{kind}:{name}",
        name=name,
        opts=None,  # type: ignore[arg-type]
        parent=None,
        provider=None,
        dependencies=[],
        property_dependencies={},
    )


@pytest.mark.parametrize(
    ("devices", "expected"),
    [
        (
            {"requests": [{"name": "a", "exactly": {"deviceClassName": "gpu.nvidia.com"}}]},
            {"gpu.nvidia.com": 1},
        ),
        (
            {
                "requests": [
                    {"name": "a", "exactly": {"deviceClassName": "gpu.nvidia.com", "count": 4}}
                ]
            },
            {"gpu.nvidia.com": 4},
        ),
        (
            {
                "requests": [
                    {
                        "name": "a",
                        "exactly": {"deviceClassName": "mig.nvidia.com", "allocationMode": "All"},
                    }
                ]
            },
            {"mig.nvidia.com": ALLOCATION_RESULTS_MAX_SIZE},
        ),
        # firstAvailable: the largest alternative per class.
        (
            {
                "requests": [
                    {
                        "name": "a",
                        "firstAvailable": [
                            {"name": "big", "deviceClassName": "gpu.nvidia.com", "count": 2},
                            {"name": "small", "deviceClassName": "mig.nvidia.com", "count": 3},
                            {"name": "one", "deviceClassName": "gpu.nvidia.com"},
                        ],
                    }
                ]
            },
            {"gpu.nvidia.com": 2, "mig.nvidia.com": 3},
        ),
        # v1beta1: the class on the request itself; requests add up.
        (
            {
                "requests": [
                    {"name": "a", "deviceClassName": "gpu.nvidia.com", "count": 2},
                    {"name": "b", "deviceClassName": "gpu.nvidia.com"},
                ]
            },
            {"gpu.nvidia.com": 3},
        ),
        ({}, {}),
    ],
)
def test_requested_devices_count_like_the_quota_evaluator(
    devices: dict[str, Any], expected: dict[str, int]
) -> None:
    assert requested_devices(devices) == expected


def test_resource_kinds_of_every_version() -> None:
    assert resource_kind("kubernetes:resource.k8s.io/v1beta1:ResourceClaimTemplate") == (
        "ResourceClaimTemplate"
    )
    assert resource_kind("kubernetes:resource.k8s.io/v1:DeviceClass") == "DeviceClass"
    assert resource_kind("kubernetes:resource.k8s.io/v1:ResourceSlice") is None
    assert resource_kind("kubernetes:core/v1:Pod") is None


def test_selectors_name_a_gpu_driver() -> None:
    assert selector_vendor(["device.driver == 'gpu.nvidia.com'"]) is NVIDIA
    assert selector_vendor(['"gpu.amd.com" == device.driver']) is AMD
    assert selector_vendor(["device.attributes['gpu.nvidia.com'].productName == 'x'"]) is NVIDIA
    assert selector_vendor(["device.driver == 'gpu.nvidia.com.example'"]) is None
    assert selector_vendor(["device.driver == 'nic.example.com'"]) is None


def test_pods_resolve_their_claims_in_their_namespace() -> None:
    template = {
        "metadata": {"name": "one-gpu", "namespace": "team-a"},
        "spec": {
            "spec": {
                "devices": {
                    "requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}}]
                }
            }
        },
    }
    unknown = {"metadata": {"name": UNKNOWN_STRING_VALUE, "namespace": "team-a"}, "spec": {}}
    index = index_by_type(
        [
            resource("ResourceClaimTemplate", "one-gpu", template),
            resource("ResourceClaim", "later", unknown),
        ]
    )
    claims = stack_claims(index)
    spec = {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}]}
    demand = gpu_demand(spec, "team-a", claims)
    assert demand and dict(demand.classes) == {"gpu.nvidia.com": 1}
    assert demand.taint_keys == {"nvidia.com/gpu"}
    assert demand.describe() == "claims gpu.nvidia.com (template 'one-gpu')"
    # The same name in another namespace, or an unknown namespace, resolves to nothing.
    assert not gpu_demand(spec, "team-b", claims)
    assert not gpu_demand(spec, None, claims)
    (claim,) = claims.pod_claims("team-b", spec)
    assert claim.classes is None
