"""A plan in the offline preview's, pulumi preview's or a state export's shape
(verify.plan_file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_platform.verify import plan_file
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


def test_an_untrusted_plan_is_read_within_bounds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"resources": [{**POOL, "name": "gpu"}]}))
    monkeypatch.setattr(plan_file, "MAX_BYTES", 64)
    with pytest.raises(PlanError, match=r"plan.json is larger than 0 MiB: not a plan to read"):
        read_plan(plan)
    monkeypatch.undo()
    plan.write_text('{"resources": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(PlanError, match="nested too deeply to be a plan"):
        read_plan(plan)
    deep = json.loads("[" * 70 + "]" * 70)
    plan.write_text(
        json.dumps(
            {"resources": [{"type": "gpu-platform:index:X", "name": "x", "inputs": {"a": deep}}]}
        )
    )
    with pytest.raises(PlanError, match="x: its inputs are nested deeper than 64 levels"):
        read_plan(plan)
    plan.write_bytes(b'{"resources": [\xff]}')
    with pytest.raises(PlanError, match="is not JSON"):
        read_plan(plan)
    with pytest.raises(PlanError, match="cannot read"):
        read_plan(tmp_path)  # a folder is previewed by the command line, never read


def test_only_our_components_inputs_are_kept_and_never_a_secret() -> None:
    """A state export holds secrets in an envelope (plain text with --show-secrets): they read
    as [secret], so no row or message can show one."""
    envelope = {plan_file.SECRET_SIG: "1b47061264138c4ac30d75fd1eb44270", "plaintext": '"k"'}
    doc = {
        "deployment": {
            "resources": [
                {"type": "kubernetes:core/v1:Secret", "urn": "a::s", "inputs": {"data": "x"}},
                {
                    "type": "gpu-platform:index:ExistingCluster",
                    "urn": "a::c",
                    "inputs": {"kubeconfig": envelope, "clusterName": "c"},
                },
            ]
        }
    }
    assert plan_resources(doc) == [
        PlannedResource("kubernetes:core/v1:Secret", "s", {}),
        PlannedResource(
            "gpu-platform:index:ExistingCluster",
            "c",
            {"kubeconfig": "[secret]", "clusterName": "c"},
        ),
    ]
