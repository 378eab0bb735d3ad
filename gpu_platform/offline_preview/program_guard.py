"""What a program cannot do to the preview that runs it: end it, write into its output, wait for
a keyboard, or run forever.

While the program runs (``guarded``):

- ``sys.exit(N)``, ``raise SystemExit`` and ``os._exit(N)`` end the program, not the preview:
  they become ``ProgramExited`` (exit status 3, "the program exited before it finished");
- what it prints, from Python or from native code and subprocesses (file descriptor 1), goes to
  stderr: stdout carries only the preview's own document (``--format json`` stays JSON);
- stdin is empty: reading it gets end-of-file at once (``input()`` raises ``EOFError``);
- any exception it raises, a ``BaseException`` of its own included (``KeyboardInterrupt``
  raised without Ctrl-C, ``asyncio.CancelledError``, a subclass), is the program's failure
  (``ProgramRaised``), never the preview's crash;
- the processes it started end with it: when it returns, fails or is stopped, every process
  it left running (a child, a daemon that detached itself, a copy of itself by ``os.fork``) is
  killed, so none holds the preview's output open or runs on after it
  (``_processes_end_with_it``; Linux: this process becomes their reaper);
- after ``timeout`` seconds it is interrupted (``ProgramTimedOut``, exit status 3), and again
  every second should it catch that; a program that catches them all for ``HARD_STOP_AFTER``
  seconds ends the process (exit status 3). The clock needs the main thread (POSIX
  ``SIGALRM``); a program in its own interpreter is also bounded by the parent
  (``program_runner``);
- its data memory is bounded (``RLIMIT_DATA``, the soft limit): it may allocate ``memory_mib``
  MiB above what the process held when it started, and past that its allocation fails
  (``MemoryError``), which is ``ProgramOutOfMemory`` (exit status 3, naming the bound). The
  limit is lifted when the program ends, so the preview goes on to report it. Linux only (other
  systems do not enforce ``RLIMIT_DATA``: there the deadline alone bounds the program).
"""

from __future__ import annotations

import contextlib
import glob
import io
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

try:
    import resource
except ImportError:  # not POSIX: no memory bound, the deadline still holds
    resource = None  # type: ignore[assignment]

DEFAULT_TIMEOUT = 300.0
"""Seconds a program may run: our stacks take about one, a team program with its SDKs a few."""
HARD_STOP_AFTER = 5.0
"""Seconds of interruptions (one a second) a program may catch before the process is ended."""
DEFAULT_MEMORY_MIB = 4096
"""MiB of data memory a program may allocate: our stacks take tens, a team program of 20,000
resources about 1,500 (docs/performance.md, fleet scale)."""
MEMORY_ENV = "GPU_PLATFORM_PREVIEW_MEMORY_MIB"
"""The environment's default for ``--memory MIB``."""
_MIB = 1024 * 1024
EXIT_STOPPED = 3
"""The exit status of a program that failed (``cli.EXIT_PROGRAM``)."""
_REAL_EXIT = os._exit


class ProgramExited(Exception):
    """The program ended itself before it finished: ``how`` is ``sys.exit(N)`` or
    ``os._exit(N)``."""

    def __init__(self, how: str) -> None:
        super().__init__(f"the program exited before it finished ({how})")
        self.how = how


