"""Render a preview: a resource tree with verdicts, one JSON document, or Markdown."""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from typing import Any

from .engine import ProgramRun, Secret, Unknown, children_by_parent
from .graph import depends_on
from .policy_runner import Violation
from .wire import unknown_paths

SECRET_TEXT = "[secret]"
UNKNOWN_TEXT = "[unknown]"
"""A value known only after apply (``pulumi preview`` shows ``output<string>``)."""


def public(value: Any) -> Any:
    """``value`` with secrets and unknowns as text, as the JSON plan shows them; a number JSON
    cannot hold (NaN, an infinity) as its name, ``"NaN"``: the plan stays JSON that any reader
    parses (Python would write ``NaN``, which jq, Go and JavaScript refuse)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value).replace("inf", "Infinity").replace("nan", "NaN")
    if isinstance(value, Secret):
        return SECRET_TEXT
    if isinstance(value, Unknown):
        return UNKNOWN_TEXT
    if isinstance(value, dict):
        return {k: public(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [public(v) for v in value]
    return value


def as_document(run: ProgramRun, violations: list[Violation]) -> dict[str, Any]:
    """The ``FORMAT=json`` contract; ``dependsOn`` is what each resource waits for besides its
    parent (``offline_preview.graph``)."""
    recorded = {r.urn for r in run.resources}
    return {
        "stack": run.stack,
        "resources": [
            {
                "urn": r.urn,
                "type": r.type,
                "name": r.name,
                "parent": r.parent,
                "dependsOn": depends_on(r, recorded),
                "inputs": public(r.inputs),
            }
            for r in run.resources
        ],
        "outputs": public(run.outputs),
        "violations": [
            {"policy": v.policy, "enforcement": v.enforcement, "urn": v.urn, "message": v.message}
            for v in violations
        ],
    }


def as_json(run: ProgramRun, violations: list[Violation]) -> str:
    return json.dumps(
        as_document(run, violations), indent=2, sort_keys=False, default=str, allow_nan=False
    )


def _summary(run: ProgramRun, violations: list[Violation]) -> str:
    levels = Counter(v.enforcement for v in violations)
    return (
        f"{len(run.resources)} resources, {levels['mandatory']} mandatory and "
        f"{levels['advisory']} advisory policy violations"
    )


def _format_capacity(capacity: Any) -> list[str]:
    lines = []
    for pool, cap in capacity.items():
        # A DRA pool's node publishes devices per DeviceClass instead of extended resources.
        devices = "devicesPerNode" in cap
        shown, totals = ("devicesPerNode", "totalDevices") if devices else ("perNode", "total")
        per_node = ", ".join(f"{k}: {v}" for k, v in cap[shown].items())
        total = ", ".join(f"{k}: {v}" for k, v in cap[totals].items())
        if devices:
            per_node, total = f"{per_node} (DRA devices)", f"{total} (DRA devices)"
        nodes = cap["nodes"]
        nodes_text = f"{nodes['min']}-{nodes['max']}" if isinstance(nodes, dict) else str(nodes)
        lines.append(f"    {pool}: {per_node} per node × {nodes_text} nodes = {total}")
    return lines


def _output_lines(outputs: dict[str, Any]) -> list[str]:
    lines = []
    for key, value in outputs.items():
        if key == "gpuCapacity" and isinstance(value, dict):
            lines.append(f"  {key}:")
            lines.extend(_format_capacity(value))
        else:
            text = json.dumps(public(value), default=str)
            lines.append(f"  {key}: {text if len(text) < 120 else text[:117] + '...'}")
    return lines


def as_table(run: ProgramRun, violations: list[Violation]) -> str:
    """A tree of resources by parent, each with its policy verdicts."""
    children = children_by_parent(run.resources)  # siblings keep the run's (tree) order
    by_urn: dict[str | None, list[Violation]] = defaultdict(list)
    for v in violations:
        by_urn[v.urn].append(v)

    lines = [f"Stack {run.project}-{run.stack}"]

    def walk(parent: str | None, indent: str) -> None:
        kids = children.get(parent, [])
        for i, res in enumerate(kids):
            last = i == len(kids) - 1
            branch, nxt = ("└─ ", "   ") if last else ("├─ ", "│  ")
            flags = " [protected]" if res.protect else ""
            flags += " [remote component: built by its plugin]" if res.remote else ""
            lines.append(f"{indent}{branch}{printable(res.type)}  {printable(res.name)}{flags}")
            unknown = unknown_paths(res.inputs)
            if unknown:
                lines.append(f"{indent}{nxt}  ? known after apply: {', '.join(unknown)}")
            for v in by_urn.get(res.urn, []):
                mark = "✗" if v.enforcement == "mandatory" else "!"
                lines.append(f"{indent}{nxt}  {mark} {v.policy}: {printable(v.message)}")
            walk(res.urn, indent + nxt)

    walk(None, "")
    for v in by_urn.get(None, []):
        mark = "✗" if v.enforcement == "mandatory" else "!"
        lines.append(f"{mark} {v.policy} (stack): {printable(v.message)}")
    if run.outputs:
        lines.append("Outputs:")
        lines.extend(printable(line) for line in _output_lines(run.outputs))
    lines.append(_summary(run, violations))
    return "\n".join(lines)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with control characters (a newline, an escape sequence) written as escapes: a
    name or message a program chose cannot start a line of its own in a log or a comment, nor
    drive the terminal."""
    return _CONTROL.sub(lambda m: repr(m.group(0))[1:-1], text)


