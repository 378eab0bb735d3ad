"""One row of the verify report (readiness.results)."""

from __future__ import annotations

from gpu_platform.verify.results import CheckResult, failed, outcome


def test_rows() -> None:
    passed = outcome("taint", "node/a", "x", "x", True)
    bad = outcome("taint", "node/b", "x", "y", False)
    skipped = CheckResult("driver", "node/c", "-", "not checked", "skip")
    assert (passed.status, bad.status) == ("pass", "fail")
    assert failed([passed, bad, skipped]) == [bad]
    assert bad.as_dict() == {
        "check": "taint",
        "subject": "node/b",
        "expected": "x",
        "found": "y",
        "status": "fail",
    }