class ProgramTimedOut(BaseException):
    """The program ran past its time. A ``BaseException``, so a program's ``except Exception``
    does not swallow it."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"the program did not finish within {seconds:g} s (--timeout SECONDS allows more)"
        )
        self.seconds = seconds


class ProgramOutOfMemory(Exception):
    """The program allocated past its memory bound, raised from its ``MemoryError``."""

    def __init__(self, mib: int) -> None:
        super().__init__(
            f"the program went past its memory bound of {mib} MiB (--memory MIB or "
            f"{MEMORY_ENV} allows more)"
        )
        self.mib = mib


class _HardExit(SystemExit):
    """``os._exit`` while a program runs."""


class ProgramRaised(Exception):
    """The program raised a ``BaseException`` that is not an ``Exception`` (nor an exit, nor
    a real Ctrl-C): its failure, raised from the original."""

    def __init__(self, raised: BaseException) -> None:
        super().__init__(f"{type(raised).__name__}: {raised}")
        self.raised = raised


class _Interrupts:
    """Whether Ctrl-C (SIGINT) really arrived while the program ran: a program that raises
    ``KeyboardInterrupt`` itself has failed, it was not interrupted."""

    seen = False

    @classmethod
    def handler(cls, signum: int, frame: Any) -> None:
        cls.seen = True
        signal.default_int_handler(signum, frame)


def _exit_text(code: Any, hard: bool) -> str:
    return f"{'os._exit' if hard else 'sys.exit'}({code!r})" if code is not None else "sys.exit()"


def exited(err: SystemExit) -> ProgramExited:
    return ProgramExited(_exit_text(err.code, isinstance(err, _HardExit)))


def call_program(program: Callable[[], Any]) -> Any:
    """Call ``program``; its ``SystemExit`` (``sys.exit``, ``os._exit`` under ``guarded``) is a
    ``ProgramExited`` error like any other of the program's, and any other ``BaseException``
    but the deadline's and a real Ctrl-C is ``ProgramRaised``."""
    try:
        return program()
    except SystemExit as err:
        raise exited(err) from None
    except MemoryError as err:
        _OutOfMemory.raised = err  # the SDK may report a later error of its own instead
        raise
    except (Exception, ProgramTimedOut):
        raise
    except KeyboardInterrupt as err:
        if _Interrupts.seen:
            raise
        raise ProgramRaised(err) from err
    except BaseException as err:
        raise ProgramRaised(err) from err


@contextlib.contextmanager
def _os_exit_raises() -> Iterator[None]:
    real = os._exit

    def _exit(code: int) -> NoReturn:
        raise _HardExit(code)

    os._exit = _exit
    try:
        yield
    finally:
        os._exit = real


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    sys.stdout.flush()
    saved_fd = os.dup(1)
    saved = sys.stdout
    try:
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        yield
    finally:
        sys.stdout.flush()
        sys.stdout = saved
        os.dup2(saved_fd, 1)
        os.close(saved_fd)


@contextlib.contextmanager
def _stdin_empty() -> Iterator[None]:
    saved_fd = os.dup(0)
    saved = sys.stdin
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        sys.stdin = io.StringIO("")
        yield
    finally:
        sys.stdin = saved
        os.dup2(saved_fd, 0)
        os.close(saved_fd)
        os.close(null)


STOPPED_MARK = "caught every interruption"


def _stop_process(seconds: float) -> None:
    """The last resort: the program caught every interruption for ``HARD_STOP_AFTER`` s."""
    message = (
        f"error: the program did not finish within {seconds:g} s and {STOPPED_MARK}; the "
        "preview stopped it (--timeout SECONDS allows more)\n"
    )
    os.write(2, message.encode())
    _REAL_EXIT(EXIT_STOPPED)


