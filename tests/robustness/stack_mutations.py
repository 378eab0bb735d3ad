"""Generated mutations of our four stack files, each with what must come of it.

Two levels, as a careless user makes them:

- **values** (``value_mutations``): one change to the config the program receives (the stack
  file's ``gpu-platform:`` keys, decoded), judged by the stack config loader. Each expects
  exactly one problem, at the key changed: no follow-on at any other key.
- **text** (``text_mutations``): one change to the file itself, judged by the stack file
  reader. Each expects the file refused with a line (and column) and a message.

The schema (``known_keys.field_at``) says which change is wrong where: a required key, a
field's type, its ``Literal`` values, its bounds. Nothing under a free-form mapping
(``devicePlugin.values``) is mutated: any value is right there.
"""

from __future__ import annotations

import copy
import functools
import re
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from annotated_types import Ge, Le

from gpu_platform.stack_config.files import read_stack_config
from gpu_platform.stack_config.known_keys import annotation_at, field_at, model_of
from gpu_platform.stack_config.load import NAMESPACE, raw_from_config

ROOT = Path(__file__).resolve().parents[2]
STACKS = ("dev", "prod", "ack-dev", "existing")

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class ValueMutation:
    cls: str
    """The class of mistake (``drop-required``, ``wrong-type``...)."""
    path: Path_
    change: Callable[[dict[str, Any]], None]
    expected_path: str
    """The one key path the one problem names."""
    expected: str
    """A fragment of its message."""

    @property
    def name(self) -> str:
        return f"{self.cls} {key_path(self.path)}"


@dataclass(frozen=True)
class TextMutation:
    cls: str
    name: str
    text: str | bytes
    line: int | None
    column: int | None
    """Where the reader must say the problem is (None: no line, or the line alone)."""
    expected: str


