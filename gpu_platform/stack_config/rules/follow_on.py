"""Which problems are consequences of another, so that each mistake is reported once.

When the settings have problems, the rules run again over views of the settings
that log what each rule reads (``Recorded``), and every problem carries what its rule had read
when it found it. Two kinds of reads make a problem a consequence (``without_consequences``):

- a view of all GPU pools that misses some: ``settings.gpu_pools`` misses the pools the schema
  refused, ``sound_pools`` also those their own rules faulted. A claim that no pool has
  something (``no GPU pool named 't4'`` while the pool ``T4`` is refused, ``no pool exposes
  nvidia.com/gpu.shared`` while that pool is faulted) rests on the missing pools: it waits for
  the next run. Looking up a pool that is there reads nothing missing.
- the key another rule faulted with fewer reads: two problems about one key, one judged on a
  subset of what the other read, are one mistake (``clusterSpec: must be ack.standard or
  ack.pro.<size>`` explains ``clusterSpec: ACK GPU sharing needs ACK Pro``).

A top-level part the schema refused cannot be read at all: reading it raises ``UnsoundPart``,
which ends that rule (what it found before stands). The schema's own problems are never
consequences.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

Problem = tuple[str, str]


class UnsoundPart(Exception):
    """A rule read a part of the config the schema refused: its judgement would rest on it."""

    def __init__(self, key: str) -> None:
        super().__init__(f"{key} failed validation")
        self.key = key


class ReadLog:
    """What a rule has read so far: key paths, and pools missing from a view it read."""

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.missing: set[str] = set()

    def read(self, *keys: str) -> None:
        self.keys.update(keys)

    def read_missing(self, *pools: str) -> None:
        self.missing.update(pools)

    def clear(self) -> None:
        self.keys.clear()
        self.missing.clear()


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def related(a: str, b: str) -> bool:
    """Whether one key path is the other or lies under it."""
    short, long = sorted((a, b), key=len)
    return long == short or long.startswith((f"{short}.", f"{short}["))


class Recorded:
    """A settings model whose field reads are logged with their key paths (camelCase, as the
    user wrote them). Models and lists of models inside are recorded views too; reading through
    them to a field logs only that field. ``isinstance`` sees the model's own class.

    ``failed`` names fields the schema refused (reading one raises ``UnsoundPart``);
    ``items`` gives a list field its items' key paths and the paths of items missing from it
    (reading the list reads those)."""

    __slots__ = ("_failed", "_items", "_log", "_model", "_path")

    def __init__(
        self,
        model: BaseModel,
        path: str,
        log: ReadLog,
        failed: Collection[str] = (),
        items: Mapping[str, tuple[Sequence[str], Sequence[str]]] | None = None,
    ) -> None:
        self._model, self._path, self._log = model, path, log
        self._failed, self._items = failed, items or {}

    @property  # type: ignore[misc]  # isinstance(view, Model) holds, as for the model itself
    def __class__(self) -> type:  # pyright: ignore[reportIncompatibleMethodOverride]
        return type(self._model)

    def __getattr__(self, name: str) -> Any:
        model_type = type(self._model)
        field = model_type.model_fields.get(name)
        if field is None:
            attribute = getattr(model_type, name, None)
            if isinstance(attribute, property) and attribute.fget is not None:
                return attribute.fget(self)  # computed from fields: their reads are logged
            return getattr(self._model, name)
        key = join(self._path, field.alias or name)
        if name in self._failed:
            raise UnsoundPart(key)
        value = getattr(self._model, name)
        if isinstance(value, BaseModel):
            return Recorded(value, key, self._log)
        if isinstance(value, list) and value and isinstance(value[0], BaseModel):
            paths, missing = self._items.get(name, ([join(key, i) for i in range(len(value))], ()))
            self._log.read_missing(*missing)
            return [Recorded(item, p, self._log) for item, p in zip(value, paths, strict=True)]
        self._log.read(key)
        return value

    def __repr__(self) -> str:
        return f"Recorded({self._path or '(root)'}: {self._model!r})"


class RecordedMapping(Mapping[str, Any]):
    """A mapping of pools that misses some: walking it, or looking up a name it lacks, reads
    the missing ones; looking up one it has does not."""

    def __init__(self, data: Mapping[str, Any], missing: Sequence[str], log: ReadLog) -> None:
        self._data, self._missing, self._log = data, missing, log

    def __getitem__(self, key: str) -> Any:
        if key not in self._data:
            self._log.read_missing(*self._missing)
        return self._data[key]

    def __contains__(self, key: object) -> bool:
        if key in self._data:
            return True
        self._log.read_missing(*self._missing)
        return False

    def __iter__(self) -> Iterator[str]:
        self._log.read_missing(*self._missing)
        return iter(self._data)

    def __len__(self) -> int:
        self._log.read_missing(*self._missing)
        return len(self._data)


@dataclass(frozen=True)
class Found:
    """A problem, what its rule had read when it found it, and which rule that was."""

    problem: Problem
    reads: frozenset[str] = frozenset()
    missing: frozenset[str] = frozenset()
    rule: int = 0

    @property
    def path(self) -> str:
        return self.problem[0]


def run_recorded(
    rule: Callable[[], Iterable[Problem]], log: ReadLog, rule_id: int
) -> tuple[list[Found], bool]:
    """Run one rule, each problem with what it had read; False when it read a refused part
    (``UnsoundPart``) and stopped there."""
    log.clear()
    found: list[Found] = []
    try:
        for problem in rule():
            reads = _own_item_reads(problem[0], log.keys)
            found.append(Found(problem, reads, frozenset(log.missing), rule_id))
    except UnsoundPart:
        return found, False
    return found, True


def _own_item_reads(path: str, reads: Iterable[str]) -> frozenset[str]:
    """The reads, less those of the other items of a list the problem's own key is an item of:
    a rule that walks a list judges each item on its own (``cpuPools[1]`` is not judged by
    what ``cpuPools[0]`` holds)."""
    own = [path[: i + path[i:].index("]") + 1] for i, c in enumerate(path) if c == "["]
    return frozenset(r for r in reads if not any(_other_item(r, item) for item in own))


def _other_item(read: str, item: str) -> bool:
    """Whether ``read`` is under another item of the list ``item`` belongs to."""
    prefix = item[: item.rindex("[") + 1]
    return read.startswith(prefix) and not related(read, item)


def without_consequences(found: Sequence[Found]) -> list[Problem]:
    """The problems that follow from no other, in order, each once."""
    first: dict[Problem, Found] = {}
    for f in found:
        first.setdefault(f.problem, f)
    unique = list(first.values())
    return [
        q.problem
        for q in unique
        if not q.missing and not any(_explains(p, q) for p in unique if p is not q)
    ]


def _explains(p: Found, q: Found) -> bool:
    """Another rule found a problem with the same key on a strict subset of what ``q`` read."""
    return p.rule != q.rule and p.path == q.path and p.reads < q.reads
