"""The Prometheus text exposition format (version 0.0.4), as dcgm-exporter serves ``/metrics``.

One sample per line: ``name{label="value",...} value [timestamp]``; ``#`` lines are ``HELP``,
``TYPE`` or comments; blank lines are ignored. Label values escape ``\\``, ``"`` and newlines
as ``\\\\``, ``\\"`` and ``\\n``; the label set may end with a comma; values are Go floats
(``NaN``, ``+Inf``, ``-Inf`` included). Prometheus "Exposition formats", text format details.

Malformed input raises ``MetricsFormatError`` naming the line: a half-understood page must not
pass for a healthy exporter.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

_NAME_TEXT, _VALUE_TEXT = r"[a-zA-Z_][a-zA-Z0-9_]*", r'[^"\\]*(?:\\[\\"n][^"\\]*)*'
_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_LABEL_NAME = re.compile(_NAME_TEXT)
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n"}
_PAIR = re.compile(rf'[ \t]*({_NAME_TEXT})[ \t]*=[ \t]*"({_VALUE_TEXT})"[ \t]*')
_ANY_PAIR = rf'[ \t]*{_NAME_TEXT}[ \t]*=[ \t]*"{_VALUE_TEXT}"[ \t]*'
_LABEL_SET = re.compile(rf"\{{(?:{_ANY_PAIR},)*(?:{_ANY_PAIR})?[ \t]*\}}")
"""A well-formed label set, ``{`` to ``}``: the common case, read at C speed with ``_PAIR``.
Anything else is read by :func:`_labels_exactly`, which names what is wrong."""
_UNESCAPE = re.compile(r"\\(.)")
_SPECIAL_VALUES = {"nan": math.nan, "+inf": math.inf, "inf": math.inf, "-inf": -math.inf}


class MetricsFormatError(ValueError):
    """The text is not in the Prometheus text format."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line


@dataclass(frozen=True, slots=True)
class Sample:
    """One sample: the metric's name, its labels and its value."""

    name: str
    labels: dict[str, str]
    value: float


def _labels(line: str, start: int, number: int) -> tuple[dict[str, str], int]:
    """The label set opening at ``line[start] == "{"``, and the index after its ``}``: with
    regular expressions when it is well-formed (dcgm-exporter's pages are), else character by
    character with the reason."""
    found = _LABEL_SET.match(line, start)
    if found is None:
        return _labels_exactly(line, start, number)
    pairs = _PAIR.findall(line, start + 1, found.end() - 1)
    labels = {
        name: _UNESCAPE.sub(_unescaped, value) if "\\" in value else value for name, value in pairs
    }
    if len(labels) != len(pairs):  # a label given twice
        return _labels_exactly(line, start, number)
    return labels, found.end()


def _unescaped(escape: re.Match[str]) -> str:
    return _ESCAPES[escape.group(1)]


def _labels_exactly(line: str, start: int, number: int) -> tuple[dict[str, str], int]:
    """:func:`_labels`, one character at a time: what is wrong with the label set, by name."""
    labels: dict[str, str] = {}
    at = start + 1
    while True:
        at = _blanks(line, at)
        if at < len(line) and line[at] == "}":
            return labels, at + 1
        match = _LABEL_NAME.match(line, at)
        if match is None:
            raise MetricsFormatError(number, f"expected a label name at column {at + 1}")
        name, at = match.group(), match.end()
        at = _blanks(line, at)
        if line[at : at + 1] != "=":
            raise MetricsFormatError(number, f'expected =" after label {name}')
        at = _blanks(line, at + 1)
        if line[at : at + 1] != '"':
            raise MetricsFormatError(number, f'expected =" after label {name}')
        value, at = _quoted(line, at + 1, number)
        if name in labels:
            raise MetricsFormatError(number, f"label {name} given twice")
        labels[name] = value
        at = _blanks(line, at)
        if at < len(line) and line[at] == ",":
            at += 1
        elif at >= len(line) or line[at] != "}":
            raise MetricsFormatError(number, f"expected , or }} after label {name}")


def _blanks(line: str, at: int) -> int:
    """The index of the first character at or after ``at`` that is not a blank."""
    while at < len(line) and line[at] in " \t":
        at += 1
    return at


def _quoted(line: str, at: int, number: int) -> tuple[str, int]:
    """The label value from ``line[at]`` to its closing quote, unescaped; and the index after."""
    out: list[str] = []
    while at < len(line):
        char = line[at]
        if char == '"':
            return "".join(out), at + 1
        if char == "\\":
            escaped = _ESCAPES.get(line[at + 1 : at + 2])
            if escaped is None:
                raise MetricsFormatError(
                    number, f"unknown escape in a label value: {line[at : at + 2]!r}"
                )
            out.append(escaped)
            at += 2
            continue
        out.append(char)
        at += 1
    raise MetricsFormatError(number, "unterminated label value")


def _value(text: str, number: int) -> float:
    special = _SPECIAL_VALUES.get(text.lower())
    if special is not None:
        return special
    try:
        return float(text)
    except ValueError:
        raise MetricsFormatError(number, f"not a sample value: {text!r}") from None


def _sample(line: str, number: int) -> tuple[str, int]:
    """The metric name at the start of ``line`` and the index after it."""
    match = _NAME.match(line)
    if match is None:
        raise MetricsFormatError(number, "expected a metric name")
    return match.group(), match.end()


def samples(text: str, names: Collection[str] | None = None) -> Iterator[Sample]:
    """Every sample of ``text`` (only those of ``names``, when given), in order. Lines of other
    metrics are checked up to their name, so a large page costs little beyond its lines."""
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r").strip(" \t")
        if not line or line.startswith("#"):
            continue
        name, at = _sample(line, number)
        if names is not None and name not in names:
            continue
        labels: dict[str, str] = {}
        brace = _blanks(line, at)
        if brace < len(line) and line[brace] == "{":
            labels, at = _labels(line, brace, number)
        elif at < len(line) and line[at] not in " \t":
            raise MetricsFormatError(number, f"unexpected {line[at]!r} after {name}")
        rest = line[at:].split()
        if not rest or len(rest) > 2:
            raise MetricsFormatError(number, f"expected a value (and a timestamp) after {name}")
        if len(rest) == 2 and not re.fullmatch(r"-?\d+", rest[1]):
            raise MetricsFormatError(number, f"not a timestamp: {rest[1]!r}")
        yield Sample(name, labels, _value(rest[0], number))
