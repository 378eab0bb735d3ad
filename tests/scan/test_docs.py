"""docs/security.md shows every baseline as it is, and every accepted check has its reason."""

from __future__ import annotations

import pytest

from scan import baseline, docs
from scan.baseline import Entry
from scan.report import docs_table


def test_every_baseline_has_its_table_in_the_doc_and_the_tables_are_current() -> None:
    text = docs.DOC.read_text()

    assert docs.documented_stacks(text) == docs.baseline_stacks()
    assert docs.synced(text) == text, "run: .venv/bin/python -m scan --write-docs"


@pytest.mark.parametrize("stack", docs.baseline_stacks())
def test_every_accepted_check_has_a_reason(stack: str) -> None:
    entries = baseline.load(docs.baseline_path(stack))

    assert entries
    assert [e.key for e in entries if not e.has_reason] == []


def test_prod_has_a_baseline() -> None:
    assert "prod" in docs.baseline_stacks()


def test_the_table_escapes_pipes_and_joins_lines() -> None:
    entry = Entry("CKV_X", "Job.a.b", "Title | with pipe", "line one\n  line two")

    assert docs_table([entry]).splitlines()[2] == (
        "| `CKV_X` | `Job.a.b` | Title \\| with pipe | line one line two |"
    )
    assert docs_table([]).splitlines()[2] == "| (none) | | | |"
