"""What `make scan` prints: the summary per framework, a row per failure, the verdict."""

from __future__ import annotations

from scan import baseline
from scan.baseline import Entry, Finding
from scan.checkov import FrameworkSummary, Report
from scan.report import render

REPORT = Report("3.3.30", {"arm": FrameworkSummary(6, 2, 18)})
NEW = Finding(
    "CKV_AZURE_227",
    "agentPools.gpu-prod/cpu",
    "Host encryption",
)
OLD = Finding("CKV_AZURE_6", "managedClusters.gpu-prod", "Authorized IP ranges")


def test_a_failing_scan_lists_new_failures_first_and_says_how_to_proceed() -> None:
    comparison = baseline.compare([OLD, NEW], [Entry(OLD.check, OLD.resource, reason="private")])

    assert render("prod", REPORT, comparison).splitlines() == [
        "make scan STACK=prod: checkov 3.3.30",
        "  arm: 18 resources, 6 checks passed, 2 failed",
        "",
        "  status    check          resource                  title",
        "  NEW       CKV_AZURE_227  agentPools.gpu-prod/cpu   Host encryption",
        "  accepted  CKV_AZURE_6    managedClusters.gpu-prod  Authorized IP ranges",
        "",
        "FAIL: 1 new failures. Fix the resource, or accept the check in scan/baseline-prod.yaml "
        "with its reason (UPDATE_BASELINE=1 adds new failures as `reason: TODO`)",
    ]


def test_a_passing_scan_counts_accepted_and_stale_entries() -> None:
    stale = Entry(NEW.check, NEW.resource, reason="pending")
    comparison = baseline.compare([OLD], [Entry(OLD.check, OLD.resource, reason="private"), stale])

    lines = render("prod", REPORT, comparison).splitlines()

    assert "  stale     CKV_AZURE_227  agentPools.gpu-prod/cpu   passes now: drop it" in lines
    assert lines[-1] == (
        "PASS: 1 accepted failures, each with its reason; 1 stale baseline entries "
        "(UPDATE_BASELINE=1 drops them)"
    )


def test_entries_without_a_reason_are_named_in_the_verdict() -> None:
    comparison = baseline.compare([OLD], [Entry(OLD.check, OLD.resource, reason="TODO")])

    lines = render("dev", REPORT, comparison).splitlines()

    assert any(line.startswith("  NO REASON  CKV_AZURE_6") for line in lines)
    assert lines[-1].startswith("FAIL: 1 baseline entries without a reason.")