@contextlib.contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    if (
        seconds is None
        or not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise ProgramTimedOut(seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    last_resort = threading.Timer(seconds + HARD_STOP_AFTER, _stop_process, (seconds,))
    last_resort.daemon = True
    last_resort.start()
    try:
        yield
    finally:
        last_resort.cancel()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_PR_SET_CHILD_SUBREAPER = 36
"""``prctl`` option (linux/prctl.h): orphaned descendants are reparented to this process, so a
daemon that forked twice to detach is still found among its children."""
_REAP_SECONDS = 2.0
"""Most seconds spent collecting the killed processes' exit statuses."""


def children_of(pid: int) -> set[int]:
    """The direct children of ``pid`` (every thread's), from ``/proc`` (none elsewhere)."""
    found: set[int] = set()
    for file in glob.glob(f"/proc/{pid}/task/*/children"):
        with contextlib.suppress(OSError, ValueError), open(file) as listing:
            found.update(int(child) for child in listing.read().split())
    return found


def become_reaper() -> None:
    """Make this process the reaper of its orphaned descendants (Linux; elsewhere a no-op)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signum)


def end_processes(roots: set[int]) -> None:
    """Kill ``roots`` and everything under them: each is stopped as it is found (a stopped
    process forks no more), then all are killed and their exit statuses collected."""
    found: list[int] = []
    seen: set[int] = set()
    queue = sorted(roots)
    while queue:
        pid = queue.pop()
        if pid in seen:
            continue
        seen.add(pid)
        found.append(pid)
        _signal(pid, signal.SIGSTOP)
        queue.extend(children_of(pid) - seen)
    for pid in found:
        _signal(pid, signal.SIGKILL)
    end = time.monotonic() + _REAP_SECONDS
    pending = found  # parents first: their killed children are ours to collect after them
    while pending and time.monotonic() < end:
        left = []
        for pid in pending:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not (or no longer) a child of ours
                continue
            if done == 0:
                left.append(pid)
        pending = left
        if pending:
            time.sleep(0.01)


@contextlib.contextmanager
def _processes_end_with_it() -> Iterator[None]:
    pid = os.getpid()
    become_reaper()
    before = children_of(pid)
    try:
        yield
    finally:
        if os.getpid() != pid:  # a copy the program made with os.fork: never a second preview
            _REAL_EXIT(EXIT_STOPPED)
        end_processes(children_of(pid) - before)


def _data_in_use() -> int:
    """The process's data memory now (``VmData``, what ``RLIMIT_DATA`` counts); 0 where
    ``/proc`` does not say."""
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


class _OutOfMemory:
    """The program's own ``MemoryError``, when it met its bound: the SDK reports the error of a
    registration still waiting instead, should there be one."""

    raised: MemoryError | None = None


NO_THREAD = "can't start new thread"
"""A thread's stack is data memory: under the bound, a thread that cannot start is memory."""


def _out_of_memory(err: BaseException) -> BaseException | None:
    """The error that says the program met its bound: its own ``MemoryError``, else ``err``'s
    cause or context that is one (or a thread that could not start); None when none is."""
    if _OutOfMemory.raised is not None:
        return _OutOfMemory.raised
    seen: set[int] = set()
    at: BaseException | None = err
    while at is not None and id(at) not in seen:
        if isinstance(at, MemoryError) or (isinstance(at, RuntimeError) and NO_THREAD in str(at)):
            return at
        seen.add(id(at))
        at = at.__cause__ or at.__context__
    return None


@contextlib.contextmanager
def _memory_bound(mib: int | None) -> Iterator[None]:
    if mib is None or resource is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    limit = _data_in_use() + mib * _MIB
    for existing in (soft, hard):  # a lower limit set by whoever started us stays
        if existing != resource.RLIM_INFINITY:
            limit = min(limit, existing)
    _OutOfMemory.raised = None
    try:
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
        bounded = True
    except (ValueError, OSError):  # no such limit here (not Linux): the deadline still holds
        bounded = False
    if not bounded:
        yield
        return
    try:
        yield
    except BaseException as err:
        cause = _out_of_memory(err)
        if cause is None:
            raise
        raise ProgramOutOfMemory(mib) from cause
    finally:
        _OutOfMemory.raised = None
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


@contextlib.contextmanager
def _interrupts_seen() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _Interrupts.seen = False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield  # Ctrl-C is handled elsewhere (or ignored): not ours to watch
        return
    previous = signal.signal(signal.SIGINT, _Interrupts.handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def guarded(
    timeout: float | None = DEFAULT_TIMEOUT, memory_mib: int | None = None
) -> Iterator[None]:
    """Run a program under the guards above (``timeout`` None: no clock; ``memory_mib`` None:
    no memory bound)."""
    with (
        _memory_bound(memory_mib),
        _stdout_to_stderr(),
        _stdin_empty(),
        _os_exit_raises(),
        _processes_end_with_it(),
        _interrupts_seen(),
        _deadline(timeout),
    ):
        yield
