"""A program cannot end the preview, write into its output, wait for stdin, run forever or
allocate without bound (offline_preview/program_guard.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gpu_platform.offline_preview.cli import EXIT_CONFIG, EXIT_OK, EXIT_PROGRAM, main
from gpu_platform.offline_preview.program_guard import (
    DEFAULT_MEMORY_MIB,
    MEMORY_ENV,
    ProgramExited,
    ProgramTimedOut,
    call_program,
    guarded,
)
from gpu_platform.offline_preview.program_runner import ChildFailure, run_in

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


MEMORY_HOG = textwrap.dedent(
    """
    import pulumi

    held = []
    while True:
        held.append(bytearray(16 * 1024 * 1024))
    """
)
MODEST = textwrap.dedent(
    """
    import pulumi

    data = bytearray(16 * 1024 * 1024)
    pulumi.export("bytes", len(data))
    """
)
BOUND_MESSAGE = (
    "error: the program went past its memory bound of 64 MiB (--memory MIB or "
    f"{MEMORY_ENV} allows more)\n"
    "  at: __main__.py:6: held.append(bytearray(16 * 1024 * 1024))\n"
    "  cause: the program allocates more memory than it may"
)


def _program(folder: Path, source: str) -> Path:
    folder.mkdir()
    (folder / "Pulumi.yaml").write_text("name: memory\nruntime: python\n")
    (folder / "__main__.py").write_text(source)
    return folder


@pytest.fixture
def hog(tmp_path: Path) -> Path:
    return _program(tmp_path / "hog", MEMORY_HOG)


@pytest.fixture
def modest(tmp_path: Path) -> Path:
    return _program(tmp_path / "modest", MODEST)


def _data_limit() -> tuple[int, int]:
    import resource

    return resource.getrlimit(resource.RLIMIT_DATA)


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_DATA is enforced on Linux only")
def test_a_program_past_its_memory_bound_fails_naming_the_bound(
    hog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _data_limit()
    assert main(["--program", str(hog), "--memory", "64"]) == EXIT_PROGRAM
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(BOUND_MESSAGE)
    assert "allow more with --memory MIB" in err
    assert _data_limit() == before  # lifted with the program: the preview goes on


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_DATA is enforced on Linux only")
def test_the_bound_holds_in_the_programs_own_interpreter(hog: Path) -> None:
    with pytest.raises(ChildFailure) as err:
        run_in(
            Path(sys.executable),
            hog,
            project="memory",
            stack="dev",
            config={},
            secret_keys=[],
            mocks={},
            main=hog / "__main__.py",
            timeout=60,
            memory_mib=64,
        )
    assert err.value.failure["kind"] == "out-of-memory"
    assert "memory bound of 64 MiB" in err.value.failure["error"]
    assert err.value.failure["where"] == "__main__.py:6: held.append(bytearray(16 * 1024 * 1024))"


def test_a_program_within_its_bound_is_unaffected(
    modest: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--program", str(modest), "--memory", "64", "--format", "json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["outputs"] == {"bytes": 16 * 1024 * 1024}


def test_the_bound_defaults_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, hog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gpu_platform.offline_preview.cli import _parser

    assert _parser().parse_args([]).memory == DEFAULT_MEMORY_MIB
    monkeypatch.setenv(MEMORY_ENV, "64")
    assert _parser().parse_args([]).memory == 64
    assert _parser().parse_args(["--memory", "128"]).memory == 128
    if sys.platform == "linux":
        assert main(["--program", str(hog)]) == EXIT_PROGRAM
        assert capsys.readouterr().err.startswith(BOUND_MESSAGE)


@pytest.mark.parametrize("value", ["0", "-5", "lots", "1.5"])
def test_a_bad_bound_is_bad_input(
    monkeypatch: pytest.MonkeyPatch, modest: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as flag:
        main(["--program", str(modest), "--memory", value])
    assert flag.value.code == EXIT_CONFIG
    assert "argument --memory: " in capsys.readouterr().err
    monkeypatch.setenv(MEMORY_ENV, value)
    with pytest.raises(SystemExit) as env:
        main(["--program", str(modest)])
    assert env.value.code == EXIT_CONFIG
    assert f"{value!r} (--memory or {MEMORY_ENV})" in capsys.readouterr().err
