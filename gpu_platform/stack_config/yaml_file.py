"""A YAML input file read the way the Pulumi CLI can take it, within bounds, or refused with
its file, line and column.

The Pulumi CLI reads ``Pulumi.yaml`` and ``Pulumi.<stack>.yaml`` with go-yaml v3, which refuses
a mapping key defined twice ("mapping key ... already defined at line N") where PyYAML keeps the
last: refused here too, with both lines. Beyond that, a file must be text (UTF-8), one document,
hold plain values (no ``!!python/...`` or other language tags; a date stays text) and stay within
bounds that no real config comes near: a size, a nesting depth (PyYAML composes recursively),
and a number of values counted with every alias expanded (an alias "billion laughs" of a few KB
expands to billions: refused as it is parsed, before anything is built).

The same reader, with the same kinds of bounds (``Bounds``: size, depth, values with aliases
expanded) and larger numbers, decodes the YAML streams of Kubernetes manifests and Helm values
files in the offline preview (``load_yaml_stream``): many documents, keys as PyYAML keeps them.
Only PyYAML and the standard library: a program's own virtualenv imports it too.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 1024 * 1024
"""Largest input file read: our stack files are a few KB."""
MAX_DEPTH = 64
"""Deepest nesting of mappings and lists: our stack files nest 7 deep."""
MAX_VALUES = 100_000
"""Most values (scalars, mappings, lists) in a file, aliases counted as what they repeat."""


@dataclass(frozen=True)
class Bounds:
    """What a YAML input may hold: its size, nesting and values with aliases expanded."""

    max_bytes: int = MAX_BYTES
    max_depth: int = MAX_DEPTH
    max_values: int = MAX_VALUES


STACK_FILE_BOUNDS = Bounds()
"""Pulumi's project and stack files, ``--mocks``: a few KB in practice."""

_CORE_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "map", "seq")
)
_BASE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Position = tuple[int, int]
"""(line, column), both from 1."""
KeyPath = tuple[str | int, ...]


@dataclass(frozen=True)
class FileProblem:
    message: str
    line: int | None = None
    column: int | None = None

    def located(self, path: Path | str) -> str:
        where = str(path)
        if self.line is not None:
            where += f":{self.line}" + (f":{self.column}" if self.column is not None else "")
        return f"{where}: {self.message}"


class InputFileError(ValueError):
    """An input file cannot be used; each problem says where (file, line, column) and why."""

    def __init__(self, path: Path | str, problems: Sequence[FileProblem]) -> None:
        self.path = Path(path)
        self.problems = list(problems)
        super().__init__("\n".join(p.located(path) for p in self.problems))


@dataclass(frozen=True)
class YamlDocument:
    """A file's one document, and where each mapping key of it is."""

    data: Any
    keys: dict[KeyPath, Position] = field(default_factory=dict)
    root: Position = (1, 1)
    """Where the document's value starts."""

    def position(self, *path: str | int) -> Position | None:
        return self.keys.get(tuple(path))


class _Loader(_BASE_LOADER):
    """Safe loading, with dates left as text (a stack config value is text or JSON)."""

    yaml_implicit_resolvers = {  # noqa: RUF012 - PyYAML's class-level table, filtered
        first: [(tag, regexp) for tag, regexp in resolvers if not tag.endswith(":timestamp")]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


def _at(mark: Any) -> Position:
    return mark.line + 1, mark.column + 1


def _problem(message: str, mark: Any) -> FileProblem:
    line, column = _at(mark)
    return FileProblem(message, line, column)


def _text(path: Path | str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[: err.start]
        line = before.count(b"\n") + 1
        column = err.start - (before.rfind(b"\n") + 1) + 1
        raise InputFileError(
            path,
            [FileProblem(f"not UTF-8 text (byte 0x{data[err.start]:02x})", line, column)],
        ) from None


def read_bytes(path: Path, limit: int = MAX_BYTES) -> bytes:
    """A file's bytes, refused when it is missing, unreadable, not a regular file or past
    ``limit``. Opened without blocking and checked before it is read: a FIFO (or a device) in
    an untrusted folder would otherwise hold the reader for ever, past every deadline."""
    if "\0" in str(path):  # os.open's ValueError: no file has such a name
        raise InputFileError(path, [FileProblem("not a path: it holds a NUL byte")])
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as file:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode):
                raise IsADirectoryError
            if not stat.S_ISREG(mode):
                why = "not a regular file (a FIFO, a device or a socket): it may never end"
                raise InputFileError(path, [FileProblem(why)])
            os.set_blocking(fd, True)
            data = file.read(limit + 1)
    except FileNotFoundError:
        raise InputFileError(path, [FileProblem("no such file")]) from None
    except IsADirectoryError:
        raise InputFileError(path, [FileProblem("a folder, not a file")]) from None
    except OSError as err:
        raise InputFileError(path, [FileProblem(f"cannot read it: {err.strerror}")]) from None
    if len(data) > limit:
        raise InputFileError(path, [FileProblem(f"larger than {limit} bytes")])
    return data


def _scan(
    path: Path | str, text: str, bounds: Bounds = STACK_FILE_BOUNDS, *, one_document: bool = True
) -> None:
    """Refuse, as the events stream by: a second document (``one_document``), non-core tags,
    nesting past ``bounds.max_depth``, more than ``bounds.max_values`` values with aliases
    expanded (counted over every document of a stream)."""
    sizes: dict[str, int] = {}  # anchor -> values under it, expanded
    open_: list[tuple[str | None, int]] = []  # (anchor, values so far) of each open collection
    total = documents = 0

    def add(count: int, mark: Any) -> None:
        nonlocal total
        total += count
        if total > bounds.max_values:
            raise InputFileError(
                path,
                [_problem(f"more than {bounds.max_values} values with aliases expanded", mark)],
            )
        if open_:
            anchor, so_far = open_[-1]
            open_[-1] = (anchor, so_far + count)

    for event in yaml.parse(text, Loader=_Loader):
        tag = getattr(event, "tag", None)
        if tag not in (None, "!") and tag not in _CORE_TAGS:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise InputFileError(
                path,
                [_problem(f"tag {shown} is not allowed: plain YAML values only", event.start_mark)],
            )
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if one_document and documents > 1:
                raise InputFileError(
                    path, [_problem("a second YAML document: one document only", event.start_mark)]
                )
        elif isinstance(event, yaml.ScalarEvent):
            if event.anchor:
                sizes[event.anchor] = 1
            add(1, event.start_mark)
        elif isinstance(event, yaml.AliasEvent):
            add(sizes.get(event.anchor or "", 1), event.start_mark)
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(open_) >= bounds.max_depth:
                raise InputFileError(
                    path,
                    [_problem(f"nested deeper than {bounds.max_depth} levels", event.start_mark)],
                )
            add(1, event.start_mark)
            open_.append((event.anchor, 1))
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size = open_.pop()
            if anchor:
                sizes[anchor] = size


def _key_text(node: yaml.Node) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) else None