def _cell(text: str) -> str:
    """Text for a Markdown table cell: on one line, its ``|`` escaped, no HTML (a ``<!--``
    would hide the rest of the comment)."""
    return printable(text).replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _fence(texts: list[str], shortest: int) -> str:
    """Backticks that end a code span or block of ``texts`` where we end it: more than any run
    of backticks in them, and at least ``shortest``."""
    longest = max((len(run) for text in texts for run in re.findall(r"`+", text)), default=0)
    return "`" * max(shortest, longest + 1)


def _code(text: str) -> str:
    """Inline code in a table cell, fenced by more backticks than ``text`` holds in a row."""
    text = printable(text).replace("|", "\\|")
    fence = _fence([text], 1)
    return f"{fence} {text} {fence}" if len(fence) > 1 else f"`{text}`"


def as_markdown(run: ProgramRun, violations: list[Violation]) -> str:
    """A pull-request comment: verdicts first, then the plan."""
    mandatory = [v for v in violations if v.enforcement == "mandatory"]
    status = "❌ mandatory policy violations" if mandatory else "✅ no mandatory policy violations"
    lines = [
        f"### Offline preview: {_code(f'{run.project}/{run.stack}')} — {status}",
        "",
        _summary(run, violations),
        "",
    ]
    if violations:
        lines += ["| Policy | Level | Resource | Message |", "|---|---|---|---|"]
        for v in violations:
            resource = _code(v.urn.rsplit("::", 1)[-1]) if v.urn else "(stack)"
            message = _cell(v.message.replace("\n", " "))
            lines.append(f"| `{v.policy}` | {v.enforcement} | {resource} | {message} |")
        lines.append("")
    counts = Counter(r.type for r in run.resources)
    lines += ["<details><summary>Resources</summary>", "", "| Type | Count |", "|---|---|"]
    lines += [f"| {_code(t)} | {n} |" for t, n in sorted(counts.items())]
    lines += ["", "</details>"]
    pending = [(r, unknown_paths(r.inputs)) for r in run.resources]
    pending = [(r, paths) for r, paths in pending if paths]
    if pending:
        lines += ["", "<details><summary>Inputs known only after apply</summary>", ""]
        lines += [
            f"- {_code(r.type)} {_code(r.name)}: {_cell(', '.join(paths))}" for r, paths in pending
        ]
        lines += ["", "</details>"]
    if run.outputs:
        shown = [printable(line) for line in _output_lines(run.outputs)]
        fence = _fence(shown, 3)
        lines += ["", "<details><summary>Outputs</summary>", "", fence, *shown, fence]
        lines += ["", "</details>"]
    return "\n".join(lines)


RENDERERS = {"table": as_table, "json": as_json, "markdown": as_markdown}
