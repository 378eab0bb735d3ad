"""One row of the verify report: a check, what it looked at, what it expected and found."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

Status = Literal["pass", "fail", "skip", "warn"]
"""``skip``: the check does not apply or cannot be run here; ``warn``: it passes, but something
needs doing (a node image nothing upgrades). Neither fails the report."""
STATUSES: tuple[Status, ...] = get_args(Status)


@dataclass(frozen=True, slots=True)
class CheckResult:
    check: str
    """Short check name, e.g. ``taint`` or ``allocatable``."""
    subject: str
    """What was checked: ``node/<name>``, ``pool/<name>`` or ``namespace/<name>``."""
    expected: str
    found: str
    status: Status

    def as_dict(self) -> dict[str, str]:
        return {
            "check": self.check,
            "subject": self.subject,
            "expected": self.expected,
            "found": self.found,
            "status": self.status,
        }


def outcome(check: str, subject: str, expected: str, found: str, ok: bool) -> CheckResult:
    """A pass or fail row."""
    return CheckResult(check, subject, expected, found, "pass" if ok else "fail")


def failed(results: list[CheckResult]) -> list[CheckResult]:
    return [r for r in results if r.status == "fail"]


def many(n: int, what: str) -> str:
    """``1 GPU``, ``2 GPUs``: a count with its noun, for a row's text."""
    return f"{n} {what}" if n == 1 else f"{n} {what}s"
