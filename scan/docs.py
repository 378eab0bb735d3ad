"""Keeps docs/security.md's baseline tables equal to the baseline files."""

from __future__ import annotations

import re
from pathlib import Path

from . import baseline
from .report import docs_table

SCAN_DIR = Path(__file__).resolve().parent
DOC = SCAN_DIR.parent / "docs" / "security.md"
_START = re.compile(r"<!-- baseline: (?P<stack>[\w-]+) -->")
_END = "<!-- end baseline -->"


def baseline_path(stack: str) -> Path:
    return SCAN_DIR / f"baseline-{stack}.yaml"


def baseline_stacks() -> list[str]:
    return sorted(p.stem.removeprefix("baseline-") for p in SCAN_DIR.glob("baseline-*.yaml"))


def synced(text: str) -> str:
    """``text`` with each ``<!-- baseline: STACK -->`` block rendered from its file."""
    out: list[str] = []
    stack = None
    for line in text.splitlines(keepends=True):
        start = _START.fullmatch(line.strip())
        if stack is None:
            out.append(line)
            if start:
                stack = start["stack"]
                out.append(docs_table(baseline.load(baseline_path(stack))) + "\n")
        elif line.strip() == _END:
            out.append(line)
            stack = None
    return "".join(out)


def documented_stacks(text: str) -> list[str]:
    return sorted(m["stack"] for m in _START.finditer(text))


def write() -> bool:
    """Rewrite the doc's tables; True when it changed."""
    old = DOC.read_text()
    new = synced(old)
    DOC.write_text(new)
    return new != old
