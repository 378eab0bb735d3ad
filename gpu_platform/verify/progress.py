"""A progress line on stderr while a large cluster is read and its nodes are exec'd into.

On a terminal the line is redrawn in place; with ``--progress`` and no terminal (CI logs) a line
is written at every tenth of the way, so logs stay short. Off otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import TextIO, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Progress:
    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self.tty = enabled and stream.isatty()
        self._width = 0
        self._last_tenth: dict[str, int] = {}

    def update(self, phase: str, done: int, total: int | None, what: str) -> None:
        if not self.enabled:
            return
        count = f"{done}/{total}" if total else f"{done}"
        line = f"verify: {phase} {count} {what}"
        if self.tty:
            pad = max(0, self._width - len(line))
            self.stream.write("\r" + line + " " * pad)
            self._width = len(line) + pad  # what the terminal line now holds
        else:
            tenth = (done * 10) // total if total else done
            if self._last_tenth.get(phase) == tenth and done != total:
                return
            self._last_tenth[phase] = tenth
            self.stream.write(line + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0


def run_each(
    items: Sequence[T],
    work: Callable[[T], R],
    parallel: int,
    progress: Progress,
    *,
    phase: str,
    node_of: Callable[[T], str],
) -> list[tuple[T, R]]:
    """``work`` on every item, ``parallel`` at a time (the nodes' execs and pages): each item
    with its result, in the order they finished, the progress line moved after each."""
    finished: list[tuple[T, R]] = []
    if not items:
        return finished
    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = {pool.submit(work, item): item for item in items}
        for done, future in enumerate(as_completed(futures), start=1):
            item = futures[future]
            finished.append((item, future.result()))
            progress.update(phase, done, len(items), node_of(item))
    return finished
