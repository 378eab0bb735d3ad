"""The report as a table for people or JSON for automation."""

from __future__ import annotations

import json

from .verify import Report

COLUMNS = ("check", "subject", "expected", "found", "status")
STATUS_TEXT = {"pass": "ok", "fail": "FAIL", "skip": "skip"}


def table(report: Report, title: str) -> str:
    rows = [tuple(c.upper() for c in COLUMNS)] + [
        (r.check, r.subject, r.expected, r.found, STATUS_TEXT[r.status]) for r in report.results
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS) - 1)]
    lines = [title, ""]
    for row in rows:
        cells = [cell.ljust(widths[i]) for i, cell in enumerate(row[:-1])]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    counts = report.counts()
    verdict = "READY" if report.ok else "NOT READY"
    lines += [
        "",
        f"{verdict}: {counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped",
    ]
    return "\n".join(lines) + "\n"


def as_json(report: Report, meta: dict[str, str | None]) -> str:
    doc = {
        **meta,
        "ok": report.ok,
        "summary": report.counts(),
        "results": [r.as_dict() for r in report.results],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
