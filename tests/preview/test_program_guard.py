"""A program cannot end the preview, write into its output, wait for stdin or run forever
(offline_preview/program_guard.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gpu_platform.offline_preview.program_guard import (
    ProgramExited,
    ProgramTimedOut,
    call_program,
    guarded,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("program", "how"),
    [
        (lambda: sys.exit(0), "sys.exit(0)"),
        (lambda: sys.exit("bye"), "sys.exit('bye')"),
        (sys.exit, "sys.exit()"),
        (lambda: os._exit(4), "os._exit(4)"),
    ],
)
def test_an_exit_ends_the_program_not_the_preview(program: object, how: str) -> None:
    real_exit = os._exit
    with guarded(None), pytest.raises(ProgramExited) as err:
        call_program(program)  # type: ignore[arg-type]
    assert str(err.value) == f"the program exited before it finished ({how})"
    assert os._exit is real_exit


def test_what_the_program_prints_goes_to_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    with guarded(None):
        print("from print")
        os.write(1, b"from the file descriptor\n")
        subprocess.run(["echo", "from a subprocess"], check=True)
    print("ours")
    out, err = capfd.readouterr()
    assert out == "ours\n"
    assert err == "from print\nfrom the file descriptor\nfrom a subprocess\n"


def test_stdin_is_empty_while_the_program_runs() -> None:
    saved = sys.stdin
    with guarded(None):
        assert sys.stdin.read() == ""
        assert os.read(0, 10) == b""
        with pytest.raises(EOFError):
            input()
    assert sys.stdin is saved


def _swallows_its_errors() -> None:
    while True:
        try:
            time.sleep(0.01)
        except Exception:
            continue


def test_a_program_past_its_time_is_interrupted_even_when_it_catches_exceptions() -> None:
    start = time.monotonic()
    with pytest.raises(ProgramTimedOut) as err, guarded(0.2):
        _swallows_its_errors()
    assert (
        str(err.value) == "the program did not finish within 0.2 s (--timeout SECONDS allows more)"
    )
    assert time.monotonic() - start < 30


def test_the_clock_stops_with_the_program() -> None:
    with guarded(0.2):
        pass
    time.sleep(0.4)  # no late interruption


@pytest.mark.slow
def test_a_program_that_catches_every_interruption_ends_the_process() -> None:
    script = textwrap.dedent(
        """
        import time
        from gpu_platform.offline_preview import program_guard
        program_guard.HARD_STOP_AFTER = 0.5
        with program_guard.guarded(0.2):
            while True:
                try:
                    time.sleep(0.05)
                except BaseException:
                    pass
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 3
    assert done.stderr == (
        "error: the program did not finish within 0.2 s and caught every interruption; the "
        "preview stopped it (--timeout SECONDS allows more)\n"
    )
