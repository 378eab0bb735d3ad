"""A plan in the offline preview's, pulumi preview's or a state export's shape
(verify.plan_file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_platform.verify.plan_file import PlanError, PlannedResource, plan_resources, read_plan

POOL = {"type": "gpu-platform:index:AksGpuNodePool", "inputs": {"pool": {"count": 2.0}}}


@pytest.mark.parametrize(
    "doc",
    [
        {"resources": [{**POOL, "name": "gpu"}]},
        {"steps": [{"op": "create", "newState": {**POOL, "urn": "urn:pulumi:s::p::t::gpu"}}]},
        {"deployment": {"resources": [{**POOL, "urn": "urn:pulumi:s::p::t::gpu"}]}},
    ],
    ids=["offline-preview", "pulumi-preview-json", "stack-export"],
)
def test_each_shape_reads_as_the_same_resources(doc: dict[str, object]) -> None:
    assert plan_resources(doc) == [
        PlannedResource("gpu-platform:index:AksGpuNodePool", "gpu", {"pool": {"count": 2}})
    ]


def test_what_is_no_plan_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match="not a plan: no resources"):
        plan_resources({"stack": "dev"})
    with pytest.raises(PlanError, match="a JSON object was expected"):
        plan_resources([])
    broken = tmp_path / "plan.json"
    broken.write_text("{")
    with pytest.raises(PlanError, match="is not JSON"):
        read_plan(broken)
    with pytest.raises(PlanError, match="cannot read"):
        read_plan(tmp_path / "missing.json")
    broken.write_text(json.dumps({"resources": [{"type": "t", "name": "n", "inputs": None}]}))
    assert read_plan(broken) == [PlannedResource("t", "n", {})]
