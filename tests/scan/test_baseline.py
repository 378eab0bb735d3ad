"""The baseline: new failures fail, accepted ones need a reason, stale entries are reported."""

from __future__ import annotations

import pytest

from scan import baseline
from scan.baseline import BaselineError, Entry, Finding

POOL = "Microsoft.ContainerService/managedClusters/agentPools.gpu-prod/t4"
JOB = "Job.gpu-readiness.gpu-driver-check-a100mig"
ENCRYPTION = Finding("CKV_AZURE_227", POOL, "Ensure that the AKS cluster encrypt temp disks")
DIGEST = Finding("CKV_K8S_43", JOB, "Image should use digest")


def test_a_failure_the_baseline_does_not_list_is_new_and_fails_the_scan() -> None:
    result = baseline.compare([ENCRYPTION], [])

    assert result.new == [ENCRYPTION]
    assert not result.ok


def test_a_failure_accepted_with_a_reason_passes() -> None:
    entry = Entry("CKV_AZURE_227", POOL, reason="Pending the node hardening.")

    result = baseline.compare([ENCRYPTION], [entry])

    assert result.ok
    assert result.accepted == [(ENCRYPTION, entry)]
    assert result.new == result.unreasoned == result.stale == []


@pytest.mark.parametrize("reason", ["", "   ", "TODO", "todo: explain"])
def test_an_entry_without_a_reason_fails_the_scan(reason: str) -> None:
    entry = Entry("CKV_AZURE_227", POOL, reason=reason)

    result = baseline.compare([ENCRYPTION], [entry])

    assert not result.ok
    assert result.unreasoned == [entry]
    assert result.accepted == [] and result.new == []


def test_an_entry_whose_check_passes_now_is_stale_reported_but_not_fatal() -> None:
    kept = Entry("CKV_K8S_43", JOB, reason="tag-pinned")
    gone = Entry("CKV_AZURE_227", POOL, reason="Pending the node hardening.")

    result = baseline.compare([DIGEST], [kept, gone])

    assert result.ok
    assert result.stale == [gone]
    assert result.accepted == [(DIGEST, kept)]


def test_a_stale_entry_without_a_reason_still_fails() -> None:
    result = baseline.compare([], [Entry("CKV_AZURE_227", POOL, reason="TODO")])

    assert not result.ok
    assert (
        [e.check for e in result.stale] == [e.check for e in result.unreasoned] == ["CKV_AZURE_227"]
    )


def test_the_same_check_on_another_resource_is_new() -> None:
    other_pool = Finding("CKV_AZURE_227", POOL.replace("/t4", "/a100mig"))

    result = baseline.compare([ENCRYPTION, other_pool], [Entry("CKV_AZURE_227", POOL, reason="r")])

    assert result.new == [other_pool]


def test_update_keeps_reasons_adds_new_failures_as_todo_and_drops_stale_entries() -> None:
    entries = [
        Entry("CKV_K8S_43", JOB, "old title", "tag-pinned, BP-19"),
        Entry("CKV_AZURE_8", "Microsoft.ContainerService/managedClusters.gpu-prod", "", "n/a"),
    ]

    updated = baseline.updated([ENCRYPTION, DIGEST, DIGEST], entries)

    assert updated == [
        Entry("CKV_K8S_43", JOB, "Image should use digest", "tag-pinned, BP-19"),
        Entry("CKV_AZURE_227", POOL, "Ensure that the AKS cluster encrypt temp disks", "TODO"),
    ]
    # ... which the next scan refuses until someone writes the reason.
    assert baseline.compare([ENCRYPTION, DIGEST], updated).unreasoned == [updated[1]]


def test_the_file_round_trips_with_its_header() -> None:
    entries = [
        Entry("CKV_K8S_43", JOB, "Image should use digest", "A reason: with | and 'quotes'.")
    ]

    text = baseline.dump(entries, "prod")

    assert text.startswith("# Checks `make scan STACK=prod` accepts failing")
    assert baseline.parse(text) == entries


def test_a_missing_baseline_file_accepts_nothing(tmp_path) -> None:
    assert baseline.load(tmp_path / "baseline-dev.yaml") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- check: X", "expected `accepted:`"),
        (
            "accepted: [{resource: r, reason: x}]",
            r"accepted\[0\]: check must be a non-empty string",
        ),
        ("accepted: [{check: C, resource: r, why: x}]", r"unknown keys \['why'\]"),
        ("accepted: [{check: C, resource: r, reason: [a]}]", "reason must be text"),
        (
            "accepted: [{check: C, resource: r, reason: a}, {check: C, resource: r, reason: b}]",
            "listed twice",
        ),
    ],
)
def test_a_malformed_baseline_is_refused_with_where(text: str, message: str) -> None:
    with pytest.raises(BaselineError, match=message):
        baseline.parse(text, "scan/baseline-prod.yaml")
