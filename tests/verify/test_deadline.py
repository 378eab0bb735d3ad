"""readiness.deadline: each request's allowance under the run's deadline, and ``within``."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from gpu_platform.verify.deadline import Allowance, Deadline, TimedOut, within


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_request_gets_its_own_limit_while_the_run_has_more_left() -> None:
    clock = Clock()
    deadline = Deadline(60, 30, clock=clock)
    assert deadline.allowance() == Allowance(30, "--request-timeout 30 s")
    assert deadline.allowance(cap=10) == Allowance(10, "its own limit 10 s")


def test_near_the_end_a_request_gets_what_is_left_of_the_run() -> None:
    clock = Clock()
    deadline = Deadline(60, 30, clock=clock)
    clock.now += 50
    assert deadline.remaining() == 10
    assert deadline.allowance() == Allowance(10, "what was left of the run's --timeout 60 s")


def test_past_the_run_deadline_nothing_is_sent() -> None:
    clock = Clock()
    deadline = Deadline(60, 30, clock=clock)
    clock.now += 60
    with pytest.raises(TimedOut) as err:
        deadline.allowance()
    assert str(err.value) == "the run's deadline (--timeout 60 s) has passed"


def test_within_returns_the_result_or_raises_the_error() -> None:
    assert within(5, lambda: 42) == 42

    def fail() -> None:
        raise ValueError("the work's own error")

    with pytest.raises(ValueError, match="the work's own error"):
        within(5, fail)


def test_within_stops_waiting_at_its_deadline() -> None:
    release = threading.Event()
    with pytest.raises(TimedOut) as err:
        within(0.05, release.wait)  # work that does not end by itself
    assert str(err.value) == "no complete answer within 0.05 s"
    release.set()


def _thread() -> threading.Thread:
    return threading.current_thread()


def test_one_request_after_another_runs_on_the_same_kept_thread() -> None:
    first = within(5, _thread)
    assert first is not threading.current_thread()  # so the caller can stop waiting at its deadline
    assert all(within(5, _thread) is first for _ in range(20))


def _lent_at_once() -> set[threading.Thread]:
    """The threads ``within`` lends to as many requests at once as it keeps threads: every
    idle one among them (a thread is only started when none is idle)."""
    kept = sum(1 for t in threading.enumerate() if t.name == "verify-request")
    barrier = threading.Barrier(kept)

    def together() -> threading.Thread:
        barrier.wait(5)
        return threading.current_thread()

    with ThreadPoolExecutor(kept) as callers:
        return set(callers.map(lambda _: within(5, together), range(kept)))


def test_a_thread_whose_caller_gave_up_is_not_lent_again_until_its_request_ends() -> None:
    release = threading.Event()
    abandoned: list[threading.Thread] = []

    def stuck() -> None:
        abandoned.append(threading.current_thread())
        release.wait()

    with pytest.raises(TimedOut):
        within(0.05, stuck)
    # The next requests run at once, on other threads: none waits behind the abandoned one.
    assert abandoned[0] not in _lent_at_once()
    release.set()
    for _ in range(100):  # once its request has ended, the thread is lent again
        if abandoned[0] in _lent_at_once():
            break
        time.sleep(0.01)
    else:
        pytest.fail("the thread of the abandoned request was never lent again")


def test_a_forked_child_starts_threads_of_its_own() -> None:
    """The parent's kept threads do not exist in a child made by ``os.fork`` (multiprocessing's
    default on Linux): a request lent to one would never run and would time out."""
    assert within(5, _thread).is_alive()  # the parent keeps an idle thread
    pid = os.fork()
    if pid == 0:  # the child: its exit status is the answer
        try:
            os._exit(0 if within(5, lambda: 42) == 42 else 2)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
