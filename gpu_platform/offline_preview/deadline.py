"""One deadline for the whole preview: ``--timeout`` covers the program, every fetch, render
and post-renderer after it.

The program gets what is left when it starts (``program_guard`` interrupts it then); each
piece of work after it takes at most what is left then, and its own cap (a fetch's
``FETCH_SECONDS``) when that comes first. Past the run's deadline the preview ends with exit
status 3, naming what it was doing.
"""

from __future__ import annotations

import time

from .program_guard import DEFAULT_TIMEOUT, ProgramTimedOut


class PreviewTimedOut(ProgramTimedOut):
    """The run's deadline passed while the preview itself worked (a fetch, a render)."""

    def __init__(self, seconds: float, doing: str) -> None:
        super().__init__(seconds)
        self.doing = doing
        self.args = (
            f"the preview did not finish within {seconds:g} s (--timeout SECONDS allows more): "
            f"{doing}",
        )


class RunDeadline:
    """``seconds`` from now (None: no deadline)."""

    def __init__(self, seconds: float | None = DEFAULT_TIMEOUT) -> None:
        self.seconds = seconds
        self._end = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        """Seconds left (never below 0), None without a deadline."""
        return None if self._end is None else max(0.0, self._end - time.monotonic())

    def allow(self, cap: float) -> float:
        """Seconds a piece of work capped at ``cap`` may take now."""
        left = self.remaining()
        return cap if left is None else min(cap, left)

    def binds(self, cap: float) -> bool:
        """Whether the run's deadline comes before ``cap`` seconds from now."""
        left = self.remaining()
        return left is not None and left <= cap

    def enforce(self, doing: str) -> None:
        """``PreviewTimedOut`` once the deadline has passed."""
        if self._end is not None and time.monotonic() >= self._end:
            raise self.expired(doing)

    def expired(self, doing: str) -> PreviewTimedOut:
        return PreviewTimedOut(self.seconds or 0.0, doing)


NO_DEADLINE = RunDeadline(None)
