"""Deadlines of ``make verify``: one for each request, one for the whole run.

A socket timeout bounds one wait for data, not a request: an API server (or a proxy in front
of it) that sends a byte every second never trips it. So each request runs in a helper thread
(kept for the next request) and the caller stops waiting at its deadline, which is the
request's own limit or what is left of the run's, whichever comes first. The abandoned request
ends with its socket (read timeout, or the server closing it); the process never waits for it
(a daemon thread).
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

T = TypeVar("T")

RUN_TIMEOUT = 600.0
"""Seconds the whole run may take (``--timeout``): a few minutes on a cluster of thousands of
nodes (reads in pages of 500, then the driver and metrics of ``--parallel`` nodes at once)."""
REQUEST_TIMEOUT = 30.0
"""Seconds one request may take from connect to the last byte (``--request-timeout``)."""
CONNECT_TIMEOUT = 5.0
"""Seconds to open a connection: an unreachable API server fails fast."""
GRACE = 0.5
"""Seconds the caller waits past a request's socket timeouts before it gives up on it: a
server that stays silent is then reported by the socket (a read timeout), one that drips by
the deadline."""


class TimedOut(Exception):
    """The work did not finish within its allowance."""


@dataclass(frozen=True, slots=True)
class Allowance:
    seconds: float
    """How long this request may take."""
    limit: str
    """What set it, for messages: ``--request-timeout 30 s`` or ``--timeout 600 s``."""


@dataclass
class Deadline:
    """The run's deadline, started when it is made, and each request's limit under it."""

    run_seconds: float = RUN_TIMEOUT
    request_seconds: float = REQUEST_TIMEOUT
    clock: Callable[[], float] = time.monotonic
    started: float = field(init=False)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def remaining(self) -> float:
        return self.run_seconds - (self.clock() - self.started)

    def allowance(self, cap: float | None = None) -> Allowance:
        """How long the next request may take: its own limit (``cap``, else the request
        timeout) or what is left of the run, whichever is shorter. ``TimedOut`` once the run's
        deadline has passed."""
        own = self.request_seconds if cap is None else cap
        left = self.remaining()
        if left <= 0:
            raise TimedOut(f"the run's deadline (--timeout {self.run_seconds:g} s) has passed")
        if own <= left:
            flag = "--request-timeout" if cap is None else "its own limit"
            return Allowance(own, f"{flag} {own:g} s")
        return Allowance(left, f"what was left of the run's --timeout {self.run_seconds:g} s")


class _Runner:
    """A daemon thread that runs one request at a time for ``within``, kept for the next one (a
    thread started per request cost about a sixth of a 5,000-node run's CPU: docs/performance.md,
    make verify at fleet size). A runner whose caller gave up goes back to the idle ones only
    once its request has ended."""

    _idle: ClassVar[list[_Runner]] = []
    _idle_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="verify-request", daemon=True).start()

    @classmethod
    def take(cls) -> _Runner:
        with cls._idle_lock:
            if cls._idle:
                return cls._idle.pop()
        return cls()

    def run(self, job: Callable[[], None]) -> None:
        self._jobs.put(job)

    def _serve(self) -> None:
        while True:
            self._jobs.get()()
            with self._idle_lock:
                self._idle.append(self)

    @classmethod
    def forget_after_fork(cls) -> None:
        """In a forked child: the parent's runners have no thread there (a job handed to one
        would never run, and its caller would time out), and the lock may be held."""
        cls._idle = []
        cls._idle_lock = threading.Lock()


os.register_at_fork(after_in_child=_Runner.forget_after_fork)


def within(seconds: float, work: Callable[[], T]) -> T:
    """``work()``'s result (or exception), or ``TimedOut`` after ``seconds``."""
    done = threading.Event()
    outcome: list[T] = []
    failure: list[BaseException] = []

    def job() -> None:
        try:
            outcome.append(work())
        except BaseException as err:  # handed to the caller, who re-raises it
            failure.append(err)
        finally:
            done.set()

    _Runner.take().run(job)
    if not done.wait(seconds):
        raise TimedOut(f"no complete answer within {seconds:g} s")
    if failure:
        raise failure[0]
    return outcome[0]
