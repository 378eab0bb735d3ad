"""The report as a table for people, JSON for automation, JUnit XML for CI systems' test
results, or Markdown for a pull-request comment."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

from .results import CheckResult
from .verify import Report

COLUMNS = ("check", "subject", "expected", "found", "status")
STATUS_TEXT = {"pass": "ok", "fail": "FAIL", "skip": "skip", "warn": "WARN"}
_CONTROLS = dict.fromkeys(
    (*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0), 0xFFFE, 0xFFFF), "\ufffd"
)


def printable(text: str) -> str:
    """``text`` with control characters as U+FFFD: what a pod printed or an API server said can
    hold any, and would reach a terminal as escape sequences or make the JUnit XML unreadable
    (XML 1.0 allows none but tab and line ends)."""
    return text.translate(_CONTROLS)


def table(report: Report, title: str) -> str:
    rows = [tuple(c.upper() for c in COLUMNS)] + [
        (r.check, *map(printable, (r.subject, r.expected, r.found)), STATUS_TEXT[r.status])
        for r in report.results
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS) - 1)]
    lines = [title, ""]
    for row in rows:
        cells = [cell.ljust(widths[i]) for i, cell in enumerate(row[:-1])]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    lines += ["", summary(report)]
    return "\n".join(lines) + "\n"


def summary(report: Report) -> str:
    """``READY: 28 passed, 0 failed, 4 skipped`` (and the warnings, when there are any)."""
    counts = report.counts()
    verdict = "READY" if report.ok else "NOT READY"
    line = f"{verdict}: {counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped"
    if counts["warn"]:
        line += f", {counts['warn']} {'warning' if counts['warn'] == 1 else 'warnings'}"
    return line


def as_json(report: Report, meta: dict[str, str | None]) -> str:
    doc = {
        **meta,
        "ok": report.ok,
        "summary": report.counts(),
        "results": [r.as_dict() for r in report.results],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def as_junit(report: Report, suite: str) -> str:
    """JUnit XML as CI systems read test results (Jenkins, GitLab, GitHub's test reporters):
    one ``testsuite`` per check, one ``testcase`` per row (its subject the name), a failing row
    a ``failure`` with the row's finding as its message, a ``skip`` row ``skipped``; a ``warn``
    row passes with its finding in ``system-out``."""
    suites = ET.Element("testsuites", name=suite)
    by_check: dict[str, list[CheckResult]] = {}
    for row in report.results:
        by_check.setdefault(row.check, []).append(row)
    totals: dict[str, int] = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for check, rows in by_check.items():
        counts: dict[str, int] = {
            "tests": len(rows),
            "failures": sum(1 for r in rows if r.status == "fail"),
            "errors": 0,
            "skipped": sum(1 for r in rows if r.status == "skip"),
        }
        for key, n in counts.items():
            totals[key] += n
        attributes = {"name": check, **{k: str(v) for k, v in counts.items()}}
        element = ET.SubElement(suites, "testsuite", attributes)
        for row in rows:
            name, found = printable(row.subject), printable(row.found)
            case = ET.SubElement(element, "testcase", classname=check, name=name)
            text = f"expected: {printable(row.expected)}\nfound: {found}"
            if row.status == "fail":
                ET.SubElement(case, "failure", message=found, type="fail").text = text
            elif row.status == "skip":
                ET.SubElement(case, "skipped", message=found)
            else:
                ET.SubElement(case, "system-out").text = text
    for key, n in totals.items():
        suites.set(key, str(n))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


_MARKDOWN_STATUS = {"pass": "✅ pass", "fail": "❌ FAIL", "skip": "⏭ skip", "warn": "⚠️ WARN"}


def _cell(text: str) -> str:
    """A table cell: one line, its pipes escaped, and no HTML (a found value is the cluster's
    text, and the comment sits inside our ``<details>``)."""
    cell = printable(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return cell.replace("|", "\\|").replace("\n", " ")


def as_markdown(report: Report, title: str) -> str:
    """A pull-request comment: the verdict, the failing and warning rows first, then every row
    in a collapsed section."""
    lines = [f"### {title}", "", f"**{summary(report)}**", ""]
    header = ["| check | subject | expected | found | status |", "|---|---|---|---|---|"]

    def rows(selected: list[CheckResult]) -> list[str]:
        return [
            f"| `{r.check}` | `{_cell(r.subject)}` | {_cell(r.expected)} | {_cell(r.found)} "
            f"| {_MARKDOWN_STATUS[r.status]} |"
            for r in selected
        ]

    attention = [r for r in report.results if r.status in ("fail", "warn")]
    if attention:
        lines += ["Needs attention:", "", *header, *rows(attention), ""]
    lines += [
        f"<details><summary>All {len(report.results)} rows</summary>",
        "",
        *header,
        *rows(report.results),
        "",
        "</details>",
    ]
    return "\n".join(lines) + "\n"
