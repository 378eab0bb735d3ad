"""One row of the verify report: a check, what it looked at, what it expected and found."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

Status = Literal["pass", "fail", "skip"]
"""``skip``: the check does not apply or cannot be run here; it never fails the report."""


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
        return asdict(self)


def outcome(check: str, subject: str, expected: str, found: str, ok: bool) -> CheckResult:
    """A pass or fail row."""
    return CheckResult(check, subject, expected, found, "pass" if ok else "fail")


def failed(results: list[CheckResult]) -> list[CheckResult]:
    return [r for r in results if r.status == "fail"]
