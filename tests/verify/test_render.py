"""The table make verify prints (verify.render)."""

from __future__ import annotations

from gpu_platform.verify.render import table
from gpu_platform.verify.results import CheckResult
from gpu_platform.verify.verify import Report


def test_table_aligns_columns_and_states_the_verdict() -> None:
    report = Report(
        [
            CheckResult(
                "taint", "node/a", "nvidia.com/gpu=present:NoSchedule", "no taints", "fail"
            ),
            CheckResult("driver", "node/long-name", "driver major ≥ 535", "550.1", "pass"),
            CheckResult("gpu-daemon", "node/c", "-", "not inspected", "skip"),
        ]
    )
    text = table(report, "verify dev")
    lines = text.splitlines()
    assert lines[0] == "verify dev"
    header, first = lines[2], lines[3]
    assert header.index("SUBJECT") == first.index("node/a")
    assert header.index("FOUND") == first.index("no taints")
    assert first.endswith("FAIL")
    assert lines[-1] == "NOT READY: 1 passed, 1 failed, 1 skipped"
    assert not report.ok


def test_a_warning_never_fails_the_report() -> None:
    report = Report(
        [
            CheckResult("node-image", "pool/a", "image ≤ 35 days old", "60 days old", "warn"),
            CheckResult("driver", "node/b", "driver major ≥ 535", "550.1", "pass"),
        ]
    )
    assert report.ok
    assert report.counts() == {"pass": 1, "fail": 0, "skip": 0, "warn": 1}
    lines = table(report, "verify dev").splitlines()
    assert lines[3].endswith("WARN")
    assert lines[-1] == "READY: 1 passed, 0 failed, 0 skipped, 1 warning"
