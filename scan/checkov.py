"""checkov, run on an exported plan in its own virtualenv, and its JSON report read.

checkov is installed on demand (``make scan`` builds ``.venv-scan`` from
``scan/requirements.txt`` and ``scan/constraints.txt``), never into the project's venv, so
``make test`` does not carry its ~100 packages.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .baseline import Finding

FRAMEWORKS = ("kubernetes", "arm")


class CheckovError(RuntimeError):
    """checkov did not run, or read less than it was given."""


@dataclass
class FrameworkSummary:
    passed: int = 0
    failed: int = 0
    resources: int = 0
    parsing_errors: list[str] = field(default_factory=list)


@dataclass
class Report:
    version: str = ""
    summaries: dict[str, FrameworkSummary] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)


def command(checkov: Path, folder: Path) -> list[str]:
    # --skip-download: no calls to Prisma Cloud (guidelines, severities); the scan is offline.
    return [
        str(checkov),
        "--directory",
        str(folder),
        "--framework",
        *FRAMEWORKS,
        "--output",
        "json",
        "--skip-download",
    ]


def parse_report(text: str) -> Report:
    """checkov's ``-o json``: one report per framework (a list), or a single one."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as err:
        raise CheckovError(f"checkov's output is not JSON ({err}): {text[:300]!r}") from err
    reports = data if isinstance(data, list) else [data]
    out = Report()
    seen: set[tuple[str, str]] = set()
    for report in reports:
        if not isinstance(report, dict):
            continue
        if "check_type" not in report:  # nothing to report: a bare summary
            out.version = report.get("checkov_version", out.version)
            continue
        framework = report["check_type"]
        summary = report.get("summary", {})
        results = report.get("results", {})
        out.version = summary.get("checkov_version", out.version)
        out.summaries[framework] = FrameworkSummary(
            passed=summary.get("passed", 0),
            failed=summary.get("failed", 0),
            resources=summary.get("resource_count", 0),
            parsing_errors=list(results.get("parsing_errors", [])),
        )
        for failed in results.get("failed_checks", []):
            finding = Finding(
                failed["check_id"], failed["resource"], failed["check_name"], framework
            )
            if finding.key not in seen:
                seen.add(finding.key)
                out.findings.append(finding)
    return out


@dataclass(frozen=True)
class Exported:
    """What one framework was given: the file, how many objects, and whether checkov must
    report on them (it has checks for some of their kinds)."""

    file: Path
    objects: int
    checked_kinds: bool


def check_coverage(report: Report, exported: dict[str, Exported]) -> None:
    """Fail unless checkov read everything it was given, without parsing errors.

    A file checkov cannot parse, or objects it skips, would otherwise pass the scan with
    nothing checked. checkov reports on a framework only when some check applied, and then
    counts every object it read; with no kind it checks (Namespaces, NetworkPolicies...) its
    report is empty.
    """
    for summary in report.summaries.values():
        if summary.parsing_errors:
            raise CheckovError(f"checkov could not parse {', '.join(summary.parsing_errors)}")
    for framework, given in exported.items():
        summary = report.summaries.get(framework)
        if summary is None:
            if given.checked_kinds:
                raise CheckovError(f"checkov reported nothing on {given.file}")
            continue
        if summary.resources < given.objects:
            raise CheckovError(
                f"checkov read {summary.resources} of the {given.objects} objects in {given.file}"
            )


def run(checkov: Path, folder: Path) -> Report:
    if not checkov.exists():
        raise CheckovError(f"{checkov} is missing: `make scan` installs it into .venv-scan")
    done = subprocess.run(command(checkov, folder), capture_output=True, text=True, check=False)
    # Exit 1 means failed checks; anything else without a report is checkov's own failure.
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise CheckovError(
            f"checkov exited {done.returncode}: {(done.stderr or done.stdout).strip()[-2000:]}"
        )
    return parse_report(done.stdout)