def _walk(
    node: yaml.Node,
    path: KeyPath,
    keys: dict[KeyPath, Position],
    problems: list[FileProblem],
    inside: frozenset[int] = frozenset(),
) -> None:
    """Record where each mapping key is; refuse keys defined twice, keys that are not plain
    values, and an alias inside the value it names (a value that contains itself)."""
    if id(node) in inside:
        problems.append(_problem("an alias inside the value it names", node.start_mark))
        return
    inside = inside | {id(node)}
    if isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, (*path, i), keys, problems, inside)
    elif isinstance(node, yaml.MappingNode):
        seen: dict[str, Position] = {}
        for key_node, value_node in node.value:
            key = _key_text(key_node)
            at = _at(key_node.start_mark)
            if key is None:
                problems.append(
                    FileProblem("a key must be a plain value, not a list or mapping", *at)
                )
            elif key_node.tag == "tag:yaml.org,2002:merge":
                _walk(value_node, path, {}, problems, inside)
            elif key in seen:
                problems.append(
                    FileProblem(f"key {key!r} defined twice (first at line {seen[key][0]})", *at)
                )
            else:
                seen[key] = at
                keys[(*path, key)] = at
                _walk(value_node, (*path, key), keys, problems, inside)


def _char_at(text: str, mark: Any) -> str:
    lines = text.splitlines()
    if mark.line < len(lines) and mark.column < len(lines[mark.line]):
        return lines[mark.line][mark.column]
    return ""


@contextlib.contextmanager
def _refused_with_position(path: Path | str, text: str) -> Iterator[None]:
    """PyYAML's errors as ``InputFileError`` at their line and column."""
    try:
        yield
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        message = str(err.problem or err.context or "not YAML")
        if mark is not None and _char_at(text, mark) == "\t":
            message = f"a tab: YAML indents with spaces, never tabs ({message})"
        problem = _problem(message, mark) if mark is not None else FileProblem(message)
        raise InputFileError(path, [problem]) from None
    except yaml.YAMLError as err:
        raise InputFileError(path, [FileProblem(f"not YAML: {err}")]) from None


def load_yaml(path: Path, text: str) -> YamlDocument:
    """The one document of ``text`` (read from ``path``), or ``InputFileError``."""
    with _refused_with_position(path, text):
        _scan(path, text)
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return YamlDocument(None)
            keys: dict[KeyPath, Position] = {}
            problems: list[FileProblem] = []
            _walk(node, (), keys, problems)
            if problems:
                raise InputFileError(path, list(dict.fromkeys(problems)))
            return YamlDocument(loader.construct_document(node), keys, _at(node.start_mark))
        finally:
            loader.dispose()


def load_yaml_stream(source: Path | str, text: str, bounds: Bounds) -> list[Any]:
    """Every document of a YAML (or JSON) stream, within ``bounds`` (its size included), core
    tags only and dates as text, as go-yaml decodes them into Kubernetes objects; or
    ``InputFileError`` naming ``source`` (a file or URL) with the line and column."""
    if len(text.encode()) > bounds.max_bytes:
        raise InputFileError(source, [FileProblem(f"larger than {bounds.max_bytes} bytes")])
    with _refused_with_position(source, text):
        _scan(source, text, bounds, one_document=False)
        return list(yaml.load_all(text, Loader=_Loader))


def decode_text(source: Path | str, data: bytes) -> str:
    """``data`` as UTF-8 text, or ``InputFileError`` naming ``source`` and the first byte
    that is not."""
    return _text(source, data)


def read_yaml(path: Path) -> YamlDocument:
    """Read and load a YAML file within the bounds above."""
    return load_yaml(path, _text(path, read_bytes(path)))


def read_text(path: Path, limit: int = MAX_BYTES) -> str:
    """A text file within ``limit`` bytes, as UTF-8."""
    return _text(path, read_bytes(path, limit))
