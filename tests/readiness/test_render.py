"""The table make verify prints (readiness.render)."""

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
