"""The CEL of the in-cluster admission policy (components/gpu_admission_cel.py): every
expression compiles as the API server's CEL does, each check has its own key, practice and
message, and the vendor predicates say what gpu_facts says of a resource name."""

from __future__ import annotations

import celpy
import pytest

from gpu_facts.scheduling import is_gpu_resource
from gpu_facts.vendors import AMD, NVIDIA, resource_vendor
from gpu_platform.components.gpu_admission_cel import (
    CLAIM_VALIDATIONS,
    CLAIM_VARIABLES,
    VALIDATIONS,
    VARIABLES,
    is_amd_gpu_resource_cel,
    is_gpu_resource_cel,
    is_nvidia_gpu_resource_cel,
)

ENV = celpy.Environment()


@pytest.mark.parametrize(
    "expression",
    [v.expression for v in (*VARIABLES, *CLAIM_VARIABLES, *VALIDATIONS, *CLAIM_VALIDATIONS)],
)
def test_every_expression_compiles(expression: str) -> None:
    ENV.program(ENV.compile(expression))


def test_each_check_has_its_own_key_a_practice_and_a_message() -> None:
    for checks in (VALIDATIONS, CLAIM_VALIDATIONS):
        keys = [c.key for c in checks]
        assert len(keys) == len(set(keys))
        for check in checks:
            assert check.practice.startswith("BP-") and check.message.strip(), check.key


@pytest.mark.parametrize(
    "name",
    [
        "nvidia.com/gpu",
        "nvidia.com/gpu.shared",
        "nvidia.com/mig-3g.20gb",
        "aliyun.com/gpu-mem",
        "amd.com/gpu",
        "amd.com/cpx_nps4",
        "amd.com/nic",
        "cpu",
        "example.com/gpu",
    ],
)
def test_the_vendor_predicates_agree_with_gpu_facts(name: str) -> None:
    def holds(expression: str) -> bool:
        runner = ENV.program(ENV.compile(expression))
        return bool(runner.evaluate({"r": celpy.celtypes.StringType(name)}))

    vendor = resource_vendor(name)
    assert holds(is_gpu_resource_cel("r")) == is_gpu_resource(name)
    assert holds(is_amd_gpu_resource_cel("r")) == (vendor is AMD)
    assert holds(is_nvidia_gpu_resource_cel("r")) == (vendor is NVIDIA and is_gpu_resource(name))
