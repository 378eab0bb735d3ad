"""What ``make scan`` prints, and the baseline table of docs/security.md."""

from __future__ import annotations

from .baseline import Comparison, Entry
from .checkov import Report


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    lines = []
    for row in [header, *rows]:
        cells = [c.ljust(w) for c, w in zip(row, widths, strict=False)]
        lines.append("  " + "  ".join([*cells, row[-1]]).rstrip())
    return lines


def render(stack: str, report: Report, comparison: Comparison) -> str:
    lines = [f"make scan STACK={stack}: checkov {report.version}"]
    for framework, summary in sorted(report.summaries.items()):
        lines.append(
            f"  {framework}: {summary.resources} resources, {summary.passed} checks passed, "
            f"{summary.failed} failed"
        )
    rows: list[tuple[str, ...]] = []
    rows += [("NEW", f.check, f.resource, f.title) for f in comparison.new]
    rows += [("NO REASON", e.check, e.resource, e.title) for e in comparison.unreasoned]
    rows += [("accepted", f.check, f.resource, f.title) for f, _ in comparison.accepted]
    rows += [("stale", e.check, e.resource, "passes now: drop it") for e in comparison.stale]
    if rows:
        lines += ["", *_table(("status", "check", "resource", "title"), rows)]
    lines.append("")
    if comparison.ok:
        verdict = f"PASS: {len(comparison.accepted)} accepted failures, each with its reason"
        if comparison.stale:
            verdict += (
                f"; {len(comparison.stale)} stale baseline entries (UPDATE_BASELINE=1 drops them)"
            )
    else:
        problems = []
        if comparison.new:
            problems.append(f"{len(comparison.new)} new failures")
        if comparison.unreasoned:
            problems.append(f"{len(comparison.unreasoned)} baseline entries without a reason")
        verdict = (
            f"FAIL: {', '.join(problems)}. Fix the resource, or accept the check in "
            f"scan/baseline-{stack}.yaml with its reason (UPDATE_BASELINE=1 adds new failures "
            "as `reason: TODO`)"
        )
    lines.append(verdict)
    return "\n".join(lines)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def docs_table(entries: list[Entry]) -> str:
    """The Markdown table of a baseline, as docs/security.md shows it."""
    lines = ["| Check | Resource | What checkov asks | Why it is accepted |", "|---|---|---|---|"]
    lines += [
        f"| `{e.check}` | `{e.resource}` | {_cell(e.title)} | {_cell(e.reason)} |" for e in entries
    ]
    if not entries:
        lines.append("| (none) | | | |")
    return "\n".join(lines)
