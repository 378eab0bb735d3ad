"""The docs' generated tables are what the code says, and a catalogue row is all a new GPU size
takes: its docs row follows."""

from __future__ import annotations

import dataclasses
import re

import pytest
from pulumi_policy import EnforcementLevel

from gpu_facts.ack.machine_types import ECS_INSTANCE_TYPES
from gpu_facts.aks.machine_types import AZURE_VM_SIZES
from gpu_platform import doc_tables
from gpu_policies import ack_mps_pools_need_ack_pro
from gpu_policies.registry import MODULES


@pytest.mark.parametrize("doc", doc_tables.DOCS)
def test_every_generated_table_is_current(doc: str) -> None:
    text = (doc_tables.ROOT / doc).read_text()
    assert doc_tables.generated_names(text), f"{doc} holds no generated table"
    assert doc_tables.synced(text) == text, "run: python -m gpu_platform.doc_tables --write"


def test_every_table_is_in_a_doc() -> None:
    names = [
        n
        for doc in doc_tables.DOCS
        for n in doc_tables.generated_names((doc_tables.ROOT / doc).read_text())
    ]
    assert sorted(names) == sorted(doc_tables.TABLES)


def test_a_new_size_is_one_catalogue_row_and_the_docs_follow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc = (doc_tables.ROOT / "docs" / "gpu-facts.md").read_text()
    row = dataclasses.replace(AZURE_VM_SIZES["Standard_NC24ads_A100_v4"], name="Standard_NC9_Test")
    monkeypatch.setitem(AZURE_VM_SIZES, row.name, row)
    it = dataclasses.replace(ECS_INSTANCE_TYPES["ecs.gn7i-c8g1.2xlarge"], name="ecs.gn7i-test")
    monkeypatch.setitem(ECS_INSTANCE_TYPES, it.name, it)
    synced = doc_tables.synced(doc)
    assert "| `Standard_NC9_Test` | NC A100 v4 | A100-80GB | 1 |" in synced
    assert "| `ecs.gn7i-test` | gn7i | A10 | 1 | 24 GB × 1 |" in synced
    # The check fails until the docs are written again.
    assert synced != doc


def test_the_command_reports_stale_docs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert doc_tables.main([]) == 0
    row = dataclasses.replace(AZURE_VM_SIZES["Standard_NC24ads_A100_v4"], name="Standard_NC9_Test")
    monkeypatch.setitem(AZURE_VM_SIZES, row.name, row)
    assert doc_tables.main([]) == 1
    assert "python -m gpu_platform.doc_tables --write" in capsys.readouterr().out


def test_a_policys_info_is_its_docs_row_and_its_practices_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    policies_doc = (doc_tables.ROOT / "docs" / "policies.md").read_text()
    traceability = (doc_tables.ROOT / "docs" / "traceability.md").read_text()
    module = ack_mps_pools_need_ack_pro
    info = dataclasses.replace(
        module.INFO,
        enforcement_level=EnforcementLevel.ADVISORY,
        practices=(*module.INFO.practices, "BP-19"),
        description="Checks | a pipe.",
    )
    monkeypatch.setattr(module, "INFO", info)
    synced = doc_tables.synced(policies_doc)
    row = f"| `{info.name}` | BP-16, BP-19 | advisory | high | Checks \\| a pipe. |"
    assert row in synced and synced != policies_doc
    trace = doc_tables.synced(traceability)
    assert f"`{info.name}` (advisory)" in trace.split("| BP-19 |", 1)[1].split("\n", 1)[0]
    assert trace != traceability


def test_the_policies_in_detail_are_the_registered_ones_once_each() -> None:
    doc = (doc_tables.ROOT / "docs" / "policies.md").read_text()
    detail = doc.split("### What each policy checks, in detail", 1)[1].split("\n\n#", 1)[0]
    named = re.findall(r"^\| `([a-z0-9-]+)` \| ", detail, flags=re.MULTILINE)
    assert named == [module.INFO.name for module in MODULES]
