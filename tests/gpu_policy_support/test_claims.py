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
    # The same name in another namespace resolves to nothing.
    assert not gpu_demand(spec, "team-b", claims)
    (claim,) = claims.pod_claims("team-b", spec)
    assert claim.classes is None
    # A pod whose namespace is unknown at preview may be in any: it claims what any object of
    # that name asks (a GPU pod must not pass unseen because its namespace is an output).
    assert dict(gpu_demand(spec, None, claims).classes) == {"gpu.nvidia.com": 1}


def test_an_object_whose_namespace_is_unknown_resolves_by_name() -> None:
    """A program that passes a Namespace's output to both the template and the pod: both
    namespaces unknown at preview, the pod still claims a GPU; a pod in a known namespace
    without its own object of that name may be claiming it too. The most devices per class
    any candidate asks is what counts."""

    def template(namespace: str, device_class: str, count: int) -> dict[str, Any]:
        request = {"name": "gpu", "exactly": {"deviceClassName": device_class, "count": count}}
        return {
            "metadata": {"name": "one-gpu", "namespace": namespace},
            "spec": {"spec": {"devices": {"requests": [request]}}},
        }

    index = index_by_type(
        [
            resource(
                "ResourceClaimTemplate", "a", template(UNKNOWN_STRING_VALUE, "gpu.nvidia.com", 2)
            ),
            resource("ResourceClaimTemplate", "b", template("team-b", "gpu.nvidia.com", 4)),
            resource("ResourceClaimTemplate", "c", template("team-c", "mig.nvidia.com", 1)),
        ]
    )
    claims = stack_claims(index)
    spec = {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}]}
    assert dict(gpu_demand(spec, None, claims).classes) == {
        "gpu.nvidia.com": 4,
        "mig.nvidia.com": 1,
    }
    # Its own namespace's object wins; else only the ones whose namespace is unknown.
    assert dict(gpu_demand(spec, "team-c", claims).classes) == {"mig.nvidia.com": 1}
    assert dict(gpu_demand(spec, "team-a", claims).classes) == {"gpu.nvidia.com": 2}


def test_a_gpu_class_whose_mapping_is_unknown_still_hands_out_gpus() -> None:
    """Only the selectors decide a program's class is a GPU class: an extendedResourceName
    unknown at preview (another policy's concern) does not drop the class."""
    device_class = {
        "metadata": {"name": "h100-only"},
        "spec": {
            "selectors": [{"cel": {"expression": "device.driver == 'gpu.nvidia.com'"}}],
            "extendedResourceName": UNKNOWN_STRING_VALUE,
        },
    }
    claims = stack_claims(index_by_type([resource("DeviceClass", "h100-only", device_class)]))
    assert claims.gpu_vendor("h100-only") is NVIDIA
