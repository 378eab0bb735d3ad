"""device-classes-map-no-gpu-resource: no DeviceClass but the platform's own maps a GPU
resource."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Case, Res, assert_case

POLICY = "device-classes-map-no-gpu-resource"
MAPS = "maps the GPU resource"


def device_class(name: str, mapped: str | None = None, version: str = "v1") -> Res:
    spec: dict[str, Any] = {
        "selectors": [
            {
                "cel": {
                    "expression": "device.driver == 'gpu.nvidia.com' && "
                    "device.attributes['gpu.nvidia.com'].type == 'gpu'"
                }
            }
        ]
    }
    if mapped is not None:
        spec["extendedResourceName"] = mapped
    return Res(
        f"kubernetes:resource.k8s.io/{version}:DeviceClass",
        name,
        {"metadata": {"name": name}, "spec": spec},
    )


CASES: list[Case] = [
    # NVIDIA's driver chart ships it, and the platform installs it on purpose.
    Case(POLICY, "platform-class", (device_class("gpu.nvidia.com", "nvidia.com/gpu"),)),
    Case(POLICY, "no-mapping", (device_class("h100-only"),)),
    Case(POLICY, "non-gpu-resource", (device_class("nics", "example.com/nic"),)),
    Case(
        POLICY,
        "team-class-takes-nvidia-gpu",
        (device_class("h100-only", "nvidia.com/gpu"),),
        ("DeviceClass 'h100-only' maps the GPU resource nvidia.com/gpu",),
    ),
    Case(
        POLICY,
        "mig-resource",
        (device_class("mig-1g", "nvidia.com/mig-1g.5gb", "v1beta2"),),
        (MAPS,),
    ),
    Case(POLICY, "amd-resource", (device_class("mi300x", "amd.com/gpu"),), (MAPS,)),
    Case(
        POLICY,
        "platform-name-other-resource",
        (device_class("gpu.nvidia.com", "nvidia.com/gpu.shared"),),
        (MAPS,),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_exempt_by_name() -> None:
    case = Case(
        POLICY,
        "x",
        (device_class("h100-only", "nvidia.com/gpu"),),
        config={"exemptNames": ["h100-only"]},
    )
    assert_case(case)
