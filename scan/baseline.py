"""The checks a stack accepts failing (``scan/baseline-<stack>.yaml``), each with its reason.

``compare`` sorts checkov's failures against it: a failure the baseline does not list is new
and fails the scan, and so does an entry without a reason (``TODO`` counts as none); an entry
whose check no longer fails is stale and is reported, so the baseline only shrinks.
``updated`` is ``UPDATE_BASELINE=1``: still-failing entries keep their reasons, new failures
come in with ``reason: TODO`` (which the next scan refuses until someone writes one), stale
entries go.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

TODO = "TODO"
HEADER = """\
# Checks `make scan STACK={stack}` accepts failing: checkov's check ID, the resource as checkov
# names it, the check's title, and why this stack accepts it. `make scan` fails on any other
# failure and on an entry without a reason. `make scan STACK={stack} UPDATE_BASELINE=1` adds
# new failures with `reason: TODO` (refused until written) and drops entries that pass now.
# docs/security.md shows this table (`python -m scan --write-docs`).
"""


class BaselineError(ValueError):
    """A baseline file that cannot be read as a list of entries."""


@dataclass(frozen=True)
class _Row:
    check: str
    """checkov's check ID (``CKV_AZURE_6``), or ``NOT_SCANNED``."""
    resource: str
    """The resource as checkov names it (``Job.<namespace>.<name>``, ``<ARM type>.<name>``)."""
    title: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.check, self.resource)


@dataclass(frozen=True)
class Finding(_Row):
    """One failed check, as checkov reports it."""

    framework: str = ""


@dataclass(frozen=True)
class Entry(_Row):
    """One accepted failure of the baseline."""

    reason: str = ""

    @property
    def has_reason(self) -> bool:
        reason = self.reason.strip()
        return bool(reason) and not reason.upper().startswith(TODO)


@dataclass
class Comparison:
    new: list[Finding] = field(default_factory=list)
    accepted: list[tuple[Finding, Entry]] = field(default_factory=list)
    unreasoned: list[Entry] = field(default_factory=list)
    """Entries without a reason (whether or not their check still fails)."""
    stale: list[Entry] = field(default_factory=list)
    """Entries whose check passes now, or whose resource is gone."""

    @property
    def ok(self) -> bool:
        return not self.new and not self.unreasoned


def _entry(raw: Any, where: str) -> Entry:
    if not isinstance(raw, dict):
        raise BaselineError(f"{where}: expected a mapping with check, resource and reason")
    unknown = set(raw) - {"check", "resource", "title", "reason"}
    if unknown:
        raise BaselineError(f"{where}: unknown keys {sorted(unknown)}")
    for key in ("check", "resource"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise BaselineError(f"{where}: {key} must be a non-empty string")
    reason = raw.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise BaselineError(f"{where}: reason must be text")
    return Entry(raw["check"], raw["resource"], str(raw.get("title") or ""), reason or "")


def parse(text: str, source: str = "baseline") -> list[Entry]:
    data = yaml.safe_load(text) or {}
    if not isinstance(data, dict) or not isinstance(data.get("accepted", []), list):
        raise BaselineError(f"{source}: expected `accepted:` with a list of entries")
    entries = [
        _entry(raw, f"{source}: accepted[{i}]") for i, raw in enumerate(data["accepted"] or [])
    ]
    seen: set[tuple[str, str]] = set()
    for entry in entries:
        if entry.key in seen:
            raise BaselineError(f"{source}: {entry.check} on {entry.resource} is listed twice")
        seen.add(entry.key)
    return entries


def load(path: Path) -> list[Entry]:
    """The baseline at ``path``; a stack with no baseline file accepts nothing."""
    if not path.exists():
        return []
    return parse(path.read_text(), str(path))


def compare(findings: list[Finding], entries: list[Entry]) -> Comparison:
    by_key = {e.key: e for e in entries}
    failing = {f.key for f in findings}
    result = Comparison()
    for finding in findings:
        entry = by_key.get(finding.key)
        if entry is None:
            result.new.append(finding)
        elif entry.has_reason:
            result.accepted.append((finding, entry))
    result.unreasoned = [e for e in entries if not e.has_reason]
    result.stale = [e for e in entries if e.key not in failing]
    return result


def updated(findings: list[Finding], entries: list[Entry]) -> list[Entry]:
    """The baseline that accepts exactly ``findings``: known reasons kept, new ones ``TODO``."""
    by_key = {e.key: e for e in entries}
    out = []
    for finding in sorted(set(findings), key=lambda f: (f.resource, f.check)):
        known = by_key.get(finding.key)
        reason = known.reason if known else TODO
        out.append(Entry(finding.check, finding.resource, finding.title, reason))
    return out


def dump(entries: list[Entry], stack: str) -> str:
    accepted = [
        {"check": e.check, "resource": e.resource, "title": e.title, "reason": e.reason}
        for e in entries
    ]
    body = yaml.safe_dump({"accepted": accepted}, sort_keys=False, width=100, allow_unicode=True)
    return HEADER.format(stack=stack) + body
