"""A progress line on stderr while a large cluster is read and its nodes are exec'd into.

On a terminal the line is redrawn in place; with ``--progress`` and no terminal (CI logs) a line
is written at every tenth of the way, so logs stay short. Off otherwise.
"""

from __future__ import annotations

from typing import TextIO


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