def key_path(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def stack_file(stack: str) -> Path:
    return ROOT / f"Pulumi.{stack}.yaml"


@functools.cache
def _raw_config(stack: str) -> dict[str, Any]:
    return raw_from_config(read_stack_config(stack_file(stack), NAMESPACE).config)


def raw_config(stack: str) -> dict[str, Any]:
    """The stack's ``gpu-platform:`` keys as the program receives them, decoded (a copy)."""
    return copy.deepcopy(_raw_config(stack))


def _walk(node: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, (*path, i))


def _set(path: Path_, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        node = raw
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return change


def _drop(path: Path_) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        node = raw
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]

    return change


def _rename(path: Path_, new: str) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        node = raw
        for part in path[:-1]:
            node = node[part]
        node[new] = node.pop(path[-1])

    return change


def _free_form(path: Path_, raw: dict[str, Any]) -> bool:
    """Under a mapping the schema takes any value in (chart values)."""
    for i in range(1, len(path)):
        annotation = annotation_at(list(path[:i]), raw)
        if get_origin(annotation) is dict and get_args(annotation)[1] is object:
            return True
    return False


def _members(annotation: Any) -> list[Any]:
    if get_origin(annotation) in (Union, types.UnionType):
        return [m for arg in get_args(annotation) for m in _members(arg)]
    if get_origin(annotation) is Annotated:
        return _members(get_args(annotation)[0])
    return [annotation]


def _accepts_text(annotation: Any) -> bool:
    return any(m is str or get_origin(m) is Literal for m in _members(annotation))


def _near_miss(key: str) -> str:
    """The key with two different letters near its middle swapped (``scrape`` -> ``scarpe``)."""
    middle = max(1, len(key) // 2 - 1)
    i = next(j for j in [*range(middle, len(key) - 1), *range(1, middle)] if key[j] != key[j + 1])
    return key[:i] + key[i + 1] + key[i] + key[i + 2 :]


def value_mutations(stack: str) -> list[ValueMutation]:
    raw = raw_config(stack)
    found: list[ValueMutation] = []
    for path, node in _walk(raw):
        if not path or _free_form(path, raw):
            continue
        field = field_at(list(path), raw) if isinstance(path[-1], str) else None
        at = key_path(path)
        if field is not None and field.is_required():
            found.append(ValueMutation("drop-required", path, _drop(path), at, "Field required"))
        if isinstance(path[-1], str) and model_of(annotation_at(list(path[:-1]), raw)):
            misspelt = _near_miss(path[-1])
            parent = key_path((*path[:-1], misspelt))
            found.append(
                ValueMutation(
                    "misspelt-key",
                    path,
                    _rename(path, misspelt),
                    parent,
                    f"did you mean {path[-1]!r}?",
                )
            )
        if isinstance(node, dict) and model_of(annotation_at(list(path), raw)):
            extra = (*path, "bogusKey")
            found.append(
                ValueMutation("unknown-key", extra, _set(extra, 1), key_path(extra), "unknown key")
            )
        annotation = field.annotation if field is not None else annotation_at(list(path), raw)
        if annotation is None:
            continue
        wrong = 12 if _accepts_text(annotation) and not isinstance(node, bool | int) else "text"
        if isinstance(node, bool):
            wrong = "maybe"
        found.append(ValueMutation("wrong-type", path, _set(path, wrong), at, ""))
        if isinstance(node, str) and get_origin(annotation) is Literal:
            found.append(
                ValueMutation("bad-enum", path, _set(path, "bogus-value"), at, "Input should be")
            )
        if isinstance(node, int) and not isinstance(node, bool) and field is not None:
            for bound in field.metadata:
                if isinstance(bound, Ge):
                    found.append(
                        ValueMutation(
                            "out-of-range", path, _set(path, bound.ge - 1), at, "greater than"
                        )
                    )
                if isinstance(bound, Le):
                    found.append(
                        ValueMutation(
                            "out-of-range", path, _set(path, bound.le + 1), at, "less than"
                        )
                    )
    return found


def mutated(stack: str, mutation: ValueMutation) -> dict[str, Any]:
    raw = raw_config(stack)
    mutation.change(raw)
    return raw


# -- the file's text --------------------------------------------------------------------------

_SIMPLE_ENTRY = re.compile(r"^(?P<indent> *)(?P<key>[A-Za-z][\w.:/-]*): (?P<value>[^#\s].*)$")


def text_mutations(stack: str) -> list[TextMutation]:
    text = stack_file(stack).read_text()
    lines = text.splitlines(keepends=True)
    found: list[TextMutation] = []
    for i, line in enumerate(lines):
        match = _SIMPLE_ENTRY.match(line)
        if match is None:
            continue
        indent, key = match["indent"], match["key"]
        dup = [*lines[: i + 1], line, *lines[i + 1 :]]
        found.append(
            TextMutation(
                "duplicate-key",
                f"{key} (line {i + 1})",
                "".join(dup),
                i + 2,
                len(indent) + 1,
                f"key {key!r} defined twice (first at line {i + 1})",
            )
        )
    for i, line in enumerate(lines):
        if line.startswith(f"  {NAMESPACE}:"):
            key = line.strip().split(":", 2)[1]
            wrong = line.replace(f"{NAMESPACE}:", "gpu-platfrom:", 1)
            found.append(
                TextMutation(
                    "near-miss-namespace",
                    key,
                    "".join([*lines[:i], wrong, *lines[i + 1 :]]),
                    i + 1,
                    3,
                    f"did you mean '{NAMESPACE}:{key}'?",
                )
            )
    found.extend(_broken_yaml(stack, text, lines))
    return found


def _first_indented(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith("    "))


def _broken_yaml(stack: str, text: str, lines: list[str]) -> list[TextMutation]:
    """One of each way a YAML file can be unreadable or unsafe."""
    config_line = next(i for i, line in enumerate(lines) if line.startswith("config:"))
    n = len(lines)
    tab = _first_indented(lines)
    tabbed = [*lines[:tab], "\t" + lines[tab].lstrip(" "), *lines[tab + 1 :]]
    utf8 = text.encode()
    cut = utf8.index(b"config:") + len(b"config:")
    bomb = 'lol: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
        f"l{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 9)}]\n" for k in range(1, 9)
    )
    deep = "  gpu-platform:admission: " + "[" * 3000 + "]" * 3000 + "\n"
    return [
        TextMutation("yaml-syntax", "a tab indents", "".join(tabbed), tab + 1, 1, "a tab"),
        TextMutation(
            "yaml-syntax",
            "a byte that is not UTF-8",
            utf8[:cut] + b" \xff" + utf8[cut:],
            config_line + 1,
            9,
            "not UTF-8",
        ),
        TextMutation(
            "yaml-syntax",
            "a second document",
            text + "---\nconfig: {}\n",
            n + 1,
            1,
            "a second YAML document",
        ),
        TextMutation(
            "yaml-syntax", "a list at the top", "- " + text.replace("\n", "\n  "), 1, 1, "mapping"
        ),
        TextMutation("yaml-syntax", "a scalar at the top", "just text\n", 1, 1, "mapping"),
        TextMutation(
            "yaml-syntax",
            "a python tag",
            text + "  gpu-platform:admission: !!python/object/apply:os.system [id]\n",
            n + 1,
            27,
            "tag !!python/object/apply:os.system is not allowed",
        ),
        # The 65th collection: the file's mapping, config's, then the 63rd bracket.
        TextMutation("yaml-syntax", "3,000 levels deep", text + deep, n + 1, 89, "nested deeper"),
        TextMutation("yaml-syntax", "an alias bomb", bomb + text, 6, None, "aliases expanded"),
        TextMutation(
            "yaml-syntax",
            "an unclosed flow list",
            text + "  gpu-platform:workloads: [a, b\n",
            n + 2,
            1,
            "expected ',' or ']'",
        ),
        TextMutation(
            "yaml-syntax",
            "larger than 1 MiB",
            text + "#" * (1024 * 1024) + "\n",
            None,
            None,
            "larger than 1048576 bytes",
        ),
        TextMutation(
            "yaml-syntax",
            "a config key that is not text",
            text.replace("config:\n", "config:\n  7: seven\n", 1),
            config_line + 2,
            3,
            "config key 7",
        ),
    ]
