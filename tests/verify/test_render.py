"""The table, JUnit XML and Markdown make verify prints (verify.render)."""

from __future__ import annotations

from pathlib import Path

from junitparser import Failure, JUnitXml, Skipped

from gpu_platform.verify.render import as_junit, as_markdown, table
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


def _mixed() -> Report:
    return Report(
        [
            CheckResult(
                "taint", "node/a", "nvidia.com/gpu=present:NoSchedule", "no taints", "fail"
            ),
            CheckResult("taint", "node/b", "nvidia.com/gpu=present:NoSchedule", "present", "pass"),
            CheckResult("driver", "node/a", "driver major ≥ 535", "not checked", "skip"),
            CheckResult("node-image", "pool/a", "≤ 35 days old", "a | b < 60 days", "warn"),
        ]
    )


def test_junit_is_what_ci_systems_read(tmp_path: Path) -> None:
    # junitparser reads test results for CI reporters (GitHub's publish-unit-test-result
    # action among them): one suite per check, one case per row, failures with their finding.
    path = tmp_path / "verify.xml"
    path.write_text(as_junit(_mixed(), "verify dev on https://api (lab)"))
    xml = JUnitXml.fromfile(str(path))
    assert (xml.tests, xml.failures, xml.errors, xml.skipped) == (4, 1, 0, 1)
    suites = {suite.name: suite for suite in xml}
    assert list(suites) == ["taint", "driver", "node-image"]
    taint = list(suites["taint"])
    assert [(case.classname, case.name, case.is_passed) for case in taint] == [
        ("taint", "node/a", False),
        ("taint", "node/b", True),
    ]
    (failure,) = taint[0].result
    assert isinstance(failure, Failure)
    assert failure.message == "no taints"
    assert failure.text == "expected: nvidia.com/gpu=present:NoSchedule\nfound: no taints"
    (skip,) = next(iter(suites["driver"])).result
    assert isinstance(skip, Skipped) and skip.message == "not checked"
    (warned,) = list(suites["node-image"])
    assert (
        warned.is_passed and warned.system_out == "expected: ≤ 35 days old\nfound: a | b < 60 days"
    )


def test_junit_of_a_passing_report_has_no_failure() -> None:
    report = Report([CheckResult("driver", "node/b", "driver major ≥ 535", "550.1", "pass")])
    text = as_junit(report, "verify")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')
    assert 'failures="0"' in text and "<failure" not in text


def test_markdown_puts_what_needs_attention_first() -> None:
    text = as_markdown(_mixed(), "verify dev")
    lines = text.splitlines()
    assert lines[:3] == [
        "### verify dev",
        "",
        "**NOT READY: 1 passed, 1 failed, 1 skipped, 1 warning**",
    ]
    start = lines.index("Needs attention:") + 4
    attention = lines[start : start + 2]
    assert attention == [
        "| `taint` | `node/a` | nvidia.com/gpu=present:NoSchedule | no taints | ❌ FAIL |",
        "| `node-image` | `pool/a` | ≤ 35 days old | a \\| b &lt; 60 days | ⚠️ WARN |",
    ]
    assert "<details><summary>All 4 rows</summary>" in lines


def test_what_the_cluster_printed_cannot_break_the_output(tmp_path: Path) -> None:
    """A probe's log or an API server's message can hold control characters and markup: the
    table shows no escape sequence, the JUnit XML stays readable, the comment stays ours."""
    printed = "RESULT: \x1b[31mACCELERATOR_FOUND\x00\x07</details><img src=x>"
    report = Report([CheckResult("probe-no-gpu", "pool/t4", "sees no GPU", printed, "fail")])
    assert "\x1b" not in table(report, "verify") and "\x00" not in table(report, "verify")
    path = tmp_path / "verify.xml"
    path.write_text(as_junit(report, "verify"))
    (case,) = next(iter(JUnitXml.fromfile(str(path))))
    (failure,) = case.result
    assert failure.message == "RESULT: \ufffd[31mACCELERATOR_FOUND\ufffd\ufffd</details><img src=x>"
    row = as_markdown(report, "verify").splitlines()[8]
    assert row.endswith("&lt;/details&gt;&lt;img src=x&gt; | ❌ FAIL |")
